"""The fast ray-table step generator agrees with a plain model of the rules (allmer_testlib)
on positions from random games and on random boards, chains included."""

from __future__ import annotations

import random

import pytest
from allmer_testlib import load, model_of, steps
from hypothesis import given, settings
from hypothesis import strategies as st

from cathedral.games.allmer import AllmerState
from cathedral.games.allmer.geometry import NUM_POINTS, point_name

SETTINGS = [
    {},
    {"field": "middle8"},
    {"players": 4},
    {"withdraw": True},
    {"players": 4, "field": "middle8", "withdraw": True},
]


@pytest.mark.parametrize(
    "params", SETTINGS, ids=lambda p: ",".join(map(str, p.values())) or "default"
)
def test_generator_matches_model_over_random_games(params):
    game = load(**params)
    rng = random.Random(7)
    chains = 0
    for _ in range(2):
        state = game.new_initial_state()
        for _ in range(250):
            if state.is_terminal():
                break
            assert set(steps(state)) == model_of(state)
            chains += state.chain >= 0
            legal = state.legal_actions()
            # lean towards conversions so that chains come up
            converting = [a for a in legal if state.action_to_string(a)[-1] in "AW"]
            state.apply_action(
                rng.choice(converting if converting and rng.random() < 0.8 else legal)
            )
    assert chains > 0, "the sample should include chain positions"


@st.composite
def random_positions(draw):
    players = draw(st.sampled_from([2, 4]))
    params = {
        "players": players,
        "field": draw(st.sampled_from(["middle4", "middle8"])),
        "withdraw": draw(st.booleans()),
    }
    game = load(**params)
    letters = game.colour_letters()[1:]
    cells = draw(
        st.lists(st.integers(0, players), min_size=NUM_POINTS, max_size=NUM_POINTS).filter(
            lambda c: c.count(1) >= 1
        )
    )
    stones = {
        letter: " ".join(point_name(p) for p in range(NUM_POINTS) if cells[p] == i + 1)
        for i, letter in enumerate(letters)
    }
    chain = None
    touched = ""
    if draw(st.booleans()):
        own = [p for p in range(NUM_POINTS) if cells[p] == 1]
        chain = point_name(draw(st.sampled_from(own)))
        empty = [p for p in range(NUM_POINTS) if cells[p] == 0]
        if empty:
            picks = draw(st.lists(st.sampled_from(empty), max_size=6, unique=True))
            touched = " ".join(point_name(p) for p in picks)
    return AllmerState.from_position(
        game, stones, to_move=0, chain=chain, touched=touched, eliminated=()
    )


@settings(max_examples=150, deadline=None)
@given(random_positions())
def test_generator_matches_model_on_random_boards(state):
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    assert {state.action_to_string(a) for a in legal} == model_of(state)
    for action in legal:
        assert state.step_problem(action) is None


@settings(max_examples=100, deadline=None)
@given(random_positions())
def test_best_conversion_per_victim_matches_playing_every_step(state):
    from cathedral.games.allmer.movegen import conversions_by_victim

    if state.chain >= 0:
        state = AllmerState.from_position(
            state.game,
            {
                letter: " ".join(
                    point_name(p) for p in range(NUM_POINTS) if state.board[p] == i + 1
                )
                for i, letter in enumerate(state.game.colour_letters()[1:])
            },
            eliminated=(),
        )
    cfg = state._cfg
    expected = [0] * 5
    for action in state.legal_actions():
        child = state.clone()
        before = list(child.board)
        child._apply_action(action)
        changed = [p for p in range(NUM_POINTS) if before[p] not in (0, 1) and child.board[p] == 1]
        if changed:
            victim = before[changed[0]]
            expected[victim] = max(expected[victim], len(changed))
    assert conversions_by_victim(state.board, 1, cfg.table, cfg.geo, cfg.withdraw) == expected
