"""The search hooks of allmer: the converting steps quiescence searches."""

from __future__ import annotations

import random

import pytest

import cathedral


@pytest.mark.parametrize("params", [{}, {"withdraw": True}, {"players": 4}])
def test_quiescence_actions_are_exactly_the_converting_steps(params):
    game = cathedral.load("allmer", **params)
    rng = random.Random(4)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        for _ in range(120):
            if state.is_terminal():
                break
            expected = []
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                if child.scores() != state.scores():
                    expected.append(action)
            assert state.quiescence_actions() == expected
            checked += len(expected)
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0
