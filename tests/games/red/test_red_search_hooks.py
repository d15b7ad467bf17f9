"""The search hooks of red: a position key that ignores the path and tracks the position."""

from __future__ import annotations

import random

import cathedral
from cathedral.testing import random_action


def test_position_key_survives_copies_and_json_and_changes_with_the_position():
    game = cathedral.load("red", players=3)
    state = game.new_initial_state()
    rng = random.Random(2)
    keys = set()
    for _ in range(150):
        if state.is_terminal():
            break
        key = state.position_key()
        hash(key)
        assert state.clone().position_key() == key
        assert game.state_from_json(state.to_json()).position_key() == key
        keys.add(key)
        state.apply_action(random_action(state, rng))
    assert len(keys) > 100  # every decision changes something in the position
