"""The greedy step scores (the designer's computer opponent), the static evaluation and the
observation planes."""

from __future__ import annotations

import numpy as np
import pytest
from allmer_testlib import load, play, position

from cathedral.ai import load_agent
from cathedral.games.allmer import STOP
from cathedral.games.allmer.heuristic import STOP_SCORE, WIN_SCORE

FILLERS = {"W": "a6 a7 a8 a9", "B": "o6 o7 o8 o9"}


def scores_by_name(state) -> dict[str, float]:
    return {state.action_to_string(a): s for a, s in state.action_heuristics()}


def test_every_legal_step_is_scored():
    state = load().new_initial_state()
    assert [a for a, _ in state.action_heuristics()] == state.legal_actions()


def test_a_winning_step_scores_the_win_bonus():
    state = position({"W": "h6 " + FILLERS["W"], "B": "h8 h9 o6 o7 o8"})
    scores = scores_by_name(state)
    assert scores["h6-h7A"] == WIN_SCORE
    assert max(scores.values()) == WIN_SCORE
    agent = load_agent("greedy", state.game, seed=0)
    assert state.action_to_string(agent.choose(state)) == "h6-h7A"


def test_stop_scores_a_tenth():
    state = play(position({"W": "h6 " + FILLERS["W"], "B": "h8 j7 " + FILLERS["B"]}), "h6-h7A")
    assert dict(state.action_heuristics())[STOP] == STOP_SCORE


def test_score_formula_gain_setup_risk_and_distance():
    # Black keeps 8 stones, so no rival is near the threshold and the normal weights apply.
    state = position({"W": "h6 " + FILLERS["W"], "B": "h8 h9 o6 o7 o8 o9 f15 g15 i15 j15"})
    scores = scores_by_name(state)
    # h6-h7A converts h8 and h9; it sets nothing up and exposes nothing; the nearest Black
    # stone to the landing h7 = (7, 8) is o7 = (14, 8), 7 king moves away.
    gain, setup, risk, dmin = 2, 0, 0, 7
    assert scores["h6-h7A"] == pytest.approx(3 * gain + 0.6 * setup - 2 * risk - 0.25 * dmin)


def test_risk_counts_our_longest_run_the_next_player_could_convert():
    # After h1-h2 the White pair h5, h4 stays exposed to Black's h7-h6A (risk 2), while
    # White's own h5-h6A would convert h7 (setup 1).
    state = position({"W": "h4 h5 h1 a6 a7 a8", "B": "h7 o6 o7 o8 o9 f15 g15 i15 j15 n7"})
    scores = scores_by_name(state)
    dmin = max(abs(7 - 7), abs(13 - 8))  # landing h2 = (7, 13), nearest Black h7 = (7, 8)
    setup, risk = 1, 2
    assert scores["h1-h2"] == pytest.approx(0.6 * setup - 2 * risk - 0.25 * dmin)


def test_pressing_weights_when_a_rival_is_near_the_threshold():
    # Black keeps 6 stones after a walk: 10 gain + 3 setup - 0.5 risk - 0.6 dmin
    state = position({"W": "a6 a7 a8 a9 h1", "B": "o6 o7 o8 o9 n8 n7"})
    scores = scores_by_name(state)
    dmin = max(abs(7 - 13), abs(13 - 8))  # landing h2 = (7, 13), nearest Black n7 = (13, 8)
    assert scores["h1-h2"] == pytest.approx(-0.6 * dmin)


def test_greedy_prefers_the_larger_conversion():
    state = position({"W": "h6 d8 " + FILLERS["W"], "B": "h8 h9 h10 b8 " + FILLERS["B"]})
    agent = load_agent("greedy", state.game, seed=0)
    assert state.action_to_string(agent.choose(state)) == "h6-h7A"


def test_evaluate_is_bounded_and_favours_the_stronger_side():
    even = load().new_initial_state().evaluate()
    assert even[0] == pytest.approx(-even[1], abs=0.2)
    state = position(
        {"W": "h6 f1 g1 i1 j1 f2 g2 i2 j2 " + FILLERS["W"], "B": FILLERS["B"] + " h13"}
    )
    values = state.evaluate()
    assert all(-1 <= v <= 1 for v in values)
    assert values[0] > 0.3 > -0.3 > values[1]


def test_evaluate_prefers_stones_near_the_centre():
    far = position({"W": "h1 h2 h3 g1 i1", "B": "h15 h14 h13 g15 i15"})
    near = position({"W": "h1 h2 h7 g1 i1", "B": "h15 h14 h13 g15 i15"})  # h3 stood on h7
    assert far.evaluate()[0] == pytest.approx(0.0)  # mirror images of each other
    assert near.evaluate()[0] > 0.01  # even material, no threats: the centre decides


def test_evaluate_of_a_finished_game_is_its_returns():
    state = play(position({"W": "h6 " + FILLERS["W"], "B": "h8 h9 o6 o7 o8"}), "h6-h7A")
    assert state.evaluate() == state.returns() == [1.0, -1.0]


def test_observation_planes():
    game = load(players=4)
    state = game.new_initial_state()
    obs = state.observation_tensor(0)
    assert obs.shape == (13, 15, 15) and obs.dtype == np.float32
    names = game.observation_planes()
    plane = dict(zip(names, obs, strict=True))
    assert plane["stones_0"].sum() == 15 and plane["stones_0"][14, 7] == 1  # White on h1
    assert plane["stones_1"][7, 0] == 1  # Blue on a8, next in turn order
    assert plane["on_board"].sum() == 125
    assert plane["strong"].sum() == 64 and plane["strong"][7, 7] == 0
    assert plane["passage_mouths"].sum() == 8
    assert plane["to_move_0"].all() and not plane["to_move_1"].any()
    seen_by_blue = dict(zip(names, state.observation_tensor(1), strict=True))
    assert seen_by_blue["stones_0"][7, 0] == 1 and seen_by_blue["stones_3"][14, 7] == 1
    assert seen_by_blue["to_move_3"].all()


def test_observation_shows_the_chain():
    state = play(position({"W": "h6 " + FILLERS["W"], "B": "h8 j7 " + FILLERS["B"]}), "h6-h7A")
    plane = dict(zip(state.game.observation_planes(), state.observation_tensor(), strict=True))
    assert plane["chaining_stone"][8, 7] == 1 and plane["chaining_stone"].sum() == 1
    assert plane["touched"][9, 7] == 1 and plane["touched"].sum() == 2
