"""The Red Cathedral's observation tensor: the blocks it keeps on the state between moves (the
cathedral, each player, the market) always equal a computation from scratch, whatever changed
the state; and the seats in it are relative to the observer."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.envs.adapter import resolve_chance
from cathedral.games.red import observation as O
from cathedral.games.red.state import PLAY


def fresh(state, player):
    """The observation computed from scratch (a clone carries none of the kept blocks)."""
    return state.clone().observation_tensor(player)


def in_play(players: int, seed: int):
    """A state of a random game some moves into the play stage, with cards on the plan."""
    rng = random.Random(seed)
    state = cathedral.load("red", players=players).new_initial_state()
    while state.stage != PLAY or rng.random() < 0.9:
        resolve_chance(state, rng)
        state.apply_action(rng.choice(state.legal_actions()))
    resolve_chance(state, rng)
    return state


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_observation_kept_blocks_always_equal_a_fresh_computation(players, seed):
    rng = random.Random(seed)
    state = cathedral.load("red", players=players).new_initial_state()
    while True:
        resolve_chance(state, rng)
        for p in range(players):
            assert (state.observation_tensor(p) == fresh(state, p)).all()
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def test_observation_follows_a_state_edited_by_hand():
    state = in_play(3, seed=5)
    slot = next(s for s in state.slots if state.slot_card[s] >= 0)
    for p in range(3):
        state.observation_tensor(p)  # every block kept
    state.owner[slot] = 2
    state.need[slot * 6] = 300  # beyond a byte: the cathedral block is remade whole
    state.ws_up[0] = 1
    state.rubles[1] += 7
    state.market[0] = -1
    for p in range(3):
        assert (state.observation_tensor(p) == fresh(state, p)).all()


@pytest.mark.parametrize("observer", [0, 1, 2, 3])
def test_observation_banner_owner_is_by_seat_relative_to_the_observer(observer):
    state = in_play(4, seed=11)
    slot = next(s for s in state.slots if state.slot_card[s] >= 0)
    state.owner[slot] = 2
    row = O.OFFSETS["cathedral"] + slot * O.SLOT_WIDTH
    seen = state.observation_tensor(observer)[row + 4 : row + 8].tolist()
    expected = [0.0] * 4
    expected[(2 - observer) % 4] = 1.0
    assert seen == expected


def test_observation_player_blocks_start_with_the_observer():
    state = in_play(4, seed=3)
    state.rubles[:] = [1, 2, 3, 4]
    for observer in range(4):
        obs = state.observation_tensor(observer)
        rubles = obs[O.OFFSETS["players"] :: O.PLAYER_WIDTH][:4] * 10
        assert rubles.round().tolist() == [(observer + r) % 4 + 1 for r in range(4)]
