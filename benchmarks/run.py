"""Runs the engine benchmarks of every game and prints one markdown table per setting.

    python benchmarks/run.py                 # every game, 3 s per figure
    python benchmarks/run.py classic --seconds 5

Copy the output, with the machine line it prints, into benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime

from cathedral.bench import machine, measure
from cathedral.core.registry import load

SETTINGS = {
    "classic": [{}, {"opening": "lehmann"}],
    "allmer": [{"players": 2}, {"players": 4}, {"players": 2, "withdraw": True}],
    "red": [{"players": 2}, {"players": 4}],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(SETTINGS), help="games to measure")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    args = parser.parse_args()
    print(f"{datetime.date.today()} - {machine()}\n")
    for name in args.games:
        rows = []
        for params in SETTINGS.get(name, [{}]):
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


if __name__ == "__main__":
    main()
