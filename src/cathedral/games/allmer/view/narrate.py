"""What a step did, for people: the notation, then the stones converted (and whose), a
player brought below four stones, players who cannot move and are skipped, and the end
(the terminal's log of moves)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.games.allmer.geometry import point_name
from cathedral.games.allmer.movegen import MIN_ALIVE
from cathedral.games.allmer.state import passed_over

if TYPE_CHECKING:
    from cathedral.games.allmer.state import AllmerState


def describe(state: AllmerState, action: int) -> str:
    """Returns ``action``'s notation and what it did from ``state`` (not changed)."""
    names = state.game.player_names()
    after = state.clone()
    after._apply_action(action)
    text = state.action_to_string(action)
    notes = []
    for p, (old, new) in enumerate(zip(state.counts, after.counts)):
        if new < old:
            lost = [point_name(q) for q in range(len(state.board))
                    if state.board[q] == p + 1 and after.board[q] != p + 1]
            shown = ", ".join(lost) if len(lost) <= 6 else f"{len(lost)} points"
            if old - new == 1:
                notes.append(f"converts {names[p]}'s stone on {shown}")
            else:
                notes.append(f"converts {old - new} of {names[p]}'s stones ({shown})")
            if old >= MIN_ALIVE > new:
                notes.append(f"{names[p]} is down to {new} and out")
    mover = state.current_player()
    if after.termination is None:
        if after.player == mover and after.chain >= 0:
            notes.append(f"goes on converting with the stone on {point_name(after.chain)}")
        else:
            notes += [f"{names[p]} cannot move and is skipped"
                      for p in passed_over(mover, after)]
    else:
        notes.append(after.result_string())
    return text + ("; " + "; ".join(notes) if notes else "")
