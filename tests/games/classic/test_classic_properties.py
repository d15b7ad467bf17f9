"""Contract conformance and invariants of classic Cathedral over random games (hypothesis)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral import IllegalActionError, Record, StateError
from cathedral.testing import check_game

OPENINGS = ("standard", "lehmann")
GAME_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(seed: int, opening: str = "standard"):
    """Yields every state of a seeded random game (the same object, mutated)."""
    state = cathedral.load("classic", opening=opening).new_initial_state()
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("opening", OPENINGS)
def test_conformance(opening):
    check_game(cathedral.load("classic", opening=opening), games=4, seed=11)


@settings(max_examples=25, deadline=None)
@given(seed=GAME_SEEDS, opening=st.sampled_from(OPENINGS))
def test_random_games_end_and_every_building_is_on_the_board_or_in_hand(seed, opening):
    game = cathedral.load("classic", opening=opening)
    for steps, state in enumerate(random_game(seed, opening)):
        data = json.loads(state.to_json())["state"]
        hands = str(state).splitlines()
        for colour, name in enumerate(("Light", "Dark")):
            on_board = len(data["pieces"][colour])
            line = next(h for h in hands if h.startswith(f"{name} hand:"))
            in_hand = sum(
                int(part.split(" x")[1]) if " x" in part else 1
                for part in line.split(": ", 1)[1].rsplit(" (", 1)[0].split(", ")
                if part not in ("nothing", "Cathedral")
            )
            assert on_board + in_hand == 14
        assert steps <= game.max_game_length()
    assert state.is_terminal()
    assert sum(state.returns()) == 0


@settings(max_examples=15, deadline=None)
@given(seed=GAME_SEEDS, opening=st.sampled_from(OPENINGS))
def test_records_replay_to_the_identical_state_and_json_round_trips(seed, opening):
    game = cathedral.load("classic", opening=opening)
    for state in random_game(seed, opening):
        text = state.to_json()
        assert game.state_from_json(text).to_json() == text
    record = Record.from_json(Record.from_state(state, players=["a", "b"]).to_json())
    assert record.final_state() == state
    assert record.result["returns"] == state.returns()


@settings(max_examples=15, deadline=None)
@given(seed=GAME_SEEDS, data=st.data())
def test_every_illegal_action_is_rejected_and_leaves_the_state_unchanged(seed, data):
    for state in random_game(seed):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert np.flatnonzero(state.legal_actions_mask()).tolist() == legal
        action = data.draw(st.integers(0, state.game.num_distinct_actions() - 1))
        if action in legal:
            continue
        before = state.to_json()
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
        assert state.to_json() == before
    for bad in (-1, 2765, 3.5, "1", None, True):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)


def test_actions_after_the_end_are_rejected():
    *_, state = random_game(5)
    with pytest.raises(IllegalActionError, match="finished"):
        state.apply_action(0)
    with pytest.raises(IllegalActionError, match="ended"):
        state.string_to_action("Tavern a1")


def test_observation_planes():
    state = cathedral.load("classic").new_initial_state()
    state.apply_action(state.string_to_action("Cathedral f6 e7 f7 g7 f8 f9"))
    state.apply_action(state.string_to_action("Tavern a1"))
    obs = state.observation_tensor(1)
    assert obs.shape == (524,) and obs.dtype == np.float32
    assert obs[0] == 1.0  # Dark's own Tavern on a1
    assert obs[100:200].sum() == 0  # Light has no building yet
    assert obs[200:300].sum() == 6  # the Cathedral
    assert obs[500] == 0.5  # one of two Taverns left in Dark's hand
    assert obs[523] == 0.0  # Light is to move, not Dark
    light = state.observation_tensor(0)
    assert light[100] == 1.0 and light[523] == 1.0


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(to_move=3), "to_move 3"),
        (lambda d: d["pieces"][1].append(0), "overlaps"),
        (lambda d: d["pieces"][0].append(1277), "not a Light placement"),
        (lambda d: d["pieces"][1].extend([10, 20, 30]), "4 Tavern on the board, expected at most"),
        (lambda d: d.update(territory=[[5], [5]]), "both colours' territory"),
        (lambda d: d.update(history=["x"]), "history"),
        (lambda d: d.update(cathedral=0), "not a Cathedral placement"),
        (lambda d: d.pop("pieces"), "KeyError"),
    ],
)
def test_corrupt_state_json_is_rejected_with_what_was_wrong(edit, message):
    game = cathedral.load("classic")
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("Cathedral f6 e7 f7 g7 f8 f9"))
    state.apply_action(state.string_to_action("Tavern a1"))
    data = json.loads(state.to_json())
    edit(data["state"])
    with pytest.raises(StateError, match=message):
        game.state_from_json(json.dumps(data))


def test_state_json_for_another_game_or_params_is_rejected():
    state = cathedral.load("classic").new_initial_state()
    with pytest.raises(StateError, match="params"):
        cathedral.load("classic", opening="lehmann").state_from_json(state.to_json())
    with pytest.raises(StateError, match="not JSON"):
        cathedral.load("classic").state_from_json("{nope")


def test_clone_is_independent():
    state = cathedral.load("classic").new_initial_state()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert state.history() == [] and len(copy.history()) == 1
    assert state.current_player() == 0 and copy.current_player() == 1


def test_position_key_ignores_the_path_but_not_the_buildings(play):
    one = play("Cathedral f6 e7 f7 g7 f8 f9", "Tavern a1", "Tavern j1", "Tavern a3")
    two = play("Cathedral f6 e7 f7 g7 f8 f9", "Tavern a3", "Tavern j1", "Tavern a1")
    assert one.history() != two.history()
    assert one.position_key() == two.position_key()
    # The same squares walled by an Inn and a Tavern, or by two Stables: different positions.
    three = play("Cathedral f6 e7 f7 g7 f8 f9", "Tavern j10", "Inn a1 a2 b1", "Tavern j8",
                 "Tavern b2", "Stable h10 i10")
    four = play("Cathedral f6 e7 f7 g7 f8 f9", "Tavern j10", "Stable a1 a2", "Tavern j8",
                "Stable b1 b2", "Stable h10 i10")
    assert three.position_key() != four.position_key()
