"""Ratings: Bradley-Terry Elo with bootstrap intervals, the ladder of differences, and
multi-player games compared seat by seat."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from cathedral.ai.arena import GameResult, comparisons, format_report, run_arena
from cathedral.ai.ratings import (
    bootstrap_elo,
    bradley_terry_elo,
    ladder_steps,
    percentile_interval,
)

TRUE_ELO = {"weak": -150.0, "middle": 0.0, "strong": 150.0}


def simulated_games(per_pair: int, seed: int = 7) -> tuple[list[list], list[int]]:
    """Games between three agents of known Elo (draws impossible), one comparison each."""
    rng = random.Random(seed)
    games, strata = [], []
    names = list(TRUE_ELO)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    for p, (a, b) in enumerate(pairs):
        expected = 1 / (1 + 10 ** ((TRUE_ELO[b] - TRUE_ELO[a]) / 400))
        for _ in range(per_pair):
            games.append([(a, b, 1.0 if rng.random() < expected else 0.0)])
            strata.append(p)
    return games, strata


def test_bootstrap_intervals_cover_the_true_ratings_as_often_as_they_say():
    names = list(TRUE_ELO)
    covered = {name: 0 for name in names} | {"steps": 0}
    trials = 40
    for seed in range(trials):
        games, strata = simulated_games(100, seed)
        elo = bradley_terry_elo((c for g in games for c in g), names, prior_draws=0)
        fits = bootstrap_elo(games, names, strata, samples=100, seed=seed, prior_draws=0)
        for k, name in enumerate(names):
            low, high = percentile_interval(fits[:, k])
            assert low <= elo[name] <= high
            covered[name] += low < TRUE_ELO[name] < high
        steps = ladder_steps(fits, names, elo)
        assert [s["agents"] for s in steps] == [["middle", "weak"], ["strong", "middle"]]
        covered["steps"] += all(s["interval"][0] < 150 < s["interval"][1] for s in steps)
    # 95% intervals: under 80% coverage in 40 trials would be a broken interval (p < 0.001)
    assert all(count >= 0.8 * trials for count in covered.values()), covered


def test_bootstrap_intervals_narrow_with_more_games():
    names = list(TRUE_ELO)
    widths = []
    for per_pair in (100, 800):
        games, strata = simulated_games(per_pair)
        fits = bootstrap_elo(games, names, strata, samples=100)
        low, high = percentile_interval(fits[:, 2] - fits[:, 0])
        widths.append(high - low)
    assert widths[1] < widths[0] / 2  # eight times the games: under half the width


def test_bootstrap_is_reproducible_from_its_seed():
    games, strata = simulated_games(20)
    names = list(TRUE_ELO)
    first = bootstrap_elo(games, names, strata, samples=30, seed=3)
    assert np.array_equal(first, bootstrap_elo(games, names, strata, samples=30, seed=3))
    assert not np.array_equal(first, bootstrap_elo(games, names, strata, samples=30, seed=4))


def test_bradley_terry_of_an_even_record_is_level_and_finite_for_a_sweep():
    even = [("a", "b", 1.0), ("a", "b", 0.0), ("a", "b", 0.5)]
    assert bradley_terry_elo(even)["a"] == pytest.approx(0.0, abs=1e-6)
    sweep = bradley_terry_elo([("a", "b", 1.0)] * 50)
    assert math.isfinite(sweep["a"]) and sweep["a"] > 300


def test_self_play_is_rated_level_and_does_not_break_the_report():
    assert bradley_terry_elo([("a", "a", 1.0), ("a", "a", 0.0)], ["a", "a"]) == {"a": 0.0}
    report = run_arena("classic", ["random", "random"], games=2)
    assert report["elo"] == {"random": 0.0} and report["elo_steps"] == []


def result(seats, returns):
    return GameResult(0, 0, seats, 0, returns, [0] * len(seats), 1, 0.0)


def test_multiplayer_comparisons_are_seat_by_seat_by_place():
    # "a" second of four: beaten by one "b", ahead of two
    game = result(["b", "a", "b", "b"], [1.0, 1 / 3, -1 / 3, -1.0])
    assert comparisons(game, "a", "b") == [("a", "b", 0.0), ("a", "b", 1.0), ("a", "b", 1.0)]
    tied = result(["a", "b", "b", "b"], [0.5, 0.5, -1.0, 0.0])
    assert [c[2] for c in comparisons(tied, "a", "b")] == [0.5, 1.0, 1.0]
    two = result(["b", "a"], [-1.0, 1.0])
    assert comparisons(two, "a", "b") == [("a", "b", 1.0)]


def test_equal_agents_at_a_four_player_table_rate_level():
    # the lone agent finishes in each place equally often: pairwise it scores one half
    games = []
    for place in range(4):
        returns = [1.0, 1 / 3, -1 / 3, -1.0]
        seats = ["b"] * 4
        seats[place] = "a"
        games.append(comparisons(result(seats, returns), "a", "b"))
    elo = bradley_terry_elo(c for g in games for c in g)
    assert elo["a"] == pytest.approx(0.0, abs=1e-6)


def fake_play(task):
    """The agent listed later wins two games in three."""
    order = {"random": 0, "greedy": 1, "medium": 2}
    better = max(task.seats, key=order.get)
    wins = task.index % 3 != 0
    winner = task.seats.index(better) if wins else 1 - task.seats.index(better)
    returns = [1.0 if i == winner else -1.0 for i in range(2)]
    return GameResult(task.index, task.pairing, task.seats, task.seed, returns, [0, 0], 5, 0.0,
                      {s: [0.1] for s in task.seats}, {"stub": True})


def test_report_gives_elo_intervals_and_the_ladder_steps():
    report = run_arena("classic", ["random", "greedy", "medium"], games=30, play=fake_play)
    for name, (low, high) in report["elo_interval"].items():
        assert low <= report["elo"][name] <= high
    steps = report["elo_steps"]
    assert [s["agents"] for s in steps] == [["greedy", "random"], ["medium", "greedy"]]
    assert all(s["difference"] > 0 for s in steps)
    text = format_report(report)
    assert "95% intervals" in text and "greedy over random: +" in text
