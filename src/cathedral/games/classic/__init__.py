"""Classic Cathedral (Robert P. Moore, 1978): registry name ``classic``.

Modules, each importing only those below it: ``game`` (the Game), ``view`` (text boards,
pictures, move logs), ``heuristic`` (search hooks, with ``threats`` and ``quiet``),
``serialize`` (state JSON read back), ``state`` (the rules and the State), ``notation``,
``observation``, ``movegen`` (legal placements), ``pieces`` (squares, buildings, placements).
"""

from cathedral.games.classic.game import ClassicGame
from cathedral.games.classic.pieces import Building, parse_square, square_name
from cathedral.games.classic.state import ClassicState

__all__ = ["Building", "ClassicGame", "ClassicState", "parse_square", "square_name"]
