"""The Red Cathedral fitted to a terminal: 100 columns without a word cut, a compact screen
for 80x24 that keeps what the decision at hand needs, the last decision marked."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.games.red.view.render import render_text
from cathedral.games.red.view.screen import RESERVED
from cathedral.testing import random_action

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def random_state(players: int, seed: int, steps: int):
    state = cathedral.load("red", players=players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    return state


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10_000),
       steps=st.integers(0, 400), color=st.booleans())
def test_the_full_screen_fits_100_columns_without_cutting_a_word(players, seed, steps, color):
    state = random_state(players, seed, steps)
    text = state.render(color=color, width=100)
    lines = [ANSI.sub("", line) for line in text.splitlines()]
    assert all(len(line) <= 100 for line in lines)
    words = [w for w in ANSI.sub("", render_text(state, color=color)).split() if w != "*"]
    assert [w for w in " ".join(lines).split() if w != "*"] == words  # wrapped only at spaces


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10_000),
       steps=st.integers(60, 400), color=st.booleans())
def test_the_compact_screen_fits_80_by_24_with_room_for_the_prompt(players, seed, steps, color):
    state = random_state(players, seed, steps)
    if state.is_terminal():
        return
    lines = state.render(width=80, height=24, color=color).splitlines()
    assert all(len(ANSI.sub("", line)) <= 80 for line in lines)
    assert len(lines) <= 24 - RESERVED + 1  # the board, and a line saying what was left out
    name = state.game.player_names()[state.cur]
    plain = [ANSI.sub("", line) for line in lines]
    assert any(line.startswith(f" >{name}:") for line in plain)  # the mover, always


def start_of_turn(players: int = 2):
    for seed in range(50):
        state = random_state(players, seed, 120)
        if state.phase == 0 and not state.is_terminal() and any(
            state.action_to_string(a).startswith("claim") for a in state.legal_actions()
        ):
            return state
    pytest.fail("no start of a turn with a claim found")


def test_at_the_start_of_a_turn_the_claimable_cards_and_die_moves_come_first():
    state = start_of_turn()
    text = state.render(width=80, height=24)
    claims = [state.action_to_string(a).split()[1] for a in state.legal_actions()
              if state.action_to_string(a).startswith("claim")]
    assert "DIE MOVES:" in text
    assert any(f"{slot}*" in text for slot in claims)


def test_the_last_decision_is_marked_where_it_happened():
    state = start_of_turn()
    claim = next(a for a in state.legal_actions()
                 if state.action_to_string(a).startswith("claim"))
    slot = state.action_to_string(claim).split()[1]
    state.apply_action(claim)
    full = state.render(width=100).splitlines()
    assert any(line.startswith(f"* {slot}") for line in full)
    # After a die move the compact market stars the space the die stopped on.
    state = start_of_turn()
    die = next(a for a in state.legal_actions() if state.action_to_string(a).startswith("die"))
    state.apply_action(die)
    compact = state.render(width=80, height=24)
    assert re.search(rf">{state.mspace + 1} ", compact)
    assert "* marks the last decision" in compact


def test_the_plain_board_is_unchanged_without_a_width():
    state = start_of_turn()
    assert state.render() == render_text(state) == str(state)


def test_counts_take_the_singular_for_one():
    from cathedral.games.red.view.render import plural

    assert plural(1, "delivery", "deliveries") == "1 delivery"
    assert plural(3, "delivery", "deliveries") == "3 deliveries"
    assert plural(1, "last turn") == "1 last turn" and plural(0, "last turn") == "0 last turns"
    for seed in range(40):
        state = random_state(2, seed, 300)
        if state.phase == 2 and state.dleft == 1 and state.current_player() >= 0:
            assert "1 delivery left" in state.prompt_hint()
            return
