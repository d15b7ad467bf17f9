"""The ladder: one arena of the levels per game and player count, and its Elo table
(``cathedral ladder``).

Each setting plays every pairing of its levels (``--adjacent``: only each level against the
next; with more than two players each level alone against a full table of the other, every
seat in turn) through ``run_arena``. The table gives, per setting, each level's Bradley-Terry
Elo (mean 0) with its 95% bootstrap interval, its step over the level below with that
difference's interval, and the time per move; a step's target is +100 Elo with its interval
above 0. Levels are listed weakest first. Classic games start from two random moves
(``OPENING``), the same for both colours, as its searches are deterministic.

What is saved, per setting, as ``ladder_<setting>_<games>.json``:

- in the reports folder (``--reports``, default ``benchmarks/reports``), the *summary*: the
  arena's report without the games' records (pairings, Elo, intervals, steps, timing, and
  each game's seats, seed, returns, scores, plies and seconds: all that ``--table`` and
  ``--extend`` read), one game a line, small enough to commit;
- in the records folder (``--records``, default ``benchmarks/cache``, which git ignores), the
  full report with every game's record and a CSV of the games (``write_report``), for the
  scripts that replay games.

``--extend`` (with ``--adjacent``) plays only the neighbouring games the saved summary lacks
(a level added below or above, a pairing short of ``--games``) and refits the whole ladder on
the old games and the new: with neighbours only, every game compares two levels and nothing
else, so one fit over games played on different days is the same fit. ``--replace LEVEL``
first drops a changed level's games. ``--every K`` plays in parts of K games a pairing and
saves after each, so a stopped match keeps every part it finished and the same command goes
on from there.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

from cathedral.ai.arena import (
    GameResult,
    format_report,
    machine,
    run_arena,
    summarise,
    write_report,
)
from cathedral.ai.levels import LEVEL_NAMES
from cathedral.core.errors import CathedralError

REPORTS = Path("benchmarks") / "reports"
RECORDS = Path("benchmarks") / "cache"
SETTINGS: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("classic", {}),
    "allmer2": ("allmer", {"players": 2}),
    "allmer4": ("allmer", {"players": 4}),
    "red2": ("red", {"players": 2}),
    "red3": ("red", {"players": 3}),
    "red4": ("red", {"players": 4}),
}
# Random moves before the levels take over: classic's searches are deterministic, so without
# them each pairing replays the same two games; the other games vary already (dice, clocks).
OPENING = {"classic": 2}
TARGET_STEP = 100.0


# ----- summaries and records ------------------------------------------------------------------


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the games' records (seconds to the millisecond, as in the CSV)."""
    games = [
        {k: round(v, 3) if k == "seconds" else v for k, v in g.items() if k != "record"}
        for g in report["games"]
    ]
    return {**report, "games": games}


def write_summary(report: dict[str, Any], path: Path) -> Path:
    """Writes ``summary(report)`` as JSON at ``path``, one game a line; returns the path."""
    short = summary(report)
    games = short.pop("games")
    head = json.dumps(short, indent=1)
    lines = ",\n".join("  " + json.dumps(g, separators=(",", ":")) for g in games)
    body = f'"games": [\n{lines}\n ]' if games else '"games": []'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{head[:-2]},\n {body}\n}}\n", encoding="utf-8")
    return path


def save(report: dict[str, Any], name: str, reports: Path, records: Path) -> Path:
    """Saves a report as ``name``: its summary in ``reports``, the full report with every
    game's record (and its CSV) in ``records``; returns the summary's path."""
    path = write_summary(report, Path(reports) / f"{name}.json")
    Path(records).mkdir(parents=True, exist_ok=True)
    write_report(report, str(Path(records) / f"{name}.json"))
    return path


def _game_key(game: dict[str, Any]) -> tuple:
    return (tuple(game["seats"]), game["seed"], game["plies"], tuple(game["returns"]),
            tuple(game["scores"]))


def load_report(path: Path, records: Path | None = RECORDS) -> dict[str, Any]:
    """Reads a saved report; a summary's games get their records back from the full report
    of the same name in ``records``, where it holds the same games (a game whose record is
    not there has none)."""
    path = Path(path)
    report = json.loads(path.read_text(encoding="utf-8"))
    missing = [g for g in report["games"] if not g.get("record")]
    full = Path(records) / path.name if records is not None else None
    if missing and full is not None and full.is_file() and full.resolve() != path.resolve():
        kept = {_game_key(g): g.get("record")
                for g in json.loads(full.read_text(encoding="utf-8"))["games"]}
        for g in missing:
            record = kept.get(_game_key(g))
            if record:
                g["record"] = record
    return report


