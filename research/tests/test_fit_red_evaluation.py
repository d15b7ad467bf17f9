"""``research/fit_red_evaluation.py``: every pair of players at every turn's start is one
prediction, scored against who finished ahead, whatever the number of players."""

from __future__ import annotations

import itertools
import json
import math
import random

import numpy as np
import pytest

import cathedral
import fit_red_evaluation as fit
from cathedral import Record
from cathedral.games.red import heuristic
from cathedral.testing import random_action


def red4_in_play():
    """A 4-player game at its first decision, the set-up's chance outcomes taken in order."""
    state = cathedral.load("red", players=4).new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_fit_rows_are_pairs_of_players_scored_by_who_finished_ahead():
    game = cathedral.load("red", players=3, turn_cap=12)
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
    record = json.loads(Record.from_state(state).to_json())
    rows = fit.positions(record)

    turns = len(rows) // 3
    assert turns > 0 and len(rows) == 3 * turns  # pairs (0, 1), (0, 2), (1, 2), each turn
    returns = state.returns()
    for k, (p, q) in enumerate(itertools.combinations(range(3), 2)):
        pair = rows[k * turns : (k + 1) * turns]
        expect = 1.0 if returns[p] > returns[q] else 0.5 if returns[p] == returns[q] else 0.0
        assert {row[3] for row in pair} == {expect}
    # The first turn's start, from each pair's first player's side.
    opening = next(s for s in Record.from_json(json.dumps(record)).replay()
                   if s.current_player() >= 0)
    e = heuristic.expected_prestige(opening)
    r = heuristic.race(opening)
    assert rows[0][:3] == (e[0] - e[1], r[0] - r[1], 1.0)
    assert rows[turns][:3] == (e[0] - e[2], r[0] - r[2], 1.0)
    assert rows[2 * turns][:3] == (e[1] - e[2], r[1] - r[2], 1.0)
    assert rows[0][4:] == (0.0, 0)  # no turns played yet, no sections completed
    last = max(s.turns for s in Record.from_json(json.dumps(record)).replay())
    assert 0 < max(row[4] for row in rows) <= last / (fit.PACE * 3)
    assert 0 < fit.log_loss(np.array(rows), heuristic.PRESTIGE_SCALE, heuristic.RACE_WEIGHT,
                            heuristic.RACE_SCALE) < 5


def test_fit_pairs_recovers_the_weights_of_a_known_pair_model():
    rng = np.random.default_rng(3)
    rows = 40_000
    lead = rng.normal(0, 8, rows)
    race = rng.normal(0, 1, rows)
    racing = (rng.random(rows) < 0.9).astype(float)
    progress = rng.random(rows) * 1.2
    completed = rng.integers(-3, 4, rows).astype(float)
    data = np.stack([lead, race, racing, np.zeros(rows), progress, completed], 1)
    truth = np.array([0.15, 0.3, 1.5, 0.35])
    chance = 1 / (1 + np.exp(-(fit.pair_features(data) @ truth)))
    data[:, 3] = (rng.random(rows) < chance).astype(float)
    weights = fit.fit_pairs(data)
    assert weights == pytest.approx(truth, abs=0.08)
    assert fit.pair_log_loss(data, weights) <= fit.pair_log_loss(data, truth)
    assert fit.pair_log_loss(data, weights) < fit.pair_log_loss(data, np.zeros(4))


def test_pair_values_are_the_mean_chance_of_finishing_ahead_of_each_rival():
    state = red4_in_play()
    for move in ("claim T1.1", "tile down 1"):  # player 0 ahead in the race, by a claimed card
        state.apply_action(state.string_to_action(move))
    state.turns = 48  # half way through a 4-player game
    for p, prestige in enumerate((0, 10, 20, 30)):
        state.pos[p] = state.track.gain_prestige(state.pos[p], prestige)
    state.completed[3] = 1  # a section completed counts in the race and on its own
    values = fit.pair_values(state)
    prestige, race, race_late, completed = fit.PAIRS_4
    e, r = heuristic.expected_prestige(state), heuristic.race(state)
    strength = [prestige * 0.5 * e[p] + (race + race_late * 0.5) * r[p]
                + completed * state.completed[p] for p in range(4)]
    expected = [sum(2 / (1 + math.exp(strength[q] - strength[p])) - 1
                    for q in range(4) if q != p) / 3 for p in range(4)]
    assert values == pytest.approx(expected)
    assert sum(values) == pytest.approx(0.0, abs=1e-12)  # the scale of returns()
    assert all(-1 < v < 1 for v in values)
    assert values[3] > values[2] > values[1]  # ahead in prestige, nobody else racing
