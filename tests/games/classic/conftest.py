"""Fixtures for classic tests: positions are built by playing notation through the public API."""

from __future__ import annotations

import json

import pytest

import cathedral
from cathedral.games.classic import square_name


def _play(*moves: str, opening: str = "standard"):
    state = cathedral.load("classic", opening=opening).new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def _territory(state, colour: int) -> set[str]:
    squares = json.loads(state.to_json())["state"]["territory"][colour]
    return {square_name(s) for s in squares}


def _hand(state, colour: int) -> str:
    """Returns a colour's hand line as the text board prints it."""
    prefix = ("Light", "Dark")[colour] + " hand: "
    return next(line for line in str(state).splitlines() if line.startswith(prefix))[len(prefix):]


@pytest.fixture
def play():
    """``play(*moves, opening=...)`` returns the state after those moves."""
    return _play


@pytest.fixture
def territory():
    """``territory(state, colour)`` returns the square names of a colour's territory."""
    return _territory


@pytest.fixture
def hand():
    """``hand(state, colour)`` returns a colour's hand as printed on the board."""
    return _hand
