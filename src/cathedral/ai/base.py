"""The agent interface shared by every computer player, and the two simplest players.

An agent chooses an action for the player to move; it knows games only through the contract
(and the optional ``State.action_heuristics`` hook). Randomness comes from the agent's own
seeded ``random.Random``, so a seeded agent is deterministic.
"""

from __future__ import annotations

import random

from cathedral.core.contract import Action, State


class Agent:
    """A computer player. Subclasses implement ``choose``."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        """Returns a legal action for the player to move in ``state`` (never changes it)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())


class GreedyAgent(Agent):
    """Plays the action the game's one-ply heuristic scores best; ties broken at random."""

    name = "greedy"

    def choose(self, state: State) -> Action:
        scored = state.action_heuristics()
        best = max(score for _, score in scored)
        return self.rng.choice([a for a, score in scored if score >= best - 1e-9])
