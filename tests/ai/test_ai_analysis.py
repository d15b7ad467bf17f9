"""``analyse``: the best move, the line in notation and expected scores, streamed as it deepens."""

from __future__ import annotations

import json
import random

import pytest

import cathedral
from cathedral.ai import analyse
from cathedral.ai.analysis import expected_scores, solved_words
from cathedral.games.allmer.state import AllmerState


def test_expected_scores_map_returns_to_zero_one():
    assert expected_scores([1.0, -1.0]) == [1.0, 0.0]
    assert expected_scores([0.0, 0.0]) == [0.5, 0.5]
    assert expected_scores([1 / 3, -1.0, 1 / 3, 1 / 3]) == [0.6667, 0.0, 0.6667, 0.6667]


def test_analyse_classic_endgame_is_solved_with_its_margin(classic_endgame):
    state = classic_endgame
    result = analyse(state, "alphabeta:iterations=200000,endgame=0.5")
    mover = state.current_player()
    assert result.proven and result.final
    assert result.solved is not None and result.solved.startswith("solved: ")
    # The line is legal notation that ends the game, and the words match its final margin.
    replay = state.clone()
    for move in result.pv:
        replay.apply_action(replay.string_to_action(move))
    assert replay.is_terminal()
    light, dark = replay.scores()
    names = state.game.player_names()
    if light == dark:
        assert result.solved == "solved: a draw"
    else:
        winner = names[0] if light < dark else names[1]
        assert result.solved == f"solved: {winner} wins by {abs(light - dark):g}"
    assert result.expected[mover] in (0.0, 0.5, 1.0)
    assert sum(result.expected) == pytest.approx(1.0)


def test_solved_words_name_the_winner_from_the_movers_margin():
    state = cathedral.load("classic").new_initial_state()  # Light to move
    assert solved_words(state, 3) == "solved: Light wins by 3"
    assert solved_words(state, -2) == "solved: Dark wins by 2"
    assert solved_words(state, 0) == "solved: a draw"
    # Only the winner proven: the margin is the least the win is by.
    assert solved_words(state, 3, exact=False) == "solved: Light wins by at least 3"


def test_analyse_allmer_finds_the_winning_conversion():
    game = cathedral.load("allmer")
    # White's h4-h5 approaches and converts Black's run h6-h9, leaving Black 2 stones: out.
    state = AllmerState.from_position(
        game, {"W": "h2 h3 h4 g2 i2", "B": "h6 h7 h8 h9 g13 i13"}, to_move=0
    )
    result = analyse(state, "alphabeta:depth=2")
    assert result.move == "h4-h5A"
    assert result.expected == [1.0, 0.0] and result.proven


def test_analyse_classic_finds_the_capture():
    state = cathedral.load("classic").new_initial_state()
    for move in ("Cathedral f6 e7 f7 g7 f8 f9", "Square a1 a2 b1 b2", "Tavern j1", "Tavern j10",
                 "Bridge a3 b3 c3", "Tavern j8"):
        state.apply_action(state.string_to_action(move))
    result = analyse(state, "alphabeta:depth=1")
    after = state.clone()
    after.apply_action(result.action)
    assert after.scores()[1] == state.scores()[1] + 4  # Dark's Square went back to hand
    assert result.expected[0] > 0.5 > result.expected[1]


def test_analyse_streams_progress_for_each_depth():
    state = cathedral.load("allmer").new_initial_state()
    reports = []
    final = analyse(state, "alphabeta:depth=3", progress=reports.append)
    assert [r.depth for r in reports] == [1, 2, 3]
    assert not any(r.final for r in reports) and final.final
    assert final.depth == 3 and final.move == reports[-1].move


def test_analyse_streams_progress_for_mcts(nim):
    state = nim(pile=40).new_initial_state()  # too big to solve in 600 simulations
    reports = []
    final = analyse(state, "mcts:iterations=600", progress=reports.append)
    assert [r.nodes for r in reports] == [256, 512]
    assert final.nodes == 600


@pytest.mark.parametrize("players", [2, 4])
def test_analyse_red_gives_a_legal_move_and_expected_scores(players):
    game = cathedral.load("red", players=players)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choice(outcomes)[0])
    result = analyse(state, "rollout:iterations=2,candidates=2")
    assert state.string_to_action(result.move) in state.legal_actions()
    assert len(result.expected) == players
    assert all(0.0 <= e <= 1.0 for e in result.expected)
    json.dumps(result.to_dict())  # front ends send it as is


def test_analyse_streams_progress_after_each_halving_round(red_decision):
    state = red_decision(8)
    reports = []
    final = analyse(state, "rollout:iterations=64,candidates=8,halving=true",
                    progress=reports.append)
    # Three rounds: 8 candidates on 3 passes (24 rollouts), the better 4 on 5 (44 in all),
    # the last 2 on 10 (64): a report after each of the first two.
    assert [r.nodes for r in reports] == [24, 44] and final.nodes == 64
    assert not any(r.final for r in reports) and final.final
    assert all(state.string_to_action(r.move) in state.legal_actions() for r in reports)


def test_analyse_streams_progress_at_doubling_rollout_passes(red_decision):
    state = red_decision(4)
    reports = []
    final = analyse(state, "rollout:iterations=32,candidates=4", progress=reports.append)
    # 8 passes over 4 candidates: reports after the 1st, 2nd and 4th (the 8th is the last).
    assert [r.nodes for r in reports] == [4, 8, 16] and final.nodes == 32
    assert all(0.0 <= e <= 1.0 for r in reports for e in r.expected)


def test_analyse_refuses_a_position_nobody_moves_in():
    state = cathedral.load("red").new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="player to move"):
        analyse(state, "easy")
