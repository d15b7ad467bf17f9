"""Text boards of Allmer's Cathedral for terminals and logs.

Each point is a three-character cell: a stone's letter, ``+`` for an empty strong point (where
diagonals cross), ``.`` for an empty weak point, ``x`` for a point touched by the chain in
progress; the chaining stone is shown as ``(W)``. The four passages are drawn as ``/`` and
``\\`` outside the cross, between their mouths. Rank 15 (north) is printed at the top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.games.allmer.geometry import (
    BOX_TO_POINT,
    FILES,
    MOUTHS,
    PARTNER,
    SIZE,
    point_name,
)
from cathedral.games.allmer.movegen import PASSAGE_BASE, STOP, decode_step

if TYPE_CHECKING:
    from cathedral.games.allmer.state import AllmerState

PASSAGE_DRAWING = {
    (4, 3): "/",
    (3, 4): "/",
    (10, 3): "\\",
    (11, 4): "\\",
    (11, 10): "/",
    (10, 11): "/",
    (3, 10): "\\",
    (4, 11): "\\",
}
"""Off-board cells that draw the walkways between neighbouring arms."""

_RESET = "\x1b[0m"
_STONE_STYLE = {
    "W": "\x1b[1;97m",
    "U": "\x1b[1;94m",
    "B": "\x1b[1;30;47m",
    "R": "\x1b[1;91m",
}
_EMPTY_STYLE = "\x1b[2m"
_PASSAGE_STYLE = "\x1b[33m"
_LANDING_STYLE = "\x1b[43m"
_ORIGIN_STYLE = "\x1b[100m"

LEGEND = "+ strong point   . weak point   / \\ passage   (W) chaining stone   x touched"
LAST_LEGEND = "   [ ] last step"


def last_step(state: AllmerState) -> tuple[int, int] | None:
    """Returns ``(origin, landing)`` of the last stone move, or None (no move yet, or stop)."""
    history = state._history
    if not history or history[-1] == STOP:
        return None
    action = history[-1]
    if action >= PASSAGE_BASE:
        mouth = MOUTHS[action - PASSAGE_BASE]
        return mouth, PARTNER[mouth]
    origin, direction, distance, _ = decode_step(action)
    return origin, state._cfg.geo.rays[origin][direction][distance - 1]


def text_board(state: AllmerState, *, color: bool = False, mark_last: bool = False,
               width: int | None = None) -> str:
    """Returns the board, a legend and a status line; with ``color``, ANSI colours and the
    last step's origin and landing shaded; with ``mark_last`` and no colour, the two points
    in brackets (``[W]`` where the stone landed, ``[+]`` where it left)."""
    letters = state.game.colour_letters()
    geo = state._cfg.geo
    board = state.board
    marked = last_step(state) if color or mark_last else None
    header = "     " + "".join(f" {f} " for f in FILES)
    lines = [header]
    for y in range(SIZE):
        rank = SIZE - y
        cells = []
        for x in range(SIZE):
            p = BOX_TO_POINT.get((x, y))
            if p is None:
                mark = PASSAGE_DRAWING.get((x, y), " ")
                cell = f" {mark} "
                if color and mark != " ":
                    cell = _PASSAGE_STYLE + cell + _RESET
                cells.append(cell)
                continue
            colour = board[p]
            if colour:
                letter = letters[colour]
                cell = f"({letter})" if p == state.chain else f" {letter} "
            elif (state.touched >> p) & 1:
                cell = " x "
            else:
                cell = " + " if geo.strong[p] else " . "
            if marked and not color and p in marked and cell[0] == " ":
                cell = f"[{cell[1]}]"
            if color:
                style = _STONE_STYLE[letters[colour]] if colour else _EMPTY_STYLE
                if marked and p == marked[1]:
                    style += _LANDING_STYLE
                elif marked and p == marked[0]:
                    style += _ORIGIN_STYLE
                cell = style + cell + _RESET
            cells.append(cell)
        lines.append(f"{rank:>3}  " + "".join(cells) + f"  {rank}")
    lines.append(header)
    legend = LEGEND + (LAST_LEGEND if marked and not color else "")
    if width is not None and len(legend) > width:
        lines.extend([LEGEND, LAST_LEGEND.strip()] if legend != LEGEND else [LEGEND])
    else:
        lines.append(legend)
    status = status_line(state)
    if width is not None and len(status) > width:
        import textwrap

        lines.extend(textwrap.wrap(status, width=width, subsequent_indent="    "))
    else:
        lines.append(status)
    return "\n".join(lines)


def status_line(state: AllmerState) -> str:
    """Returns the stone counts and whose turn it is (or the result)."""
    names = state.game.player_names()
    counts = "  ".join(
        f"{names[p]} {c}" + ("" if c >= 4 else " (out)") for p, c in enumerate(state.counts)
    )
    if state.termination is not None:
        return f"{counts}  |  {state.result_string()}"
    text = f"{counts}  |  turn {state.turns + 1}, {names[state.player]} to move"
    if state.chain >= 0:
        text += f", converting with the stone on {point_name(state.chain)}"
    return text


def prompt_hint(state: AllmerState) -> str:
    """Returns which stone must go on converting, while a chain is in progress."""
    if state.termination is not None or state.chain < 0:
        return ""
    name = state.game.player_names()[state.player]
    return (
        f"{name} is converting: the stone on {point_name(state.chain)} may convert again "
        f"({'a step ending in A or W' if state._cfg.withdraw else 'a step ending in A'}), "
        "or type stop to end the turn"
    )
