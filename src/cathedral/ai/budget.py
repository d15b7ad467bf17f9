"""Search budgets, search results and the clock searches read.

A ``Budget`` says how long a search may run (seconds, iterations, depth; any mix, the first
limit reached stops it). A ``SearchInfo`` is what a search found: the action, its value per
player (indexed like ``returns()``, never relative to whoever moves), the principal
variation and what it cost. ``Deadline`` turns a budget into the one question a search loop
asks ("may I do one more?"), reading an injectable clock so tests can fake time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields

Clock = Callable[[], float]


@dataclass(frozen=True)
class Budget:
    """How much a search may spend; ``None`` means no limit of that kind.

    Attributes:
        seconds: wall-clock time per decision.
        iterations: MCTS simulations, or alpha-beta nodes.
        depth: alpha-beta plies (iterative deepening stops there); MCTS ignores it.
    """

    seconds: float | None = None
    iterations: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None and value <= 0:
                raise ValueError(f"budget {f.name} must be positive, got {value!r}")

    def is_bounded(self) -> bool:
        """Returns whether any limit is set (an unbounded search would never stop)."""
        return any(getattr(self, f.name) is not None for f in fields(self))

    def scaled(self, factor: float) -> Budget:
        """Returns this budget with time and iterations multiplied by ``factor``."""
        return Budget(
            seconds=None if self.seconds is None else self.seconds * factor,
            iterations=None if self.iterations is None else max(1, int(self.iterations * factor)),
            depth=self.depth,
        )

    def __repr__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) is not None]
        return f"Budget({', '.join(parts)})"


@dataclass
class SearchInfo:
    """The result of one search (``agent.analyse(state)``).

    Attributes:
        action: the action chosen for the player to move.
        values: the expected result per player, in the scale of ``returns()`` ([-1, 1]).
        pv: the principal variation, starting with ``action``.
        iterations: simulations (MCTS) or nodes (alpha-beta) spent.
        seconds: wall-clock time spent.
        depth: the deepest completed iteration (alpha-beta) or the tree's depth (MCTS).
        proven: whether ``values`` are exact (a solved position), not estimates.
        scores: every root action's value for the player to move, best first (for hints).
        margin: when the exact endgame solver decided, the final score margin for the player
            to move with best play (positive: that player wins by so much); else None.
        margin_exact: False when the solver proved who wins but not by how much: ``margin``
            is then the least a win is by.
    """

    action: int
    values: list[float]
    pv: list[int] = field(default_factory=list)
    iterations: int = 0
    seconds: float = 0.0
    depth: int = 0
    proven: bool = False
    scores: list[tuple[int, float]] = field(default_factory=list)
    margin: float | None = None
    margin_exact: bool = True


class Deadline:
    """A budget being spent: counts iterations and reads the clock.

    ``clock`` defaults to ``time.perf_counter``; tests pass a fake one.
    """

    def __init__(self, budget: Budget, clock: Clock | None = None) -> None:
        self.budget = budget
        self.clock = clock or time.perf_counter
        self.start = self.clock()
        self.iterations = 0

    def elapsed(self) -> float:
        return self.clock() - self.start

    def expired(self) -> bool:
        """Returns whether the budget is spent (iterations or seconds)."""
        budget = self.budget
        if budget.iterations is not None and self.iterations >= budget.iterations:
            return True
        return budget.seconds is not None and self.elapsed() >= budget.seconds

    def time_expired(self) -> bool:
        """Returns whether the time limit alone is spent (cheap checks inside deep loops)."""
        return self.budget.seconds is not None and self.elapsed() >= self.budget.seconds
