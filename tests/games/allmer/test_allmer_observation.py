"""The observation's fast path (a template of the fixed planes, a scatter per stone) equals
the planes written out one by one, after any line of play, chains included."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.games.allmer.geometry import COORDS, GEOMETRIES, MOUTHS, SIZE


def planes(state, player: int) -> np.ndarray:
    """The observation written plane by plane from its description (``observation``)."""
    n = state.game.num_players
    out = np.zeros((2 * n + 5, SIZE, SIZE), dtype=np.float32)
    for point, colour in enumerate(state.board):
        x, y = COORDS[point]
        if colour:
            out[(colour - 1 - player) % n, y, x] = 1.0
        out[n, y, x] = 1.0
        if GEOMETRIES[state.game.params["field"]].strong[point]:
            out[n + 1, y, x] = 1.0
        if point in MOUTHS:
            out[n + 2, y, x] = 1.0
    if state.chain >= 0:
        for point in state.touched_points():
            x, y = COORDS[point]
            out[n + 3, y, x] = 1.0
        x, y = COORDS[state.chain]
        out[n + 4, y, x] = 1.0
    if not state.is_terminal():
        out[n + 5 + (state.player - player) % n] = 1.0
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400),
       params=st.sampled_from([{"players": 4}, {"players": 2, "withdraw": True,
                                                "field": "middle8"}]))
def test_the_observation_is_its_planes_after_any_line_of_play(seed, steps, params):
    game = cathedral.load("allmer", **params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    for player in range(game.num_players):
        fast = state.observation_tensor(player)
        assert fast.dtype == np.float32 and fast.shape == game.observation_shape()
        assert np.array_equal(fast, planes(state, player))
