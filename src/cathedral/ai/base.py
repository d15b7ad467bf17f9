"""The agent interface shared by every computer player, and the two simplest players.

An agent chooses an action for the player to move; it knows games only through the contract
(``evaluate()`` and ``action_heuristics()`` are the optional per-game hooks). Randomness comes
from the agent's own seeded ``random.Random``, so a seeded agent is deterministic (searches
budgeted by time are not: how far they get depends on the machine).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from cathedral.ai.budget import SearchInfo
from cathedral.core.contract import Action, State


def static_values(state: State) -> list[float]:
    """Returns ``returns()`` at the end, else the game's ``evaluate()``, else zeros."""
    if state.is_terminal():
        return list(state.returns())
    try:
        return list(state.evaluate())
    except NotImplementedError:
        return [0.0] * state.game.num_players


def position_key(state: State) -> object:
    """Returns a hashable key identifying the position (not the path) of ``state``."""
    hook = getattr(state, "position_key", None)
    if hook is not None:
        return hook()
    data = state._to_dict()
    data.pop("history", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def chance_sample(state: State, rng: random.Random) -> Action:
    """Returns a chance outcome of ``state`` drawn by its probability."""
    outcomes = state.chance_outcomes()
    point = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if point < total:
            return action
    return outcomes[-1][0]


def pick_best(scored: list[tuple[Action, float]], rng: random.Random) -> Action:
    """Returns the best-scored action, ties broken by ``rng``."""
    best = max(score for _, score in scored)
    return rng.choice([a for a, score in scored if score >= best - 1e-9])


class Agent:
    """A computer player. Subclasses implement ``choose`` (and ``analyse`` when they search).

    ``params`` are the keyword arguments the agent was built with (levels and the arena
    record them). ``progress``, when set, is called with a ``SearchInfo`` each time a search
    knows more (after every completed depth, or every so many simulations), so a front end
    can show an analysis as it deepens.
    """

    name = "agent"
    progress: Callable[[SearchInfo], None] | None = None

    def __init__(self, seed: int | None = None, **params) -> None:
        if params:
            raise TypeError(f"{type(self).__name__} takes no parameters {sorted(params)}")
        self.rng = random.Random(seed)
        self.params: dict = {}
        self.label = self.name  # what reports call it: the level or spec it was loaded by

    def choose(self, state: State) -> Action:
        """Returns a legal action for the player to move in ``state`` (never changes it)."""
        return self.analyse(state).action

    def analyse(self, state: State) -> SearchInfo:
        """Returns the chosen action with what the agent knows of it (values per player)."""
        action = self.choose(state)
        return SearchInfo(action=action, values=[0.0] * state.game.num_players, pv=[action])

    def reset(self) -> None:
        """Forgets anything kept between moves (a new game starts)."""

    def close(self) -> None:
        """Ends any processes the agent started (searches on several cores); it can still
        play afterwards, starting them again if it needs them."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())


class GreedyAgent(Agent):
    """Plays the action the game's one-ply heuristic scores best; ties broken at random.

    When the best action would take the mover's previous move straight back
    (``State.undoes``), the best other action within ``undo_margin`` of it is played instead:
    a one-ply player otherwise walks a stone back and forth between two points for want of a
    better idea (Allmer's game; the other games never undo).
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, *, undo_margin: float = 0.5) -> None:
        super().__init__(seed)
        if undo_margin < 0:
            raise ValueError(f"undo_margin must be at least 0, got {undo_margin}")
        self.undo_margin = undo_margin
        self.params = {"undo_margin": undo_margin}

    def choose(self, state: State) -> Action:
        return self.analyse(state).action

    def analyse(self, state: State) -> SearchInfo:
        scored = state.action_heuristics()
        action = pick_best(scored, self.rng)
        if self.undo_margin and state.undoes(action):
            floor = max(v for _, v in scored) - self.undo_margin
            others = [(a, v) for a, v in scored if v >= floor and not state.undoes(a)]
            if others:
                action = pick_best(others, self.rng)
        child = state.clone()
        child._apply_action(action)
        ranking = sorted(scored, key=lambda item: -item[1])
        return SearchInfo(
            action=action, values=static_values(child), pv=[action], iterations=len(scored),
            depth=1, scores=ranking,
        )
