"""The text board of classic Cathedral, plain or with ANSI colours (``render`` is
``str(state)`` and ``state.render(...)``).

Each square shows one character: a building's letter (upper case Light, lower case Dark), ``#``
for the Cathedral, ``+`` Light territory, ``-`` Dark territory, ``.`` empty. The colour form
shades buildings and territories and marks the last placement.

``terminal_text`` is the terminal's layout: the same board with the last placement marked
(``*`` before each of its squares, or a shade in colour) and beside it the shapes of the
buildings each colour still has in hand, as they sit when not turned (Light's and Dark's
Abbey and Academy are mirror images).
"""

from __future__ import annotations

import re

from cathedral.games.classic import notation
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_SQUARES,
    COLOUR_NAMES,
    DARK,
    FILES,
    GONE,
    IN_HAND,
    LIGHT,
    PLAYER_BUILDINGS,
    SIZE,
    SQUARES_OF_BUILDING,
    Building,
    shape,
    squares_of,
)
from cathedral.games.classic.state import ClassicState, Position

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


SHORT_LEGEND = (
    "# Cathedral  T Tavern  S Stable  I Inn",
    "B Bridge  Q Square  M Manor  A Abbey",
    "Y Academy  F Infirmary  K Castle  W Tower",
)


def hand_shapes(position: Position, colour: int, *, color: bool = False) -> list[str]:
    """Returns the buildings ``colour`` has in hand drawn side by side (each copy once), the
    rows aligned at the bottom, with a space between buildings."""
    drawings = []
    if colour == LIGHT and position.cathedral_state == IN_HAND:
        drawings.append((shape(Building.CATHEDRAL, colour), "#", "cathedral"))
    for building, count in zip(PLAYER_BUILDINGS, position.hands[colour]):
        letter = LETTERS[building] if colour == LIGHT else LETTERS[building].lower()
        for _ in range(count):
            drawings.append((shape(building, colour), letter, "light" if colour == LIGHT
                             else "dark"))
    if not drawings:
        return ["(nothing)"]
    height = max(len(rows) for rows, _, _ in drawings)
    lines = [""] * height
    for rows, letter, style in drawings:
        padded = ("." * len(rows[0]),) * (height - len(rows)) + tuple(rows)
        for i, row in enumerate(padded):
            cells = "".join(
                (_paint(letter, style) if color else letter) if ch == "#" else " " for ch in row)
            lines[i] += cells + " "
    return [line.rstrip() for line in lines]


def terminal_text(position: Position, *, last_action: int | None, color: bool,
                  width: int) -> list[str]:
    """Returns the board with the hands' shapes beside it (below it when ``width`` is too
    narrow for both), the last placement marked."""
    board = board_text(position, last_action=last_action, color=color).splitlines()
    board = board[: SIZE + 2]  # the hand lines are drawn as shapes instead
    if not color and last_action is not None:
        board = _star_last(board, last_action)
    panel = []
    for colour in (LIGHT, DARK):
        squares = position.unplaced(colour)
        panel.append(f"{COLOUR_NAMES[colour]} in hand, {squares} squares:")
        panel.extend(hand_shapes(position, colour, color=color))
    panel.extend(SHORT_LEGEND)
    if position.cathedral_state == GONE:
        panel.append("The Cathedral is captured, out of the game.")
    board_width = 4 + 2 * SIZE + 4
    panel_width = max(len(_plain(line)) for line in panel)
    if board_width + 3 + panel_width > width:
        return board + panel
    lines = []
    for i in range(max(len(board), len(panel))):
        left = board[i] if i < len(board) else ""
        pad = board_width - len(_plain(left))
        right = panel[i] if i < len(panel) else ""
        lines.append((left + " " * pad + "   " + right).rstrip())
    return lines


def _star_last(board: list[str], last_action: int) -> list[str]:
    """Marks the squares of the last placement with ``*`` in front of their letter."""
    rows = [list(line) for line in board]
    for square in ACTION_SQUARES[last_action]:
        rank, file = divmod(square, SIZE)
        row = rows[SIZE - rank]  # rank 10 is line 1
        column = 3 + 2 * file  # "10  . . ." : the cell of file f is at 4 + 2f, a space before
        row[column] = "*"
    return ["".join(row) for row in rows]


def _plain(text: str) -> str:
    """Returns ``text`` without ANSI codes (for measuring it)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def render(state: ClassicState, *, color: bool = False, width: int | None = None) -> str:
    """Returns the text board and a status line; given a terminal ``width``, the terminal's
    layout (the shapes in hand beside the board, the last placement marked even without
    colour)."""
    position = state.position
    history = state.history()
    last = history[-1] if history else None
    if width is None:
        text = board_text(position, last_action=last, color=color)
    else:
        text = "\n".join(terminal_text(position, last_action=last, color=color, width=width))
    if last is not None:
        text += f"\nLast: {COLOUR_NAMES[state.last_mover()]} {notation.action_string(last)}"
    if state.is_terminal():
        text += "\n" + state.result_string()
    elif position.to_move in (LIGHT, DARK):
        text += f"\n{COLOUR_NAMES[position.to_move]} to move."
    return text


def prompt_hint(state: ClassicState) -> str:
    """Returns the reminder that Light's first placement is the Cathedral, when it is."""
    position = state.position
    if position.to_move == LIGHT and position.cathedral_state == IN_HAND:
        return "Light places the Cathedral first (e.g. 'Cathedral e4 d5 e5 f5 e6 e7')."
    return ""
