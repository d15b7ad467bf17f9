"""Allmer in the terminal: the last step marked without colours, and what a step did
(conversions, a player out, players skipped) in the words of the move log."""

from __future__ import annotations

import random

import cathedral
from cathedral.testing import random_action


def test_the_last_step_is_bracketed_on_a_terminal_and_the_plain_board_unchanged():
    state = cathedral.load("allmer").new_initial_state()
    state.apply_action(state.string_to_action("h3-h5"))
    board = state.render(width=100).splitlines()
    assert "[W]" in board[11] and "[+]" in board[13]  # rank 5 and rank 3
    assert "[" not in str(state)
    assert all(len(line) <= 80 for line in state.render(width=80).splitlines())


def test_conversions_name_the_stones_and_their_owner():
    found = 0
    for seed in range(30):
        state = cathedral.load("allmer", players=4).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal() and len(state.history()) < 300:
            action = random_action(state, rng)
            before = list(state.counts)
            text = state.describe_action(action)
            state.apply_action(action)
            lost = [p for p in range(4) if state.counts[p] < before[p]]
            if lost:
                name = state.game.player_names()[lost[0]]
                assert f"converts {name}'s stone" in text or f"of {name}'s stones" in text
                found += 1
        if found >= 5:
            return
    assert found, "no conversion in 30 random games"
