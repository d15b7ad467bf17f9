"""Today's levels against an older commit's: does a change that passed the ladder still beat
the version before it?

The ladder rates each level against this project's own levels only, so a change that makes
``hard`` beat ``medium`` more often can still make it lose to another style of play, the
older ``hard``'s included. Here each side plays in its own process and installation through
``benchmarks/bridge.py`` (today's under this Python, the older one under the Python of its own
worktree and virtual environment), with colours swapped in pairs from the arena's openings
(``--opening`` random moves, the same for both games of a pair), and the games are scored
both by result and by margin (the opponent's unplaced squares minus today's, summed).

Set up the older version once, outside this worktree::

    git worktree add /work/old60133bf 60133bf
    cd /work/old60133bf && python3 -m venv .venv && .venv/bin/python -m pip install -e .

then, from this worktree::

    python benchmarks/versus.py --old-python /work/old60133bf/.venv/bin/python \\
        --levels hard medium --games 100 --jobs 2

Each level's games are saved as ``versus_<game>_<level>_<commit>_<games>.json``: its summary
in ``benchmarks/reports``, the full report with every record (and a CSV) in
``benchmarks/cache`` (``cathedral.ai.ladder.save``); the table gives per level
today's wins, draws and losses, its score with a 95% Wilson interval, the Elo difference with
its 95% bootstrap interval (``cathedral.ai.ratings``), the total and mean margin with a 95%
interval (normal, over colour-swapped pairs, the games of a pair sharing an opening), and
each side's time per move. ``--levels`` takes any spec the older version knows as well
(``alphabeta:depth=3``); both sides play the same spec, unless ``--older-levels`` gives the
older side its own (today's level without an option the older version lacks, say
``--levels hard:threats=0 --older-levels hard``). Time-limited levels are only
comparable on a machine with a core free for each game in play (``--jobs`` at most the
cores).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from cathedral.ai.arena import (
    GameResult,
    GameTask,
    Progress,
    format_report,
    play_between,
    schedule,
    summarise,
)
from cathedral.ai.ladder import save
from cathedral.ai.ratings import Z95
from cathedral.bench import machine
from cathedral.core.contract import State
from cathedral.core.errors import AgentError
from cathedral.core.record import Record
from cathedral.core.registry import load

BRIDGE = Path(__file__).with_name("bridge.py")
REPORTS = Path(__file__).parent / "reports"
RECORDS = Path(__file__).parent / "cache"


class Bridge:
    """One agent in a process of its own installation (``benchmarks/bridge.py``)."""

    def __init__(self, python: str, spec: str, seed: int) -> None:
        self.spec = spec
        self.last_thought: float | None = None
        self.process = subprocess.Popen(
            [python, str(BRIDGE), spec, "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )
        self.hello = self._read()
        if not self.hello.get("ready"):
            raise AgentError(f"bridge for {spec!r} under {python} did not start: {self.hello}")

    def _read(self) -> dict[str, Any]:
        line = self.process.stdout.readline()
        if not line:
            raise AgentError(f"bridge for {self.spec!r} ended (exit {self.process.poll()})")
        return json.loads(line)

    def choose(self, state: State) -> int:
        """Returns the agent's action in ``state``; the seconds it thought, as its own process
        measured them, go to ``last_thought`` (the arena's time of the move)."""
        self.process.stdin.write(Record.from_state(state).to_json(indent=None) + "\n")
        self.process.stdin.flush()
        reply = self._read()
        if "error" in reply:
            raise AgentError(f"agent {self.spec!r}: {reply['error']}")
        self.last_thought = reply["seconds"]
        try:
            return state.string_to_action(reply["action"])
        except ValueError as exc:
            raise AgentError(f"agent {self.spec!r} chose {reply['action']!r}: {exc}") from None

    def close(self) -> None:
        try:
            self.process.stdin.close()
            self.process.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def play(task: GameTask, sides: dict[str, tuple[str, str]]) -> GameResult:
    """Plays one game of ``task`` between bridges, as the arena plays its games; ``sides``
    maps a seat name to its (Python, agent spec)."""
    game = load(task.game, **task.params)
    bridges = [Bridge(*sides[name], seed=task.seed * 101 + seat)
               for seat, name in enumerate(task.seats)]
    return play_between(task, game, bridges)


def margins(report: dict[str, Any], today: str) -> dict[str, float]:
    """Today's margin per game (the other side's score minus today's: unplaced squares, so
    positive is better for today): total, mean and a 95% interval of the mean over the pairs
    of games that share an opening."""
    pairs: dict[int, float] = {}
    for g in report["games"]:
        mine = g["seats"].index(today)
        pairs[g["seed"]] = pairs.get(g["seed"], 0.0) + g["scores"][1 - mine] - g["scores"][mine]
    values = list(pairs.values())
    games = len(report["games"])
    total = sum(values)
    half = (Z95 * statistics.stdev(values) / math.sqrt(len(values)) / 2
            if len(values) > 1 else math.inf)
    mean = total / games if games else 0.0
    return {"total": total, "mean": mean, "interval": [mean - half, mean + half]}


def run_level(game_name: str, params: dict, spec: str, old_python: str, label: str,
              games: int, jobs: int, opening: int, seed: int,
              old_spec: str | None = None) -> dict[str, Any]:
    """Plays today's ``spec`` against the older version's ``old_spec`` (the same spec by
    default); returns the arena's report with ``margin`` added (see ``margins``)."""
    old_spec = old_spec or spec
    today, older = spec, f"{label}:{old_spec}"
    sides = {today: (sys.executable, spec), older: (old_python, old_spec)}
    game = load(game_name, **params)
    pairings, tasks = schedule(game_name, game.params, [today, older], games,
                               num_players=game.num_players, seed=seed, opening=opening)
    progress = Progress(len(tasks), f"{spec} vs {older}")
    results: list[GameResult] = []
    began = time.perf_counter()
    # Each game's work is in its two bridge processes: threads are enough to drive them.
    with ThreadPoolExecutor(jobs) as pool:
        futures = [pool.submit(play, task, sides) for task in tasks]
        try:
            for future in as_completed(futures):
                results.append(future.result())
                scored = sum(1.0 if r.returns[r.seats.index(today)] > 0 else
                             0.5 if r.returns[r.seats.index(today)] == 0 else 0.0
                             for r in results)
                progress.advance(f"{today}: {scored:g}/{len(results)}")
        finally:
            for future in futures:
                future.cancel()
            progress.close()
    results.sort(key=lambda r: r.index)
    report = summarise(game_name, game.params, [today, older], pairings, results,
                       games_per_pairing=games, seed=seed, jobs=jobs, opening=opening,
                       seconds=time.perf_counter() - began)
    report["margin"] = margins(report, today)
    return report


def table(reports: list[dict[str, Any]], label: str) -> str:
    """Returns the comparison's table, one row per level (today's side)."""
    lines = [
        f"| level | games | W-D-L (today) | score [95%] | Elo today-{label} [95%] "
        "| margin total | margin a game [95%] | s/move today | s/move older |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        today, older = report["agents"]
        row = report["pairings"][0]
        low, high = row["score_interval"]
        step = report["elo_steps"][0]  # the older side's step over today's: turned round
        elo = [0.0 - step["difference"], 0.0 - step["interval"][1], 0.0 - step["interval"][0]]
        margin = report["margin"]
        t = report["timing"]
        lines.append(
            f"| {today} | {row['games']} | {row['wins']}-{row['draws']}-{row['losses']} "
            f"| {row['score']:.0%} [{low:.0%}, {high:.0%}] "
            f"| {elo[0]:+.0f} [{elo[1]:+.0f}, {elo[2]:+.0f}] "
            f"| {margin['total']:+.0f} | {margin['mean']:+.2f} [{margin['interval'][0]:+.2f}, "
            f"{margin['interval'][1]:+.2f}] "
            f"| {t.get(today, {}).get('mean_seconds', 0):.2f} "
            f"| {t.get(older, {}).get('mean_seconds', 0):.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old-python", required=True,
                        help="the Python of the older version's installation")
    parser.add_argument("--game", default="classic")
    parser.add_argument("--levels", nargs="+", default=["hard", "medium"])
    parser.add_argument("--older-levels", nargs="+", metavar="SPEC",
                        help="the older side's spec for each of --levels, where it differs "
                        "(an option the older version lacks)")
    parser.add_argument("--games", type=int, default=100,
                        help="games per level (even: colours swapped in pairs)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--opening", type=int, default=2,
                        help="random moves before the levels take over (arena's openings)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-save", action="store_true", help="print only (smoke tests)")
    args = parser.parse_args(argv)
    commits = []
    for python in (sys.executable, args.old_python):
        hello = Bridge(python, "random", 0)
        commits.append(hello.hello.get("commit") or "unknown")
        hello.close()
    label = commits[1]
    print(f"today: {commits[0]}; older: {label} ({args.old_python}); {machine()}", flush=True)
    olders = args.older_levels or args.levels
    if len(olders) != len(args.levels):
        parser.error("--older-levels needs one spec for each of --levels")
    reports = []
    for spec, old_spec in zip(args.levels, olders):
        report = run_level(args.game, {}, spec, args.old_python, label, args.games, args.jobs,
                           args.opening, args.seed, old_spec)
        report["machine"] = machine()
        report["date"] = str(datetime.date.today())
        report["older"] = label
        reports.append(report)
        print(format_report(report), flush=True)
        if not args.no_save:
            safe = spec.replace(":", "_").replace(",", "_").replace("=", "")
            path = save(report, f"versus_{args.game}_{safe}_{label}_{args.games}", REPORTS,
                        RECORDS)
            print(f"wrote {path} (the records: {RECORDS / path.name})")
    print(table(reports, label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
