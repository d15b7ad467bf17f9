"""The product benchmarks, one entry each: ``python benchmarks/run.py`` runs the quick ones and
prints their tables; ``python benchmarks/run.py NAME [OPTIONS]`` runs one, its options passed
on (``NAME --help`` lists them).

    python benchmarks/run.py                      # engine, search, cores, endgame, envs
    python benchmarks/run.py --list               # every entry, its command and its cost
    python benchmarks/run.py engine classic --seconds 5
    python benchmarks/run.py ladder red2 --levels random easy medium hard --adjacent
    python benchmarks/run.py classic --seconds 5  # a game's name: its engine, as before

Every entry prints the date and the machine with its figures: copy them, with the command,
into benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
from pathlib import Path

from cathedral.bench import machine, measure
from cathedral.core.registry import load

HERE = Path(__file__).resolve().parent
ENGINE_SETTINGS = {
    "classic": [{}, {"opening": "lehmann"}],
    "allmer": [{"players": 2}, {"players": 4}, {"players": 2, "withdraw": True}],
    "red": [{"players": 2}, {"players": 4}],
}
# name: (what it measures, the command, its options in the bare ``run.py`` (None: not run
# there, it needs services, an older installation or hours), how long it takes so)
ENTRIES: dict[str, tuple[str, list[str], list[str] | None, str]] = {
    "engine": ("random games, decisions and legal-move generations per second",
               ["run.py", "engine"], [], "2 minutes"),
    "ai": ("search speed: MCTS simulations, alpha-beta nodes, rollouts per second",
           ["bench_ai.py"], ["--seconds", "1", "--positions", "3"], "1 minute"),
    "parallel": ("what max's second core buys: its search on one core and on all",
                 ["bench_parallel.py"], ["--seconds", "5", "--positions", "6"], "5 minutes"),
    "endgame": ("how far back the classic endgame solver proves the winner and the margin",
                ["bench_endgame.py"],
                ["--games", "4", "--seconds", "5", "--plies", "6", "8", "10", "11", "12"],
                "3 minutes"),
    "envs": ("steps per second through PettingZoo, Gymnasium and OpenSpiel",
             ["bench_envs.py"], [], "2 minutes"),
    "jax": ("random-play steps per second of the batched JAX engines beside the Python one",
            ["bench_jax.py"], ["--seconds", "2"], "1 minute"),
    "server": ("load on a real `cathedral serve`: moves/s and round trips, SQLite, PostgreSQL",
               ["load_server.py"], None, "5 minutes"),
    "strength": ("the levels' strength targets, one named arena run (--list names them)",
                 ["arena_targets.py"], None, "10-80 minutes a run"),
    "ladder": ("the ladder of levels: Elo and each level's step (`cathedral ladder`)",
               ["-m", "cathedral.cli", "ladder"], None, "hours"),
    "versus": ("today's levels against an older commit's installation",
               ["versus.py"], None, "10 minutes (medium) to 70 (hard)"),
    "balance": ("balance of Red's reconstructed components by greedy self-play",
                ["balance_red.py"], None, "10 minutes"),
}


def engine(argv: list[str]) -> int:
    """The engine figures of each game, one markdown table per game."""
    parser = argparse.ArgumentParser(prog="run.py engine",
                                     description=ENTRIES["engine"][0])
    parser.add_argument("games", nargs="*", default=list(ENGINE_SETTINGS),
                        help="games to measure")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    args = parser.parse_args(argv)
    print(f"{datetime.date.today()} - {machine()}\n")
    for name in args.games:
        rows = []
        for params in ENGINE_SETTINGS.get(name, [{}]):
            try:
                game = load(name, **params)
            except (ImportError, AttributeError) as exc:
                print(f"{name}: not available ({exc})")
                break
            label = name + (" " + " ".join(f"{k}={v}" for k, v in params.items()) if params else "")
            rows.append((label, measure(game, seconds=args.seconds)))
        if not rows:
            continue
        keys = list(rows[0][1])
        print("| setting | " + " | ".join(keys) + " |")
        print("|---" * (len(keys) + 1) + "|")
        for label, figures in rows:
            cells = " | ".join(f"{figures.get(k, float('nan')):,.1f}" for k in keys)
            print(f"| `{label}` | {cells} |")
        print()
    return 0


def run_entry(name: str, argv: list[str]) -> int:
    """Runs one entry with its options; returns its exit status."""
    if name == "engine":
        return engine(argv)
    command = ENTRIES[name][1]
    if command[0].endswith(".py"):
        command = [str(HERE / command[0]), *command[1:]]
    return subprocess.run([sys.executable, *command, *argv], check=False).returncode


def listing() -> str:
    lines = ["| entry | measures | command | in the bare run | takes |", "|---|---|---|---|---|"]
    for name, (what, _, bare, cost) in ENTRIES.items():
        options = " ".join(bare or [])
        run = "no" if bare is None else f"yes, `{options}`" if options else "yes"
        lines.append(f"| `{name}` | {what} | `python benchmarks/run.py {name}` | {run} | "
                     f"{cost} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print(listing())
        return 0
    if argv and argv[0] == "--list":
        print(listing())
        return 0
    if argv and (argv[0] in ENGINE_SETTINGS or argv[0].startswith("-")):
        return engine(argv)  # a game or options first: the engine entry, as run.py was
    if argv:
        if argv[0] not in ENTRIES:
            print(f"run.py: unknown entry {argv[0]!r}; expected one of {', '.join(ENTRIES)} "
                  "(--list)", file=sys.stderr)
            return 2
        return run_entry(argv[0], argv[1:])
    status = 0
    for name, (what, _, bare, _) in ENTRIES.items():
        if bare is not None:
            print(f"\n## {name}: {what} (run.py {' '.join([name, *bare])})\n", flush=True)
            status = run_entry(name, bare) or status
    return status


if __name__ == "__main__":
    sys.exit(main())
