"""The text board of classic Cathedral, plain or with ANSI colours.

Each square shows one character: a building's letter (upper case Light, lower case Dark), ``#``
for the Cathedral, ``+`` Light territory, ``-`` Dark territory, ``.`` empty. The colour form
shades buildings and territories and marks the last placement.
"""

from __future__ import annotations

from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_SQUARES,
    COLOUR_NAMES,
    FILES,
    LIGHT,
    PLAYER_BUILDINGS,
    SIZE,
    SQUARES_OF_BUILDING,
    Building,
    squares_of,
)
from cathedral.games.classic.rules import GONE, IN_HAND, Position

LETTERS = {
    Building.TAVERN: "T",
    Building.STABLE: "S",
    Building.INN: "I",
    Building.BRIDGE: "B",
    Building.SQUARE: "Q",
    Building.MANOR: "M",
    Building.ABBEY: "A",
    Building.ACADEMY: "Y",
    Building.INFIRMARY: "F",
    Building.CASTLE: "K",
    Building.TOWER: "W",
}

# ANSI 256-colour backgrounds and foregrounds, as (background, foreground).
_STYLE = {
    "light": (230, 16),
    "dark": (94, 231),
    "cathedral": (124, 231),
    "light_territory": (187, 94),
    "dark_territory": (138, 230),
    "empty": (None, 244),
    "last": (220, 16),
}


def _paint(text: str, style: str, *, bold: bool = False) -> str:
    background, foreground = _STYLE[style]
    codes = ["1"] if bold else []
    if background is not None:
        codes.append(f"48;5;{background}")
    codes.append(f"38;5;{foreground}")
    return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"


def hand_text(position: Position, colour: int) -> str:
    """Returns a colour's hand like ``Tavern x2, Castle (12 squares)``."""
    parts = []
    for building, count in zip(PLAYER_BUILDINGS, position.hands[colour]):
        if count:
            parts.append(building.title + (f" x{count}" if count > 1 else ""))
    squares = sum(
        c * SQUARES_OF_BUILDING[b] for b, c in zip(PLAYER_BUILDINGS, position.hands[colour])
    )
    if colour == LIGHT and position.cathedral_state == IN_HAND:
        parts.insert(0, "Cathedral")
    return f"{', '.join(parts) or 'nothing'} ({squares} squares)"


def board_text(position: Position, *, last_action: int | None = None, color: bool = False) -> str:
    """Returns the board, rank 10 at the top, with both hands below."""
    cells = {}
    for colour in (0, 1):
        for action in position.pieces[colour]:
            letter = LETTERS[ACTION_BUILDING[action]]
            for square in ACTION_SQUARES[action]:
                cells[square] = (letter if colour == LIGHT else letter.lower(),
                                 "light" if colour == LIGHT else "dark")
    for square in squares_of(position.cathedral):
        cells[square] = ("#", "cathedral")
    last = set(ACTION_SQUARES[last_action]) if last_action is not None else set()
    files = "    " + " ".join(FILES)
    lines = [files]
    for rank in range(SIZE - 1, -1, -1):
        row = []
        for file in range(SIZE):
            square = rank * SIZE + file
            if square in cells:
                char, style = cells[square]
            elif position.territory[0] >> square & 1:
                char, style = "+", "light_territory"
            elif position.territory[1] >> square & 1:
                char, style = "-", "dark_territory"
            else:
                char, style = ".", "empty"
            if color:
                if square in last:
                    style = "last"
                row.append(_paint(f" {char}", style, bold=style != "empty"))
            else:
                row.append(f" {char}")
        body = "".join(row) if color else "".join(row)[1:]
        lines.append(f"{rank + 1:>2} {' ' if not color else ''}{body}  {rank + 1}")
    lines.append(files)
    if position.cathedral_state == GONE:
        lines.append("The Cathedral has been captured and is out of the game.")
    for colour in (0, 1):
        lines.append(f"{COLOUR_NAMES[colour]} hand: {hand_text(position, colour)}")
    return "\n".join(lines)


LEGEND = (
    "Upper case: Light buildings, lower case: Dark; # Cathedral; + Light territory, "
    "- Dark territory. Letters: T Tavern, S Stable, I Inn, B Bridge, Q Square, M Manor, "
    "A Abbey, Y Academy, F Infirmary, K Castle, W Tower."
)
