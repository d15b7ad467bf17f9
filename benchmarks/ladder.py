"""The ladder: one round-robin arena of the levels per game and player count, and its Elo table.

    python benchmarks/ladder.py                          # every setting, every level, 100 games
    python benchmarks/ladder.py allmer2 --levels random easy medium hard
    python benchmarks/ladder.py classic --games 20 --jobs 2
    python benchmarks/ladder.py classic --adjacent     # only each level against the next
    python benchmarks/ladder.py --table                  # the table from the saved reports
    python benchmarks/ladder.py allmer4 --levels random easy medium hard --adjacent --extend
    python benchmarks/ladder.py red3 --levels random easy medium hard --adjacent --extend \
        --replace hard --games 102                   # hard changed: its games played anew
    python benchmarks/ladder.py red3 --levels random easy medium hard max --adjacent \
        --extend --games 102 --every 6               # a long match, saved every 6 games

Each setting plays every pairing of its levels (with more than two players, each level alone
against a full table of each other level, every seat in turn) through ``run_arena`` and saves
the report as ``benchmarks/reports/ladder_<setting>_<games>.json`` (and ``.csv``). The table
gives, per setting, each level's Bradley-Terry Elo (mean 0) with its 95% bootstrap interval,
its step over the level below with that difference's interval, and the time per move; the
target of each step is +100 Elo with the interval above 0. Levels are listed weakest first.
Classic games start from two random moves (``OPENING``), the same for both colours.

``--extend`` (with ``--adjacent``) plays only the neighbouring games the setting's saved report
lacks (a level added below or above, a pairing short of ``--games``, so a long match can be
played over several days) and refits the whole ladder on the old games and the new: with
neighbours only, every game compares two levels and nothing else, so one fit over games played
on different days is the same fit. ``--replace LEVEL`` first drops a changed level's games.
``--every K`` plays the games in parts of K a pairing and saves the refitted ladder after each,
so a match of hours that is stopped keeps every part it finished, and the same command run
again goes on from there.

Copy the table, with the machine line, into benchmarks/RESULTS.md and the README.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from itertools import pairwise
from pathlib import Path

from cathedral.ai.arena import GameResult, format_report, run_arena, summarise, write_report
from cathedral.ai.levels import LEVEL_NAMES
from cathedral.bench import machine

REPORTS = Path(__file__).parent / "reports"
SETTINGS = {
    "classic": ("classic", {}),
    "allmer2": ("allmer", {"players": 2}),
    "allmer4": ("allmer", {"players": 4}),
    "red2": ("red", {"players": 2}),
    "red3": ("red", {"players": 3}),
    "red4": ("red", {"players": 4}),
}
# Random moves before the levels take over, per setting: classic's searches are deterministic,
# so without them each pairing replays the same two games; a random Cathedral and first
# building give thousands of openings. The others vary already (dice; allmer's time limits
# and repetitions).
OPENING = {"classic": 2}
TARGET_STEP = 100.0


def run(
    setting: str, levels: list[str], games: int, jobs: int, seed: int, adjacent: bool = False
) -> Path:
    """Plays one setting's ladder and saves its report; returns the report's path."""
    name, params = SETTINGS[setting]
    report = run_arena(
        name, levels, games=games, jobs=jobs, params=params, seed=seed,
        all_pairs=params.get("players", 2) > 2, adjacent=adjacent,
        opening=OPENING.get(setting, 0), quiet=False,
    )
    report["setting"] = setting
    report["machine"] = machine()
    report["date"] = str(datetime.date.today())
    path = REPORTS / f"ladder_{setting}_{games}.json"
    write_report(report, str(path))
    print(format_report(report))
    return path


def newest(setting: str) -> Path | None:
    """Returns the setting's most recent saved ladder report, if any."""
    found = list(REPORTS.glob(f"ladder_{setting}_*.json"))
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def _results(games: list[dict], pairing: dict[int, int], index_offset: int) -> list[GameResult]:
    """The saved or new games as results, their pairings renumbered by ``pairing``."""
    return [
        GameResult(
            index=index_offset + i, pairing=pairing[g["pairing"]], seats=g["seats"],
            seed=g["seed"], returns=g["returns"], scores=g["scores"], plies=g["plies"],
            seconds=g["seconds"], record=g["record"],
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
) -> Path:
    """Plays what the saved report lacks of ``games`` games for each neighbouring pairing of
    ``levels`` (a level added below or above, a match cut short, a pairing topped up to more
    games) and saves the refitted ladder of all of them; returns the report's path.

    The games of a ``replace``d level (one changed since they were played) are dropped first,
    with its timing, and played anew. With nothing to play or drop the ladder is refitted and
    saved all the same, unless ``refit`` is false.
    """
    path = newest(setting)
    if path is None:
        raise SystemExit(f"no saved ladder for {setting}: run it without --extend first")
    old = json.loads(path.read_text())
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
    merged["setting"] = setting
    merged["machine"] = machine()
    merged["date"] = str(datetime.date.today())
    merged["dates"] = sorted(set(old.get("dates", [old.get("date", "?")])) | {merged["date"]})
    write_report(merged, str(path))
    print(format_report(merged))
    return path


def extend_in_parts(
    setting: str, levels: list[str], games: int, every: int, jobs: int, seed: int,
    replace: tuple[str, ...] = (),
) -> Path:
    """``extend`` to ``every``, 2 ``every``, ... and finally ``games`` games a pairing, the
    report saved after each part; ``replace`` applies to the first part only (the games played
    after it are the changed level's own). A part an earlier run finished is passed over; the
    last is always refitted and printed."""
    path = None
    for target in [*range(every, games, every), games]:
        path = extend(setting, levels, target, jobs, seed, replace, refit=target == games)
        replace = ()
    return path


def _games_of_step(report: dict, level: str) -> int:
    """The games behind a level's step: of its pairing with the level below (the lowest
    level: with the next), as pairings may have been topped up to different counts."""
    agents = report["agents"]
    i = agents.index(level)
    other = agents[i - 1] if i else agents[min(1, len(agents) - 1)]
    games = [p["games"] for p in report["pairings"] if set(p["agents"]) == {level, other}]
    return games[0] if games else report["games_per_pairing"]


def table(paths: list[Path]) -> str:
    """The Elo table of saved ladder reports, in markdown."""
    lines = [
        "| setting | level | Elo [95%] | step over the level below [95%] | step target |"
        " s per move, mean (max) | games a pairing |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in paths:
        report = json.loads(path.read_text())
        setting = report.get("setting", path.stem)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="*", help=f"of {', '.join(SETTINGS)} (default all)")
    parser.add_argument("--levels", nargs="+", default=list(LEVEL_NAMES),
                        help="levels or agent specs, weakest first")
    parser.add_argument("--games", type=int, default=100, help="games a pairing")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--adjacent", action="store_true",
                        help="play each level only against the next (where the far pairings "
                        "are foregone and costly)")
    parser.add_argument("--extend", action="store_true",
                        help="with --adjacent: play only what the saved report lacks of "
                        "--games games for each neighbouring pairing, and refit the ladder")
    parser.add_argument("--replace", nargs="+", default=[], metavar="LEVEL",
                        help="with --extend: drop the saved games of these levels (changed "
                        "since) and play them anew")
    parser.add_argument("--every", type=int, metavar="K",
                        help="with --extend: play in parts of K games a pairing, saving the "
                        "ladder after each (with more players, a multiple of the seats)")
    parser.add_argument("--table", action="store_true", help="only print the saved table")
    args = parser.parse_args()
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
    if args.table:
        paths = [path for path in map(newest, settings) if path is not None]
    elif args.extend:
        paths = [extend_in_parts(s, args.levels, args.games, args.every or args.games,
                                 args.jobs, args.seed, tuple(args.replace))
                 for s in settings]
    else:
        paths = [
            run(s, args.levels, args.games, args.jobs, args.seed, args.adjacent)
            for s in settings
        ]
    print(f"\n{datetime.date.today()} - {machine()}\n")
    print(table(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
