"""How far back the classic endgame solver reaches: time to prove the winner, and the margin.

Plays seeded greedy games from two random opening moves (as the ladder's openings) and, at
each position some plies before the end, runs ``EndgameSolver`` twice from an empty table:
once for who wins only (``solve(..., margin=False)``, the null-window first pass) and once for
the exact final margin (both passes), each within ``--seconds``. The table gives, per number
of plies left, how many positions each finished in time and the median time of those that
did. Usage::

    python benchmarks/bench_endgame.py [--games 6] [--seconds 10] [--plies 6 8 10 12]

Run it alone on the machine (time is what it measures).
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import time

import cathedral
from cathedral.ai import load_agent
from cathedral.ai.budget import Budget, Deadline
from cathedral.ai.endgame import EndgameSolver
from cathedral.bench import machine


def positions(games: int, plies: list[int]) -> dict[int, list]:
    """Returns, per number of plies left, the position that many plies before each game's
    end (games of the greedy player after two random moves)."""
    game = cathedral.load("classic")
    found: dict[int, list] = {left: [] for left in plies}
    for seed in range(games):
        rng = random.Random(seed)
        agent = load_agent("greedy", game, seed=seed)
        state, line = game.new_initial_state(), []
        while not state.is_terminal():
            if len(state.history()) >= 2:
                line.append(state.clone())
                state.apply_action(agent.choose(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        for left in plies:
            if left <= len(line):
                found[left].append(line[-left])
    return found


def timed(state, seconds: float, margin: bool) -> float | None:
    """Seconds to solve ``state`` from an empty table, or None when over ``seconds``."""
    start = time.perf_counter()
    solution = EndgameSolver().solve(state, Deadline(Budget(seconds=seconds)), margin=margin)
    if solution is None or (margin and not solution.exact):
        return None
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="greedy games to take positions from")
    parser.add_argument("--seconds", type=float, default=10.0, help="limit per solve")
    parser.add_argument("--plies", type=int, nargs="+", default=[6, 8, 9, 10, 11, 12],
                        help="plies before the end to solve from")
    args = parser.parse_args()
    print(f"{datetime.date.today()} - {machine()}\n")
    print(f"| plies left | positions | legal moves (median) | winner proven in {args.seconds:g} s "
          "| median s | exact margin in time | median s |")
    print("|---|---|---|---|---|---|---|")
    for left, states in positions(args.games, args.plies).items():
        cells = []
        for margin in (False, True):
            times = [t for t in (timed(s, args.seconds, margin) for s in states) if t is not None]
            median = f"{statistics.median(times):.2f}" if times else "-"
            cells += [f"{len(times)} of {len(states)}", median]
        legal = statistics.median(len(s.legal_actions()) for s in states)
        print(f"| {left} | {len(states)} | {legal:g} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
