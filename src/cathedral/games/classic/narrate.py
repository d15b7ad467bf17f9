"""What a placement did, for people: the notation, then the captures, the territory won and
a player who cannot place and is skipped (the terminal's log of moves)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.core.contract import TERMINAL
from cathedral.games.classic import notation
from cathedral.games.classic.pieces import ACTION_BUILDING, COLOUR_NAMES, Building
from cathedral.games.classic.rules import GONE

if TYPE_CHECKING:
    from cathedral.games.classic.game import ClassicState


def describe(state: ClassicState, action: int) -> str:
    """Returns ``action``'s notation and what it did from ``state`` (not changed)."""
    before = state.position
    colour = before.to_move
    opponent = 1 - colour
    after = before.copy()
    after.place(action)
    text = notation.action_string(action)
    notes = []
    for captured in set(before.pieces[opponent]) - set(after.pieces[opponent]):
        notes.append(f"captures {COLOUR_NAMES[opponent]}'s {ACTION_BUILDING[captured].title} "
                     f"(back to {COLOUR_NAMES[opponent]}'s hand)")
    if before.cathedral_state != GONE and after.cathedral_state == GONE:
        notes.append("captures the Cathedral (out of the game)")
    won = bin(after.territory[colour] & ~before.territory[colour]).count("1")
    if won and ACTION_BUILDING[action] is not Building.CATHEDRAL:
        notes.append(f"claims {won} square{'s' if won != 1 else ''} of territory")
    if _skips(after, colour, action):
        notes.append(f"{COLOUR_NAMES[opponent]} cannot place and is skipped")
    elif after.to_move == TERMINAL:
        notes.append("neither side can place: the game is over")
    return text + ("; " + "; ".join(notes) if notes else "")


def _skips(after, colour: int, action: int) -> bool:
    """Whether the opponent of ``colour`` loses their turn after ``action``: the same colour
    is to move again (the Cathedral, placed for Light before Light's first building, is not
    a turn of its own)."""
    return after.to_move == colour and ACTION_BUILDING[action] is not Building.CATHEDRAL


def skipped(state: ClassicState, action: int) -> list[int]:
    """The colours whose turn ``action`` skips: the opponent, when it cannot place."""
    before = state.position
    after = before.copy()
    after.place(action)
    return [1 - before.to_move] if _skips(after, before.to_move, action) else []