# ----- playing ----------------------------------------------------------------------------------


def _stamp(report: dict[str, Any], setting: str) -> None:
    report["setting"] = setting
    report["machine"] = machine()
    report["date"] = str(datetime.date.today())


def run(
    setting: str, levels: list[str], games: int, jobs: int, seed: int, adjacent: bool = False,
    *, reports: Path = REPORTS, records: Path = RECORDS,
) -> Path:
    """Plays one setting's ladder and saves it; returns the summary's path."""
    name, params = SETTINGS[setting]
    report = run_arena(
        name, levels, games=games, jobs=jobs, params=params, seed=seed,
        all_pairs=params.get("players", 2) > 2, adjacent=adjacent,
        opening=OPENING.get(setting, 0), quiet=False,
    )
    _stamp(report, setting)
    path = save(report, f"ladder_{setting}_{games}", reports, records)
    print(format_report(report))
    return path


def newest(setting: str, reports: Path = REPORTS) -> Path | None:
    """Returns the setting's most recently saved ladder summary, if any."""
    found = list(Path(reports).glob(f"ladder_{setting}_*.json"))
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def _results(games: list[dict], pairing: dict[int, int], index_offset: int) -> list[GameResult]:
    """The saved or new games as results, their pairings renumbered by ``pairing``."""
    return [
        GameResult(
            index=index_offset + i, pairing=pairing[g["pairing"]], seats=g["seats"],
            seed=g["seed"], returns=g["returns"], scores=g["scores"], plies=g["plies"],
            seconds=g["seconds"], record=g.get("record") or {},
        )
        for i, g in enumerate(games)
    ]


def _timing(timings: list[dict]) -> dict:
    """Each level's time per move over several reports' timings (means weighted by moves)."""
    out: dict[str, dict] = {}
    for timing in timings:
        for level, t in timing.items():
            old = out.get(level)
            if old is None:
                out[level] = dict(t)
                continue
            moves = old["moves"] + t["moves"]
            out[level] = {
                "moves": moves,
                "mean_seconds": (old["mean_seconds"] * old["moves"]
                                 + t["mean_seconds"] * t["moves"]) / moves,
                "max_seconds": max(old["max_seconds"], t["max_seconds"]),
            }
    return out


def extend(
    setting: str, levels: list[str], games: int, jobs: int, seed: int,
    replace: tuple[str, ...] = (), refit: bool = True,
    *, reports: Path = REPORTS, records: Path = RECORDS,
) -> Path:
    """Plays what the saved ladder lacks of ``games`` games for each neighbouring pairing of
    ``levels`` (a level added below or above, a match cut short, a pairing topped up to more
    games) and saves the refitted ladder of all of them; returns the summary's path.

    The games of a ``replace``d level (one changed since they were played) are dropped first,
    with its timing, and played anew. With nothing to play or drop the ladder is refitted and
    saved all the same, unless ``refit`` is false.
    """
    path = newest(setting, reports)
    if path is None:
        raise CathedralError(f"no saved ladder for {setting} in {reports}: "
                             "play it without --extend first")
    old = load_report(path, records)
    name, params = SETTINGS[setting]
    players = params.get("players", 2)
    kept = [i for i, p in enumerate(old["pairings"]) if not set(p["agents"]) & set(replace)]
    pairings = [tuple(old["pairings"][i]["agents"]) for i in kept]
    renumber = {i: n for n, i in enumerate(kept)}
    results = _results([g for g in old["games"] if g["pairing"] in renumber], renumber, 0)
    # Only levels with games kept are timed (a replaced level's, or one whose every pairing
    # went with it, are not).
    playing = {a for pair in pairings for a in pair}
    timings = [{k: v for k, v in old["timing"].items() if k in playing}]
    seconds = old["seconds"]
    played = False
    for low, high in pairwise(levels):
        # With more seats a pairing is one level alone against a table of the other: which
        # is alone matters, so only the same arrangement (the stronger alone) counts.
        wanted = (low, high) if players == 2 else (high, low)
        same = [n for n, pair in enumerate(pairings)
                if pair == wanted or (players == 2 and pair == wanted[::-1])]
        p = same[0] if same else len(pairings)
        have = sum(1 for r in results if r.pairing == p)
        if have >= games:
            continue
        if not same:
            pairings.append(wanted)
        print(f"{setting}: playing {low} against {high}, games {have + 1} to {games}")
        report = run_arena(
            name, [low, high], games=games, jobs=jobs, params=params, seed=seed,
            all_pairs=players > 2, adjacent=True, opening=OPENING.get(setting, 0),
            first_game=have, quiet=False,
        )
        results += _results(report["games"], {0: p}, len(results))
        timings.append(report["timing"])
        seconds += report["seconds"]
        played = True
    if not (played or refit or len(kept) < len(old["pairings"])):
        return path
    known = {a for pair in pairings for a in pair}
    order = list(levels)
    for i, level in enumerate(old["agents"]):  # the saved levels left out of ``levels``
        if level not in order:
            later = [lv for lv in old["agents"][i + 1 :] if lv in order]
            order.insert(order.index(later[0]) if later else len(order), level)
    merged = summarise(
        old["game"], old["params"], [lv for lv in order if lv in known], pairings, results,
        games_per_pairing=min(sum(1 for r in results if r.pairing == i)
                              for i in range(len(pairings))),
        seed=seed, jobs=jobs, seconds=seconds,
        **({"opening": old["opening"]} if "opening" in old else {}),
    )
    merged["timing"] = _timing(timings)
    _stamp(merged, setting)
    merged["dates"] = sorted(set(old.get("dates", [old.get("date", "?")])) | {merged["date"]})
    save(merged, path.stem, reports, records)
    print(format_report(merged))
    return path


