"""Fits the divisor that turns classic's evaluation margin into a value, against game outcomes.

Front ends read a search's value as an expected score, (value + 1) / 2, so the value should
say how often the side ahead goes on to win. The evaluation (``cathedral.games.classic.
heuristic``) is ``tanh(margin / (scale + per_square * left))``, ``left`` the unplaced squares
of both colours. This script collects positions with their final result, from depth-2
self-play games (load-independent: depth budgets) and from the games of an arena or ladder
report (their records read by ``report_games``), and prints the log loss of the expected
score for the current divisor, for the old fixed divisor 12 and for the best (scale,
per_square) on a grid. Usage::

    python research/fit_classic_scale.py --games 600 --jobs 2 \\
        --report benchmarks/reports/ladder_classic_100.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from collections.abc import Iterator

import numpy as np

import cathedral
from cathedral.ai import load_agent
from cathedral.core.contract import State
from cathedral.games.classic import heuristic
from cathedral.games.classic.pieces import DARK, IN_HAND, LIGHT
from report_games import report_with_records

SELF_PLAY = "alphabeta:depth=2,width=8,root_width=24"


def self_play(seed: int) -> Iterator[State]:
    """Yields the state after each move of a depth-2 self-play game that opens with 2-4
    random moves (not yielded)."""
    game = cathedral.load("classic")
    agents = [load_agent(SELF_PLAY, game, seed=seed * 7 + i) for i in range(2)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(rng.choice([2, 3, 4])):
        state.apply_action(rng.choice(state.legal_actions()))
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose(state))
        yield state


def positions(record: dict | None, seed: int = 0) -> list[tuple[float, int, float]]:
    """Plays a game (a report's record replayed, or ``self_play``) and returns (margin, left,
    Light's result 1 / 0.5 / 0) for each position after the Cathedral."""
    states = (self_play(seed) if record is None
              else cathedral.Record.from_json(json.dumps(record)).replay())
    seen = []
    for state in states:
        if not state.is_terminal() and state.position.cathedral_state != IN_HAND:
            seen.append(heuristic.margin(state.position))
    final = state.position
    lead = final.unplaced(DARK) - final.unplaced(LIGHT)
    result = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return [(m, left, result) for m, left in seen]


def log_loss(data: np.ndarray, scale: float, per_square: float) -> float:
    margin, left, result = data.T
    p = np.clip((np.tanh(margin / (scale + per_square * left)) + 1) / 2, 1e-9, 1 - 1e-9)
    return float(-np.mean(result * np.log(p) + (1 - result) * np.log(1 - p)))


def report(name: str, data: np.ndarray) -> None:
    w = heuristic.WEIGHTS
    grid = [(log_loss(data, s, k), s, k) for s in np.arange(0.5, 8.01, 0.25)
            for k in np.arange(0.0, 0.301, 0.01)]
    best, scale, per_square = min(grid)
    print(f"| {name} | {len(data):,} | {log_loss(data, 12.0, 0.0):.4f} | "
          f"{log_loss(data, w['scale'], w['per_square']):.4f} | "
          f"{best:.4f} ({scale:.2f} + {per_square:.2f} x left) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="self-play games (0: none)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report", action="append", default=[],
                        help="an arena or ladder report whose games are read too")
    parser.add_argument("--seats", default="medium,hard,max",
                        help="read only a report's games whose every seat is one of these")
    args = parser.parse_args()
    print("| positions from | positions | loss, divisor 12 | loss, current | best on the grid |")
    print("|---|---|---|---|---|")
    if args.games:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            games = pool.starmap(positions, [(None, i) for i in range(args.games)])
        report(f"{args.games} self-play games ({SELF_PLAY})",
               np.array([row for rows in games for row in rows]))
    for path in args.report:
        games = [g for g in report_with_records(path)["games"]
                 if set(g["seats"]) <= set(args.seats.split(","))]
        rows = [row for g in games for row in positions(g["record"])]
        report(f"{len(games)} games of {path.rsplit('/', 1)[-1]}", np.array(rows))


if __name__ == "__main__":
    main()
