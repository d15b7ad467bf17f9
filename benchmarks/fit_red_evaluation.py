"""Measures how well red's evaluation predicts who finishes ahead, and fits its three outer
constants.

Front ends read a search's value as an expected score, (value + 1) / 2, and the rollout
players compare decisions by it at the end of a round. ``cathedral.games.red.heuristic.
evaluate`` gives a player, against each rival, (1 - w) tanh(prestige lead / s) + w tanh(race
lead / r) while nobody has ended the game (w = ``RACE_WEIGHT``, r = ``RACE_SCALE``,
s = ``PRESTIGE_SCALE``), and the mean over the rivals. So each pair of players is one
prediction: the pair's value as the chance that the first finishes ahead of the second (a
tie counts a half). This script replays the games of arena or ladder reports, takes each
position where a turn begins, and prints the log loss of those predictions for the current
constants and for the best ones on a grid. Pairings with ``random`` are left out (their
positions are not what the searches meet); ``--players`` keeps one player count. Usage::

    python benchmarks/fit_red_evaluation.py benchmarks/reports/red2_max_plans_hard_100.json \\
        benchmarks/reports/red2_max_rivals4_hard_100.json
    python benchmarks/fit_red_evaluation.py --players 4 benchmarks/reports/ladder_red4_100.json
"""

from __future__ import annotations

import argparse
import itertools
import json

import numpy as np

import cathedral
from cathedral.games.red import heuristic


def positions(record: dict) -> list[tuple[float, float, float, float]]:
    """Replays a record; returns (prestige lead, race lead, race on (1/0), result) for each
    pair of players p < q at each turn's start, from p's side, result 1 / 0.5 / 0 as p
    finished ahead of q, level with them or behind."""
    seen = []
    last = None
    for state in cathedral.Record.from_json(json.dumps(record)).replay():
        player = state.current_player()
        if player >= 0 and player != last:  # a turn begins (chance nodes leave ``last``)
            e = heuristic.expected_prestige(state)
            racing = state.trigger < 0
            r = heuristic.race(state) if racing else [0.0] * state.n
            seen.append((e, r, float(racing)))
            last = player
    ranks = state.returns()  # the last state replayed: the game's end, ranked by tie-break
    rows = []
    for p, q in itertools.combinations(range(state.n), 2):
        result = 1.0 if ranks[p] > ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
        rows += [(e[p] - e[q], r[p] - r[q], racing, result) for e, r, racing in seen]
    return rows


def log_loss(data: np.ndarray, scale: float, weight: float, race_scale: float) -> float:
    lead, race, racing, result = data.T
    value = np.tanh(lead / scale)
    value = np.where(racing > 0,
                     (1 - weight) * value + weight * np.tanh(race / race_scale), value)
    p = np.clip((value + 1) / 2, 1e-9, 1 - 1e-9)
    return float(-np.mean(result * np.log(p) + (1 - result) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--players", type=int, default=None,
                        help="keep only games with this many players (default: all)")
    args = parser.parse_args()
    rows = []
    games = 0
    for path in args.reports:
        with open(path) as f:
            report = json.load(f)
        for g in report["games"]:
            record = g["record"]
            players = record["params"].get("players", 2)
            if args.players not in (None, players) or "random" in record["players"]:
                continue
            rows += positions(record)
            games += 1
    if not rows:
        raise SystemExit("no games left to fit (pairings with random are left out)")
    data = np.array(rows)
    print(f"{games} games, {len(data)} pairs of players at a turn's start")
    now = (heuristic.PRESTIGE_SCALE, heuristic.RACE_WEIGHT, heuristic.RACE_SCALE)
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
