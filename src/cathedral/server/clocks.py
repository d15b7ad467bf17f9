"""Game clocks, kept by the server: an initial time and an increment per move.

Only human seats' clocks run (a computer's thinking time is the server's, not the player's);
chance outcomes are instant. The clock of the player to move runs from the moment the
position reached them. Time is read through an injectable ``now`` so tests never sleep.
After a restart, clocks resume from the remaining times stored with the last move: the time
the server was down is nobody's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class GameClock:
    """The clocks of one game.

    Attributes:
        initial_s: each player's time at the start.
        increment_s: added to a player's time after each of their moves.
        remaining: each player's time left, as of ``since`` for the running one.
        running: the player whose clock runs, or ``None``.
        since: when the running clock was last charged (the ``now`` clock's time).
    """

    initial_s: float
    increment_s: float
    remaining: list[float]
    running: int | None = None
    since: float = 0.0
    per_move: bool = False  # correspondence: every move gets ``initial_s`` afresh

    @classmethod
    def new(cls, initial_s: float, increment_s: float, players: int,
            per_move: bool = False) -> GameClock:
        return cls(float(initial_s), float(increment_s), [float(initial_s)] * players,
                   per_move=per_move)

    def charged(self, player: int, now: float) -> float:
        """``player``'s time after the move they make at ``now``."""
        if self.per_move:
            return self.initial_s
        return self.remaining[player] + self.increment_s - (now - self.since)

    def left(self, player: int, now: float) -> float:
        """Returns ``player``'s time left at ``now``."""
        if player == self.running:
            return self.remaining[player] - (now - self.since)
        return self.remaining[player]

    def start(self, player: int | None, now: float) -> None:
        """Starts ``player``'s clock (``None``: nobody's), stopping any other uncharged."""
        self.running = player
        self.since = now

    def moved(self, player: int, now: float) -> None:
        """Charges ``player`` for the move just made and adds the increment."""
        if self.running == player:
            self.remaining[player] = self.charged(player, now)
        self.running = None
        self.since = now

    def flagged(self, now: float) -> int | None:
        """Returns the running player if their time has run out, else ``None``."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def stop(self, now: float) -> None:
        """Charges the running player without an increment and stops every clock."""
        if self.running is not None:
            self.remaining[self.running] = max(0.0, self.left(self.running, now))
        self.running = None
        self.since = now

    def to_view(self, now: float, wall: Callable[[], float]) -> dict:
        """Returns the clock part of a game view (``as_of``: the server's wall time)."""
        return {
            "initial_s": self.initial_s,
            "increment_s": self.increment_s,
            "remaining_s": [round(max(0.0, self.left(p, now)), 3)
                            for p in range(len(self.remaining))],
            "running": self.running,
            "as_of": round(wall(), 3),
            "per_move": self.per_move,
        }
