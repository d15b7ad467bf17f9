"""Bad input never crashes: corrupt state JSON and garbled move text, for every game.

Whatever the input, the answer is either a working state / a legal action, or a
``CathedralError`` (a ``ValueError``) that leaves the state as it was.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral import CathedralError
from cathedral.testing import random_action

SETTINGS = [("classic", {}), ("allmer", {}), ("allmer", {"players": 4}), ("red", {}),
            ("red", {"players": 4})]
WORDS = ["claim", "tile", "up", "die", "white", "+2", "take", "influence", "merchants", "done",
         "stop", "T1.1", "T99.9", "stone", "ornament", "arch", "99", "-1", "Castle", "Tavern",
         "Cathedral", "a1", "j10", "k11", "h3-h5", "h4-h6A", "h4-h3W", "f3-c6", "z9-a1", "roll",
         "setup", "x", "", "A", "W"]
JUNK = [0, 1, -1, 5, 99, 10**12, -4, None, "x", True, 2.5, [], {}]


def _positions(name: str, params: dict, seed: int, count: int) -> list[str]:
    game = cathedral.load(name, **params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    seen = []
    while not state.is_terminal() and len(seen) < count:
        seen.append(state.to_json())
        for _ in range(rng.randint(1, 6)):
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
    return seen


def _mutate(value, rng: random.Random):
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        value[key] = _mutate(value[key], rng)
        return value
    if isinstance(value, list) and value and rng.random() < 0.7:
        index = rng.randrange(len(value))
        value[index] = _mutate(value[index], rng)
        return value
    if isinstance(value, list) and rng.random() < 0.5:
        return value[:-1] if value else [rng.choice(JUNK)]
    return rng.choice(JUNK)


@pytest.mark.parametrize(("name", "params"), SETTINGS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_corrupt_state_json_is_refused_or_works(name, params, seed):
    rng = random.Random(seed)
    game = cathedral.load(name, **params)
    text = rng.choice(_positions(name, params, seed % 7, 20))
    data = json.loads(text)
    for _ in range(rng.randint(1, 3)):
        data["state"] = _mutate(data["state"], rng)
    try:
        state = game.state_from_json(json.dumps(data))
    except CathedralError:
        return
    # Accepted: it must then behave like any state.
    str(state)
    state.returns()
    legal = state.legal_actions()
    if legal:
        state.clone().apply_action(legal[0])


@pytest.mark.parametrize(("name", "params"), SETTINGS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       words=st.lists(st.sampled_from(WORDS), max_size=5),
       joiner=st.sampled_from([" ", "-", "", ",", "  "]))
def test_garbled_moves_are_refused_or_legal(name, params, seed, words, joiner):
    game = cathedral.load(name, **params)
    state = game.state_from_json(random.Random(seed).choice(_positions(name, params, 3, 20)))
    if state.current_player() < 0:
        return
    before = state.to_json()
    try:
        action = state.string_to_action(joiner.join(words))
    except CathedralError:
        assert state.to_json() == before
        return
    assert action in state.legal_actions()
