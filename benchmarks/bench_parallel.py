"""What the second core buys the ``max`` level: its search alone and on every core, side by side.

For each game and player count, ``max``'s own search (its width, candidates, endgame share)
runs on the same positions from the middle of seeded random games
(``cathedral.bench.position_suite``) for the same time, once in one process
(``workers=1``) and once on every core (``workers=None``, the level as shipped). The table
gives the work done per second (alpha-beta nodes or rollouts, summed over the processes)
and, for alpha-beta, the mean depth completed. Usage::

    python benchmarks/bench_parallel.py [--seconds 5] [--positions 6] [SETTING ...]

Run it alone on the machine: the point is what the cores do when nothing else wants them.
"""

from __future__ import annotations

import argparse
import datetime
import statistics

import cathedral
from cathedral.ai import load_agent
from cathedral.ai.levels import level_spec
from cathedral.ai.parallel import available_cores
from cathedral.bench import machine, position_suite

SETTINGS = {
    "classic": ("classic", {}),
    "allmer2": ("allmer", {}),
    "allmer4": ("allmer", {"players": 4}),
    "red2": ("red", {}),
    "red4": ("red", {"players": 4}),
}


def measure(setting: str, seconds: float, positions: int) -> list[dict]:
    game_name, params = SETTINGS[setting]
    game = cathedral.load(game_name, **params)
    suite = [s for s in position_suite(game, games=positions, seed=0)
             if len(s.legal_actions()) > 2]
    chosen = suite[:: max(1, len(suite) // positions)][:positions]
    agent_name, _ = level_spec("max", game_name, game.num_players)
    rows = []
    for workers in (1, None):
        agent = load_agent(f"max:seconds={seconds},workers={workers}", game, seed=0)
        work = elapsed = 0.0
        depths = []
        for state in chosen:
            agent.reset()
            info = agent.analyse(state)
            work += info.iterations
            elapsed += info.seconds
            depths.append(info.depth)
        agent.close()
        rows.append({
            "setting": setting, "search": agent_name,
            "processes": available_cores(workers), "per_s": work / elapsed,
            "depth": statistics.mean(depths) if agent_name == "alphabeta" else None,
        })
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="*", default=list(SETTINGS),
                        help=f"of {', '.join(SETTINGS)} (default all)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per position")
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args()
    print(f"{datetime.date.today()} - {machine()}, {args.seconds:g} s a position, "
          f"{args.positions} positions\n")
    print("| setting | search | processes | work per second | mean depth |")
    print("|---|---|---|---|---|")
    for setting in args.settings:
        for row in measure(setting, args.seconds, args.positions):
            unit = "nodes" if row["search"] == "alphabeta" else "rollouts"
            depth = "" if row["depth"] is None else f"{row['depth']:.2f}"
            print(f"| {row['setting']} | {row['search']} | {row['processes']} | "
                  f"{row['per_s']:,.0f} {unit} | {depth} |", flush=True)


if __name__ == "__main__":
    main()
