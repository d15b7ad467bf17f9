"""What a placement did, for people: the notation, then the captures, the territory won and
a player who cannot place and is skipped (the terminal's log of moves)."""

from __future__ import annotations

from cathedral.core.contract import TERMINAL
from cathedral.games.classic import notation
from cathedral.games.classic.pieces import ACTION_BUILDING, COLOUR_NAMES, GONE, Building
from cathedral.games.classic.state import ClassicState, skips


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
    if skips(after, colour, action):
        notes.append(f"{COLOUR_NAMES[opponent]} cannot place and is skipped")
    elif after.to_move == TERMINAL:
        notes.append("neither side can place: the game is over")
    return text + ("; " + "; ".join(notes) if notes else "")
