"""Classic Cathedral (Robert P. Moore, 1978): registry name ``classic``."""

from cathedral.games.classic.game import ClassicGame, ClassicState
from cathedral.games.classic.pieces import Building, parse_square, square_name

__all__ = ["Building", "ClassicGame", "ClassicState", "parse_square", "square_name"]
