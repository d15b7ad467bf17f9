"""Turns and skips, as every game tells front ends (``State.turn_starts`` and
``State.skipped_after``): which decisions start a turn, which players a move passes over,
and that the words of ``describe_action`` agree."""

from __future__ import annotations

import itertools
import random

import pytest

import cathedral


def random_game(name: str, seed: int, **params):
    """Yields (state before, action) for every ply of a random game."""
    state = cathedral.load(name, **params).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        yield state, action
        state = state.clone()
        state.apply_action(action)


def test_classic_every_placement_is_a_turn_and_a_colour_that_cannot_place_is_skipped():
    skips = []
    for state, action in random_game("classic", 5):
        assert state.turn_starts()
        if state.skipped_after(action):
            skips.append((len(state.history()), state.skipped_after(action)))
            assert "Dark cannot place and is skipped" in state.describe_action(action)
    assert skips == [(22, [1])]  # Light placed, Dark could not, Light placed again


def test_classic_the_cathedral_then_light_again_is_no_skip_in_the_lehmann_opening():
    state = cathedral.load("classic", opening="lehmann").new_initial_state()
    cathedral_placement = state.legal_actions()[0]
    assert state.skipped_after(cathedral_placement) == []
    state.apply_action(cathedral_placement)
    assert state.current_player() == 0  # Light follows its Cathedral


def test_allmer_a_chain_of_conversions_goes_on_in_the_same_turn():
    chains = 0
    for state, action in random_game("allmer", 2):
        after = state.clone()
        after.apply_action(action)
        going_on = after.current_player() == state.current_player() and after.chain >= 0
        if not after.is_terminal() and going_on:
            chains += 1
            assert not after.turn_starts()
            assert "goes on converting" in state.describe_action(action)
        elif not after.is_terminal():
            assert after.turn_starts()
    assert chains > 0


@pytest.mark.parametrize("players", [2, 4])
def test_red_a_turn_starts_with_its_first_decision_and_set_up_and_dice_are_no_turns(players):
    starts = []
    for state, _action in random_game("red", 1, players=players, turn_cap=3):
        if state.is_chance_node():
            continue
        if state.turn_starts():
            starts.append(state.current_player())
    assert starts[: players + 1] == [*range(players), 0]
    assert all(b == (a + 1) % players for a, b in itertools.pairwise(starts))


@pytest.mark.parametrize(("name", "params"), [("classic", {}), ("allmer", {"players": 4}),
                                              ("red", {"players": 3})])
def test_a_skip_and_its_words_always_agree(name, params):
    for seed in range(6):
        for state, action in random_game(name, seed, **params):
            if state.is_chance_node():
                continue
            skipped = state.skipped_after(action)
            words = state.describe_action(action)
            assert ("skipped" in words) == bool(skipped), words
            names = state.game.player_names()
            assert all(names[p] in words for p in skipped)
