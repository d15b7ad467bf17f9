"""What a decision did in The Red Cathedral, for people: the notation, then what the player
gained or paid (materials, rubles, the recognition marker and prestige), what others lost to
a penalty, and whose turn it is when the turn passes (the terminal's log of moves)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.games.red.components import MATERIALS
from cathedral.games.red.state import passed_over

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState


def _changes(before: RedState, after: RedState, p: int) -> list[str]:
    out = []
    for m, name in enumerate(MATERIALS):
        delta = after.inv[p * 6 + m] - before.inv[p * 6 + m]
        if delta:
            out.append(f"{delta:+d} {name}")
    delta = after.rubles[p] - before.rubles[p]
    if delta:
        out.append(f"{delta:+d} ruble{'s' if abs(delta) != 1 else ''}")
    delta = after.pos[p] - before.pos[p]
    if delta:
        out.append(f"marker {delta:+d}")
    delta = after.track.prestige(after.pos[p]) - before.track.prestige(before.pos[p])
    if delta:
        out.append(f"prestige {delta:+d}")
    return out


def describe(state: RedState, action: int) -> str:
    """Returns ``action``'s notation and what it did from ``state`` (not changed)."""
    text = state.action_to_string(action)
    mover = state.current_player()
    if mover < 0:
        return text
    names = state.game.player_names()
    after = state.clone()
    after._apply_action(action)
    notes = []
    own = _changes(state, after, mover)
    if own:
        notes.append(" ".join(own))
    for p in range(state.n):
        if p != mover:
            other = _changes(state, after, p)
            if other:
                notes.append(f"{names[p]} {' '.join(other)}")
    if after.is_terminal():
        notes.append("the game is over")
    else:
        notes += [f"{names[p]} is skipped" for p in passed_over(state, after, mover)]
    return text + (" (" + "; ".join(notes) + ")" if notes else "")
