"""Measures how well red's evaluation predicts who wins, and fits its three outer constants.

Front ends read a search's value as an expected score, (value + 1) / 2, and the rollout
players compare decisions by it at the end of a round. ``cathedral.games.red.heuristic.
evaluate`` gives a player (1 - w) tanh(prestige lead / s) + w tanh(race lead / r) while nobody
has ended the game (w = ``RACE_WEIGHT``, r = ``RACE_SCALE``, s = ``PRESTIGE_SCALE``). This
script replays the 2-player games of arena or ladder reports, takes each position where a
turn begins, and prints the log loss of the expected score for the current constants and for
the best ones on a grid. Pairings with ``random`` are left out (their positions are not what
the searches meet). Usage::

    python benchmarks/fit_red_evaluation.py benchmarks/reports/red2_max_plans_hard_100.json \\
        benchmarks/reports/red2_max_rivals4_hard_100.json
"""

from __future__ import annotations

import argparse
import itertools
import json

import numpy as np

import cathedral
from cathedral.games.red import heuristic


def positions(record: dict) -> list[tuple[float, float, float, float]]:
    """Replays a 2-player record; returns (prestige lead, race lead, race on (1/0), result)
    from the first player's side at each turn's start, result 1 / 0.5 / 0."""
    seen = []
    last = None
    for state in cathedral.Record.from_json(json.dumps(record)).replay():
        player = state.current_player()
        if player >= 0 and player != last:  # a turn begins (chance nodes leave ``last``)
            e = heuristic.expected_prestige(state)
            racing = state.trigger < 0
            r = heuristic.race(state) if racing else [0.0, 0.0]
            seen.append((e[0] - e[1], r[0] - r[1], float(racing)))
            last = player
    returns = state.returns()  # the last state replayed: the game's end
    result = 1.0 if returns[0] > returns[1] else 0.5 if returns[0] == returns[1] else 0.0
    return [(*x, result) for x in seen]


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
    args = parser.parse_args()
    rows = []
    games = 0
    for path in args.reports:
        with open(path) as f:
            report = json.load(f)
        for g in report["games"]:
            record = g["record"]
            if record["params"].get("players", 2) != 2 or "random" in record["players"]:
                continue
            rows += positions(record)
            games += 1
    data = np.array(rows)
    print(f"{games} games, {len(data)} positions")
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