def extend_in_parts(
    setting: str, levels: list[str], games: int, every: int, jobs: int, seed: int,
    replace: tuple[str, ...] = (), *, reports: Path = REPORTS, records: Path = RECORDS,
) -> Path:
    """``extend`` to ``every``, 2 ``every``, ... and finally ``games`` games a pairing, the
    ladder saved after each part; ``replace`` applies to the first part only (the games played
    after it are the changed level's own). A part an earlier run finished is passed over; the
    last is always refitted and printed."""
    path = None
    for target in [*range(every, games, every), games]:
        path = extend(setting, levels, target, jobs, seed, replace, refit=target == games,
                      reports=reports, records=records)
        replace = ()
    return path


# ----- the table --------------------------------------------------------------------------------


def _games_of_step(report: dict, level: str) -> int:
    """The games behind a level's step: of its pairing with the level below (the lowest
    level: with the next), as pairings may have been topped up to different counts."""
    agents = report["agents"]
    i = agents.index(level)
    other = agents[i - 1] if i else agents[min(1, len(agents) - 1)]
    games = [p["games"] for p in report["pairings"] if set(p["agents"]) == {level, other}]
    return games[0] if games else report["games_per_pairing"]


def table(paths: list[Path]) -> str:
    """The Elo table of saved ladders, in markdown."""
    lines = [
        "| setting | level | Elo [95%] | step over the level below [95%] | step target |"
        " s per move, mean (max) | games a pairing |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in paths:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        setting = report.get("setting", Path(path).stem)
        steps = {step["agents"][0]: step for step in report.get("elo_steps", [])}
        for level in report["agents"]:
            low, high = report["elo_interval"][level]
            elo = report["elo"][level]
            cells = [f"`{setting}`", level, f"{elo:+.0f} [{low:+.0f}, {high:+.0f}]"]
            step = steps.get(level)
            if step is None:
                cells += ["", ""]
            else:
                s_low, s_high = step["interval"]
                met = step["difference"] >= TARGET_STEP and s_low > 0
                cells += [
                    f"{step['difference']:+.0f} [{s_low:+.0f}, {s_high:+.0f}]",
                    "met" if met else "**not met**",
                ]
            timing = report["timing"].get(level)
            cells.append(
                f"{timing['mean_seconds']:.3f} ({timing['max_seconds']:.2f})" if timing else ""
            )
            cells.append(str(_games_of_step(report, level)))
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ----- the command ------------------------------------------------------------------------------

DESCRIPTION = f"""\
Plays the levels of each setting against each other (a round robin, or with --adjacent each
level against the next only) and prints each level's Bradley-Terry Elo with its 95% bootstrap
interval, its step over the level below (the target: +{TARGET_STEP:.0f} with the interval above
0) and its time per move. Levels are listed weakest first; classic games start from two
random moves, the same for both colours."""

EXAMPLES = """\
examples (from the repository's root):
  cathedral ladder --table                      # today's tables, from benchmarks/reports
  cathedral ladder classic --games 20 --jobs 2  # a round robin of every level
  cathedral ladder red2 --levels random easy medium hard --adjacent
  cathedral ladder allmer4 --levels random easy medium hard --adjacent --extend
      (a level added to the saved ladder: only its new pairing is played)
  cathedral ladder red3 --levels random easy medium hard --adjacent --extend \\
      --replace hard --games 102           (hard changed: its games played anew)
  cathedral ladder red3 --levels random easy medium hard max --adjacent --extend \\
      --games 102 --every 6                (a long match, saved every 6 games; the same
                                            command run again goes on where it stopped)
  cathedral ladder classic --games 4 --reports /tmp/ladder --records /tmp/ladder/records

Each setting's summary goes to REPORTS/ladder_<setting>_<games>.json (every game's result,
no records: what --table and --extend read), the full report with every game's record and a
CSV of the games to RECORDS under the same name. Copy the table, with its machine line, into
benchmarks/RESULTS.md.
"""


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("settings", nargs="*", metavar="SETTING",
                        help=f"of {', '.join(SETTINGS)} (default: all)")
    parser.add_argument("--levels", nargs="+", default=list(LEVEL_NAMES), metavar="LEVEL",
                        help="levels or agent specs, weakest first (default: "
                        f"{' '.join(LEVEL_NAMES)})")
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help="games a pairing (default 100)")
    parser.add_argument("--jobs", type=int, default=2, metavar="J",
                        help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the first seed (default 1)")
    parser.add_argument("--adjacent", action="store_true",
                        help="play each level only against the next (all the steps need; "
                        "the far pairings are foregone and costly)")
    parser.add_argument("--extend", action="store_true",
                        help="with --adjacent: play only what the saved ladder lacks of "
                        "--games games for each neighbouring pairing, and refit it")
    parser.add_argument("--replace", nargs="+", default=[], metavar="LEVEL",
                        help="with --extend: drop the saved games of these levels (changed "
                        "since) and play them anew")
    parser.add_argument("--every", type=int, metavar="K",
                        help="with --extend: play in parts of K games a pairing, saving the "
                        "ladder after each (with more players, a multiple of the seats)")
    parser.add_argument("--table", action="store_true",
                        help="play nothing: print the table of the saved summaries")
    parser.add_argument("--reports", type=Path, metavar="DIR",
                        help=f"the summaries' folder (default: {REPORTS}, which must exist: "
                        "run from the repository's root or name a folder)")
    parser.add_argument("--records", type=Path, metavar="DIR",
                        help=f"the full reports' folder, every game's record (default: "
                        f"{RECORDS}, ignored by git)")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``ladder`` subcommand to a CLI's argparse subparsers."""
    parser = subparsers.add_parser(
        "ladder", help="rate the levels against each other: Elo and each level's step",
        description=DESCRIPTION,
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _configure(parser)
    parser.set_defaults(run=functools.partial(run_command, parser=parser))
    return parser


def run_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Runs ``ladder`` from parsed arguments; returns the exit status."""
    unknown = [s for s in args.settings if s not in SETTINGS]
    if unknown:
        parser.error(f"unknown settings {unknown}: expected some of {', '.join(SETTINGS)}")
    settings = args.settings or list(SETTINGS)
    if args.extend and not args.adjacent:
        parser.error("--extend needs --adjacent (a round robin is played in one run)")
    if args.replace and not args.extend:
        parser.error("--replace needs --extend (it says which saved games to play anew)")
    if args.every is not None:
        if not args.extend or args.every < 1:
            parser.error("--every needs --extend and a positive number of games")
        for s in settings:
            seats = SETTINGS[s][1].get("players", 2)
            if args.every % seats:
                parser.error(f"--every {args.every}: expected a multiple of {seats}, the "
                             f"seats of {s} (each part turns every seat round)")
    reports = args.reports if args.reports is not None else REPORTS
    records = args.records if args.records is not None else RECORDS
    if not reports.is_dir() and args.reports is None:
        parser.error(f"no folder {reports} here: run from the repository's root or name "
                     "the summaries' folder with --reports DIR")
    if not reports.is_dir() and (args.table or args.extend):
        parser.error(f"--reports {reports}: no such folder")
    folders = {"reports": reports, "records": records}
    if args.table:
        paths = [path for path in (newest(s, reports) for s in settings) if path is not None]
        if not paths:
            parser.error(f"no saved ladder of {', '.join(settings)} in {reports}")
    elif args.extend:
        paths = [extend_in_parts(s, args.levels, args.games, args.every or args.games,
                                 args.jobs, args.seed, tuple(args.replace), **folders)
                 for s in settings]
    else:
        paths = [run(s, args.levels, args.games, args.jobs, args.seed, args.adjacent,
                     **folders) for s in settings]
    print(f"\n{datetime.date.today()} - {machine()}\n")
    print(table(paths))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m cathedral.ai.ladder``: the same as ``cathedral ladder``."""
    parser = argparse.ArgumentParser(
        prog="cathedral ladder", description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _configure(parser)
    args = parser.parse_args(argv)
    try:
        return run_command(args, parser)
    except CathedralError as exc:
        print(f"cathedral ladder: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
