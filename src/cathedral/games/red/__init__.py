"""The Red Cathedral (Devir 2020): the complete game for 2 to 4 players, on a component data
set that is a documented reconstruction (see ``data/reconstructed.json``).

Modules, each importing only those below it: ``game`` (the Game), ``view`` (text boards, the
terminal's screen, pictures, move logs), ``heuristic`` (search hooks), ``serialize`` (state
JSON read back), ``state`` (the rules and the State), ``movegen`` (legal decisions),
``notation``, ``observation``, ``actions`` (the action numbering), ``phases`` (stages and
phases), ``scoring`` (the recognition track and tower points), ``components`` (the
component data set).
"""

from cathedral.games.red.game import RedGame

__all__ = ["RedGame"]
