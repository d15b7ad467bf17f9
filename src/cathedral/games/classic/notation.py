"""The placement notation: a building's name and its squares, ``Castle c3 c4 d3 e3 e4``.

The canonical form lists the squares sorted by file, then rank. Parsing is case-insensitive
and takes the squares in any order, separated by spaces or commas.
"""

from __future__ import annotations

from cathedral.core.errors import NotationError
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_SQUARES,
    FILES,
    SIZE,
    Building,
    Square,
    parse_square,
    square_name,
)

BUILDING_NAMES = {b.title.lower(): b for b in Building}


def sort_squares(squares) -> list[Square]:
    """Returns squares sorted by file, then rank (the canonical order)."""
    return sorted(squares, key=lambda s: (s % SIZE, s // SIZE))


def placement_string(building: Building, squares) -> str:
    """Returns the canonical notation of a building on some squares."""
    return " ".join([building.title, *(square_name(s) for s in sort_squares(squares))])


def action_string(action: int) -> str:
    """Returns the canonical notation of an action number."""
    return placement_string(ACTION_BUILDING[action], ACTION_SQUARES[action])


def parse_placement(text: str) -> tuple[Building, frozenset[Square]]:
    """Parses ``"Castle c3 d3 e3 c4 e4"`` into the building and its set of squares.

    Raises:
        NotationError: an unknown building name, a bad or repeated square, or no squares.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(
            "empty move (expected a building and its squares, like 'Castle c3 c4 d3 e3 e4')"
        )
    name = words[0].lower()
    if name not in BUILDING_NAMES:
        known = ", ".join(b.title for b in Building)
        raise NotationError(f"unknown building {words[0]!r} in {text!r} (expected one of: {known})")
    building = BUILDING_NAMES[name]
    if len(words) == 1:
        raise NotationError(
            f"move {text!r} names no squares (expected the building's squares, like "
            f"'{building.title} c3 ...', files {FILES[0]}-{FILES[-1]}, ranks 1-{SIZE})"
        )
    squares = []
    for word in words[1:]:
        try:
            squares.append(parse_square(word))
        except ValueError as exc:
            raise NotationError(f"{exc} in {text!r}") from None
    if len(set(squares)) != len(squares):
        raise NotationError(f"move {text!r} names a square twice")
    return building, frozenset(squares)
