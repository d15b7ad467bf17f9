"""Helpers of the research-interface tests: the game settings every test runs on, and random
positions of each (imported by conftest and the tests; the suite uses importlib mode)."""

from __future__ import annotations

import random

import cathedral
from cathedral.envs import adapter

CONFIGS = [
    ("classic", {}),
    ("allmer", {"players": 2}),
    ("allmer", {"players": 4}),
    ("red", {"players": 2}),
    ("red", {"players": 4}),
]
IDS = ["classic", "allmer2", "allmer4", "red2", "red4"]


def random_states(game: cathedral.Game, count: int, seed: int = 0) -> list[cathedral.State]:
    """Returns ``count`` decision positions (and the ends) met in random games of ``game``."""
    rng = random.Random(seed)
    out: list[cathedral.State] = []
    while len(out) < count:
        state = game.new_initial_state()
        adapter.resolve_chance(state, rng)
        while not state.is_terminal() and len(out) < count:
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
            adapter.resolve_chance(state, rng)
        if state.is_terminal():
            out.append(state)
    return out
