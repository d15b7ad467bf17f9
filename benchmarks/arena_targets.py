"""The arena runs behind the strength figures, one name each, summaries under ``reports/``.

Usage::

    python benchmarks/arena_targets.py RUN [--games N] [--jobs J]
    python benchmarks/arena_targets.py --list

Each run is a ``cathedral arena`` call (``cathedral.ai.arena.run_arena``); its summary goes to
``benchmarks/reports/<run>_<games>.json`` and the full report, every game's record with it, to
``benchmarks/cache/`` (``cathedral.ai.ladder.save``). The targets ask for 200 games
per pairing. On the 2-core reference machine with ``--jobs 2`` the classic ``hard`` run takes
about 80 minutes, the allmer and red runs 8 to 30 minutes each. The spec names in a report
say exactly what played (``hard:seconds=1`` would be the hard level with 1 s per move).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cathedral.ai.arena import format_report, run_arena
from cathedral.ai.ladder import save

REPORTS = Path(__file__).parent / "reports"
RECORDS = Path(__file__).parent / "cache"

RUNS: dict[str, tuple[str, list[str], dict]] = {
    # target: medium beats random in >= 99%
    "classic_medium_random": ("classic", ["medium", "random"], {}),
    # target: hard beats greedy in >= 90%
    "classic_hard_greedy": ("classic", ["hard", "greedy"], {}),
    "classic_medium_greedy": ("classic", ["medium", "greedy"], {}),
    # target: allmer 2p hard beats greedy in >= 90%
    "allmer_hard_greedy": ("allmer", ["hard", "greedy"], {}),
    "allmer_medium_greedy": ("allmer", ["medium", "greedy"], {}),
    # target: allmer 4p hard wins >= 50% against three greedy
    "allmer4_hard_greedy": ("allmer", ["hard", "greedy"], {"players": 4}),
    # targets: red hard beats greedy in >= 75% (2p), wins >= 40% of 4p games vs three greedy
    "red_hard_greedy": ("red", ["hard", "greedy"], {}),
    "red4_hard_greedy": ("red", ["hard", "greedy"], {"players": 4}),
    # no targets: what medium is worth and how fast it answers (limit 2 s)
    "allmer4_medium_greedy": ("allmer", ["medium", "greedy"], {"players": 4}),
    "red_medium_greedy": ("red", ["medium", "greedy"], {}),
    "red4_medium_greedy": ("red", ["medium", "greedy"], {"players": 4}),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run", nargs="?")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", nargs="+", help="replace the run's agents (specs)")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list or args.run not in RUNS:
        for name, (game, agents, params) in RUNS.items():
            print(f"{name}: {game} {' '.join(agents)} {params or ''}")
        return 0 if args.list else 2
    game, agents, params = RUNS[args.run]
    agents = args.agents or agents
    report = run_arena(game, agents, games=args.games, jobs=args.jobs, params=params,
                       seed=args.seed, quiet=False)
    print(format_report(report))
    path = save(report, f"{args.run}_{args.games}", REPORTS, RECORDS)
    print(f"wrote {path} (the records: {RECORDS / path.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
