"""The shared pieces of the research interfaces: fast paths equal the engine, chance follows
its probabilities from a seed, pictures show the position."""

from __future__ import annotations

import random

import numpy as np
import pytest
from envs_testlib import CONFIGS, IDS, random_states

import cathedral
from cathedral.envs import adapter, draw

VARIANTS = [
    *CONFIGS,
    ("allmer", {"players": 2, "withdraw": True, "field": "middle8"}),
    ("allmer", {"players": 4, "withdraw": True}),
]


@pytest.mark.parametrize(("name", "params"), VARIANTS)
def test_the_fast_observation_is_the_engines(name, params):
    game = cathedral.load(name, **params)
    observe = adapter.observation_function(game)
    for state in random_states(game, 300, seed=1):
        for player in range(game.num_players):
            fast = observe(state, player)
            engine = state.observation_tensor(player)
            assert fast.dtype == engine.dtype and fast.shape == engine.shape
            assert np.array_equal(fast, engine)


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=IDS)
def test_the_mask_is_the_legal_actions_as_int8(name, params):
    game = cathedral.load(name, **params)
    mask_of = adapter.mask_function(game)
    for state in random_states(game, 60, seed=2):
        mask = mask_of(state)
        assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions(),)
        assert np.flatnonzero(mask).tolist() == state.legal_actions()


def test_chance_outcomes_follow_their_probabilities_and_the_seed():
    game = cathedral.load("red", players=2)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    rng = random.Random(0)
    counts: dict[int, int] = {}
    for _ in range(4000):
        action = adapter.chance_outcome(state, rng)
        counts[action] = counts.get(action, 0) + 1
    assert set(counts) <= set(outcomes)
    for action, probability in outcomes.items():
        assert abs(counts.get(action, 0) / 4000 - probability) < 0.04
    first, second = game.new_initial_state(), game.new_initial_state()
    adapter.resolve_chance(first, random.Random(5))
    adapter.resolve_chance(second, random.Random(5))
    assert first.history() == second.history() and first.current_player() >= 0


def test_apply_checked_refuses_what_the_mask_refuses():
    game = cathedral.load("classic")
    state = game.new_initial_state()
    mask = adapter.legal_mask(state)
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad in (illegal, -1, 2765, 1.5, True, "Castle"):
        with pytest.raises(cathedral.IllegalActionError):
            adapter.apply_checked(state, bad, mask)
    assert state.history() == []
    legal = int(np.flatnonzero(mask)[0])
    adapter.apply_checked(state, np.int64(legal), mask)
    assert state.history() == [legal]


def test_a_settled_return_is_the_final_return():
    game = cathedral.load("allmer", players=4)
    state = type(game.new_initial_state()).from_position(
        game, {"W": "h4 g1 i1 j1", "U": "h6 h7 h8 a7", "B": "h15 i15 j15 h14", "R": "o7 o8 o9 o10"}
    )
    state.apply_action(state.string_to_action("h4-h5A"))
    assert adapter.players_out(state) == (1,)
    settled = adapter.settled_return(state, 1)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert settled == state.returns()[1] == -1.0


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=IDS)
def test_the_picture_is_an_rgb_image_that_changes_with_the_position(name, params):
    game = cathedral.load(name, **params)
    states = random_states(game, 40, seed=3)
    first, later = draw.board_image(states[0]), draw.board_image(states[-1])
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[0] > 200 and first.shape[1] > 200
    assert not np.array_equal(first, later)


def test_the_classic_picture_paints_each_colour_where_its_buildings_stand():
    game = cathedral.load("classic")
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("Cathedral e4 d5 e5 f5 e6 e7"))
    state.apply_action(state.string_to_action("Tavern a1"))
    picture = draw.board_image(state)

    def colour_at(square: str) -> tuple[int, ...]:
        file, rank = ord(square[0]) - ord("a"), int(square[1:])
        x = draw._MARGIN + file * draw._CELL + draw._CELL // 2
        y = draw._MARGIN + (10 - rank) * draw._CELL + draw._CELL // 2
        return tuple(int(v) for v in picture[y, x])

    assert colour_at("a1") == draw.SEAT_COLOURS["Dark"]
    assert colour_at("e5") == draw.SEAT_COLOURS["Red"]  # the Cathedral
    assert colour_at("j10") == draw.PAPER
