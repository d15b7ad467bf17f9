"""Measures how well red's evaluation predicts who finishes ahead, fits its three outer
constants and, with 3-4 players, a pair model that predicts better.

Front ends read a search's value as an expected score, (value + 1) / 2, and the rollout
players compare decisions by it at the end of a round. ``cathedral.games.red.heuristic.
evaluate`` gives a player, against each rival, (1 - w) tanh(prestige lead / s) + w tanh(race
lead / r) while nobody has ended the game (w = ``RACE_WEIGHT``, r = ``RACE_SCALE``,
s = ``PRESTIGE_SCALE``), and the mean over the rivals. So each pair of players is one
prediction: the pair's value as the chance that the first finishes ahead of the second (a
tie counts a half). This script replays the games of arena or ladder reports, takes each
position where a turn begins, and prints the log loss of those predictions for the current
constants and for the best ones on a grid. Pairings with ``random`` are left out (their
positions are not what the searches meet); ``--players`` keeps one player count.

With ``--players`` 3 or 4 it also fits the pair model (``PAIR_FEATURES``: a logistic
regression of who finishes ahead on the pair's differences in progress x expected prestige,
race, progress x race and completed sections) and scores it on each quarter of the games left
out of the fit in turn. ``pair_values`` is an ``evaluate`` built on it, which
``arena_tune.py --a pairs`` plays against the evaluation as it is. Usage::

    python research/fit_red_evaluation.py benchmarks/reports/ladder_red2_100.json
    python research/fit_red_evaluation.py --players 4 benchmarks/reports/ladder_red4_100.json

(a summary's records are read from ``benchmarks/cache``: see ``report_games``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math

import numpy as np

import cathedral
from cathedral.games.red import heuristic
from report_games import report_with_records

PACE = 24.0
"""A player's turns in a typical game (24.1 with 3 players, 23.6 with 4, in the ladders'
games): turns / (PACE x players) is how far the game has come, about 1 at its end."""
PAIR_FEATURES = ("prestige", "race", "race_late", "completed")
"""The pair model's weights: a player's strength is prestige x progress x expected prestige
+ (race + race_late x progress) x race (while nobody has ended the game) + completed x
completed sections; the chance that p finishes ahead of q is the logistic of their
difference."""
PAIRS_4 = (0.132, 0.308, 1.592, 0.364)
"""The pair model fitted on the 400 4-player games of ladder_red4_100.json without
``random`` at 31b7395 (38,092 turn starts), as ``--players 4`` prints it."""


def positions(record: dict) -> list[tuple[float, ...]]:
    """Replays a record; returns (prestige lead, race lead, race on (1/0), result, progress,
    completed lead) for each pair of players p < q at each turn's start, from p's side, result
    1 / 0.5 / 0 as p finished ahead of q, level with them or behind, progress the turns so far
    over ``PACE`` x players (at most 1.5, as ``pair_values`` caps it)."""
    seen = []
    last = None
    for state in cathedral.Record.from_json(json.dumps(record)).replay():
        player = state.current_player()
        if player >= 0 and player != last:  # a turn begins (chance nodes leave ``last``)
            e = heuristic.expected_prestige(state)
            racing = state.trigger < 0
            r = heuristic.race(state) if racing else [0.0] * state.n
            progress = min(state.turns / (PACE * state.n), 1.5)
            seen.append((e, r, float(racing), progress, list(state.completed)))
            last = player
    ranks = state.returns()  # the last state replayed: the game's end, ranked by tie-break
    rows = []
    for p, q in itertools.combinations(range(state.n), 2):
        result = 1.0 if ranks[p] > ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
        rows += [(e[p] - e[q], r[p] - r[q], racing, result, progress, c[p] - c[q])
                 for e, r, racing, progress, c in seen]
    return rows


def _log_loss(chance: np.ndarray, result: np.ndarray) -> float:
    """The mean log loss of predicted chances of finishing ahead against the results."""
    p = np.clip(chance, 1e-9, 1 - 1e-9)
    return float(-np.mean(result * np.log(p) + (1 - result) * np.log(1 - p)))


def log_loss(data: np.ndarray, scale: float, weight: float, race_scale: float) -> float:
    lead, race, racing, result = data.T[:4]
    value = np.tanh(lead / scale)
    value = np.where(racing > 0,
                     (1 - weight) * value + weight * np.tanh(race / race_scale), value)
    return _log_loss((value + 1) / 2, result)


def pair_features(data: np.ndarray) -> np.ndarray:
    """The pair model's inputs per row, in ``PAIR_FEATURES``' order."""
    lead, race, racing, _, progress, completed = data.T
    return np.stack([lead * progress, race * racing, race * racing * progress, completed], 1)


def fit_pairs(data: np.ndarray) -> np.ndarray:
    """Returns the pair model's weights of least log loss on ``data``'s rows (Newton's method:
    four weights, a convex loss)."""
    x, y = pair_features(data), data[:, 3]
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        hessian = (x * (p * (1 - p))[:, None]).T @ x / len(y)
        step = np.linalg.solve(hessian, x.T @ (p - y) / len(y))
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def pair_log_loss(data: np.ndarray, weights) -> float:
    return _log_loss(1 / (1 + np.exp(-(pair_features(data) @ np.asarray(weights)))), data[:, 3])


def pair_values(state, weights=PAIRS_4) -> list[float]:
    """An ``evaluate`` for red from the pair model: per player, the mean over the rivals of
    2 x (the chance of finishing ahead of them) - 1, the scale of ``returns()``."""
    if state.is_terminal():
        return list(state.returns())
    prestige, race, race_late, completed = weights
    n = state.n
    progress = min(state.turns / (PACE * n), 1.5)
    e = heuristic.expected_prestige(state)
    strength = [prestige * progress * e[p] + completed * state.completed[p] for p in range(n)]
    if state.trigger < 0:
        pace = race + race_late * progress
        for p, r in enumerate(heuristic.race(state)):
            strength[p] += pace * r
    return [sum(math.tanh((strength[p] - strength[q]) / 2) for q in range(n) if q != p)
            / (n - 1) for p in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--players", type=int, default=None,
                        help="keep only games with this many players (default: all)")
    args = parser.parse_args()
    rows = []
    game_of_row = []
    games = 0
    for path in args.reports:
        for g in report_with_records(path)["games"]:
            record = g["record"]
            players = record["params"].get("players", 2)
            if args.players not in (None, players) or "random" in record["players"]:
                continue
            found = positions(record)
            rows += found
            game_of_row += [games] * len(found)
            games += 1
    if not rows:
        raise SystemExit("no games left to fit (pairings with random are left out)")
    data = np.array(rows)
    print(f"{games} games, {len(data)} pairs of players at a turn's start")
    now = (heuristic.PRESTIGE_SCALE, heuristic.RACE_WEIGHT, heuristic.RACE_SCALE)
    if args.players in (3, 4):
        fold = np.array(game_of_row) % 4
        held_out = []
        for k in range(4):
            weights = fit_pairs(data[fold != k])
            held_out.append((pair_log_loss(data[fold == k], weights),
                             log_loss(data[fold == k], *now)))
        weights = fit_pairs(data)
        print("pair model: " + ", ".join(f"{k}={w:.3f}" for k, w in zip(PAIR_FEATURES, weights))
              + f": log loss {pair_log_loss(data, weights):.4f}; on each quarter of the games "
              "left out of the fit: " + ", ".join(f"{a:.4f}" for a, _ in held_out)
              + " (the evaluation as it is: " + ", ".join(f"{b:.4f}" for _, b in held_out) + ")")
    print(f"current scale={now[0]}, weight={now[1]}, race_scale={now[2]}: "
          f"log loss {log_loss(data, *now):.4f}")
    scales = [4, 6, 8, 10, 12, 15, 20, 30]
    weights = [0, 0.2, 0.35, 0.5, 0.6, 0.7, 0.8, 0.9, 1]
    race_scales = [0.25, 0.4, 0.5, 0.6, 0.75, 1, 1.5, 2, 3]
    grid = itertools.product(scales, weights, race_scales)
    best = sorted((log_loss(data, *g), g) for g in grid)[:5]
    for loss, (s, w, r) in best:
        print(f"scale={s}, weight={w}, race_scale={r}: log loss {loss:.4f}")


if __name__ == "__main__":
    main()
