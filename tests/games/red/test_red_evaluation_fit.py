"""``benchmarks/fit_red_evaluation.py``: every pair of players at every turn's start is one
prediction, scored against who finished ahead, whatever the number of players."""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
from pathlib import Path

import numpy as np

import cathedral
from cathedral import Record
from cathedral.games.red import heuristic
from cathedral.testing import random_action

FIT = Path(__file__).resolve().parents[3] / "benchmarks" / "fit_red_evaluation.py"


def load_fit():
    spec = importlib.util.spec_from_file_location("fit_under_test", FIT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fit_rows_are_pairs_of_players_scored_by_who_finished_ahead():
    fit = load_fit()
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
    assert 0 < fit.log_loss(np.array(rows), heuristic.PRESTIGE_SCALE, heuristic.RACE_WEIGHT,
                            heuristic.RACE_SCALE) < 5
