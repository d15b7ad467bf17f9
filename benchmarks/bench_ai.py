"""Search speed per game: MCTS simulations, alpha-beta nodes and greedy rollouts (one round
each) per second.

Positions come from the middle of seeded random games (``cathedral.bench.position_suite``),
so the figures are for the busy part of a game. Each search runs on one position for a fixed
time; the figure is the total work over the total time. Usage::

    python benchmarks/bench_ai.py [--seconds 1.0] [--positions 4] [GAME ...]

A game that is not registered yet is skipped. Speeds depend on the machine and its load;
record them with the machine's description.
"""

from __future__ import annotations

import argparse
import platform

import cathedral
from cathedral.ai import AlphaBetaAgent, Budget, MCTSAgent, RolloutAgent
from cathedral.bench import position_suite

SETTINGS = {
    "classic": {},
    "allmer": {},
    "red": {},
}


def measure(game_name: str, seconds: float, positions: int) -> dict[str, float]:
    game = cathedral.load(game_name, **SETTINGS.get(game_name, {}))
    suite = position_suite(game, games=positions, seed=0)
    step = max(1, len(suite) // positions)
    chosen = suite[::step][:positions]
    budget = Budget(seconds=seconds)
    out: dict[str, float] = {}
    for label, make in (
        ("mcts_simulations_per_s", lambda: MCTSAgent(seed=0, budget=budget, reuse=False)),
        ("mcts_random_playouts_per_s", lambda: MCTSAgent(
            seed=0, budget=budget, reuse=False, prior_depth=0, sample=1, playout_depth=200)),
        ("alphabeta_nodes_per_s", lambda: AlphaBetaAgent(seed=0, budget=budget)),
        ("rollouts_per_s", lambda: RolloutAgent(seed=0, budget=budget, candidates=5)),
    ):
        work = elapsed = 0.0
        for state in chosen:
            info = make().analyse(state)
            work += info.iterations
            elapsed += info.seconds
        out[label] = work / elapsed if elapsed else 0.0
    out["positions"] = len(chosen)
    out["mean_legal_actions"] = sum(len(s.legal_actions()) for s in chosen) / len(chosen)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=["classic", "allmer", "red"])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=4)
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()} on "
          f"{platform.machine()}, {args.seconds:g} s per position")
    for name in args.games:
        try:
            figures = measure(name, args.seconds, args.positions)
        except Exception as exc:  # an engine still being written: report and go on
            print(f"{name}: skipped ({type(exc).__name__}: {exc})")
            continue
        print(f"{name}: " + ", ".join(f"{k} {v:,.0f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
