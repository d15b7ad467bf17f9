"""The arena: matches between agents in parallel processes, and what they show.

``cathedral arena GAME AGENT AGENT... --games N --jobs J`` (or ``python -m
cathedral.ai.arena``) plays every pairing of the agents named (levels, agent names or specs
such as ``mcts:seconds=2``):

- With two seats, each pair of agents plays ``N`` games in pairs with colours swapped, each
  pair of games from the same seed (so dice fall alike for both colourings). ``--adjacent``
  plays only neighbours in the list (a ladder, weakest first: the ratings need no more; with
  more seats, each agent alone against a table of the one before it).
- ``--opening K`` starts every game with ``K`` uniformly random moves, the same for both games
  of a pair: deterministic searches would otherwise replay one game over and over (the way
  engine testers play from a book of openings, each with both colours).
- With more seats, the first agent plays alone against a full table of each other agent,
  taking every seat in turn (``--all-pairs`` also measures every other agent alone against
  each field).

Games run in ``J`` worker processes (``multiprocessing``), or with ``--ray [ADDRESS]`` as Ray
tasks on a local Ray instance of ``J`` CPUs or on an existing Ray cluster (extra ``cluster``);
the executor is the only difference: same schedule, seeds, results. A progress bar goes to stderr
(``rich`` when installed, plain text otherwise). The report gives, per pairing, wins, draws
and losses of the first agent with 95% Wilson intervals; a Bradley-Terry (Elo) rating of
every agent from all games; each agent's time per move; and every game's record
(``cathedral.core.record.Record``). It is written as JSON (``--report out.json``) and, next to
it, one CSV row per game (``out.csv``).
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import Any

from cathedral.ai.agents import load_agent
from cathedral.ai.base import chance_sample
from cathedral.ai.ratings import (
    bootstrap_elo,
    bradley_terry_elo,
    ladder_steps,
    percentile_interval,
    wilson_interval,
)
from cathedral.core.contract import CHANCE, Game
from cathedral.core.errors import AgentError, CathedralError, IllegalActionError
from cathedral.core.record import Record
from cathedral.core.registry import load

# ----- one game -------------------------------------------------------------------------------


@dataclass
class GameTask:
    """One game to play: who sits where, from which seed."""

    index: int
    pairing: int
    game: str
    params: dict[str, Any]
    seats: list[str]
    seed: int
    opening: int = 0  # random moves before the agents take over


@dataclass
class GameResult:
    """What a worker sends back for one game."""

    index: int
    pairing: int
    seats: list[str]
    seed: int
    returns: list[float]
    scores: list[float]
    plies: int
    seconds: float
    move_times: dict[str, list[float]] = field(default_factory=dict)
    record: dict[str, Any] = field(default_factory=dict)


def machine() -> str:
    """Returns a one-line description of this machine and Python, for the reports of
    measurements."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def play_game(task: GameTask) -> GameResult:
    """Plays one game between freshly loaded agents (a worker's whole job).

    Raises:
        AgentError: an agent crashed or chose an illegal action (names it and the position).
    """
    game = load(task.game, **task.params)
    agents = [
        load_agent(spec, game, seed=task.seed * 101 + seat) for seat, spec in enumerate(task.seats)
    ]
    return play_between(task, game, agents)


def play_between(task: GameTask, game: Game, agents: Sequence[Any]) -> GameResult:
    """Plays ``task``'s game between ``agents``, one a seat: anything with ``choose(state)``
    and ``close()`` (closed at the end). A move's time is the agent's own ``last_thought``
    where it keeps one (an agent in another process, whose answer also carries the time spent
    sending it the game), else the time its ``choose`` took.

    Raises:
        AgentError: an agent crashed or chose an illegal action (names it and the position).
    """
    try:
        dice = random.Random(task.seed)
        opening = random.Random(f"opening {task.seed}")  # its own stream: dice stay as without
        state = game.new_initial_state()
        move_times: dict[str, list[float]] = {}
        start = time.perf_counter()
        plies = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(chance_sample(state, dice))
                continue
            if plies < task.opening:
                state.apply_action(opening.choice(state.legal_actions()))
                plies += 1
                continue
            spec = task.seats[player]
            began = time.perf_counter()
            try:
                action = agents[player].choose(state)
                state.apply_action(action)
            except IllegalActionError as exc:
                raise AgentError(
                    f"agent {spec!r} (seat {player}) chose an illegal action in game {task.index}: "
                    f"{exc}"
                ) from None
            except CathedralError:
                raise
            except Exception as exc:  # a crash inside an agent: say which and where
                raise AgentError(
                    f"agent {spec!r} (seat {player}) crashed in game {task.index} after "
                    f"{plies} moves: {type(exc).__name__}: {exc}"
                ) from exc
            thought = getattr(agents[player], "last_thought", None)
            move_times.setdefault(spec, []).append(
                time.perf_counter() - began if thought is None else thought)
            plies += 1
    finally:
        for agent in agents:
            agent.close()  # processes of searches that use every core
    meta = {"seed": task.seed, "arena_game": task.index}
    if task.opening:
        meta["opening"] = task.opening
    record = Record.from_state(state, players=list(task.seats), meta=meta)
    return GameResult(
        index=task.index,
        pairing=task.pairing,
        seats=list(task.seats),
        seed=task.seed,
        returns=list(state.returns()),
        scores=list(state.scores()),
        plies=plies,
        seconds=time.perf_counter() - start,
        move_times=move_times,
        record=record.to_dict(),
    )


# ----- scheduling ------------------------------------------------------------------------------


def schedule(
    game_name: str,
    params: dict[str, Any],
    agents: Sequence[str],
    games: int,
    *,
    num_players: int,
    seed: int = 0,
    all_pairs: bool = False,
    adjacent: bool = False,
    opening: int = 0,
    first_game: int = 0,
) -> tuple[list[tuple[str, str]], list[GameTask]]:
    """Returns the pairings (first agent, second agent) and every game to play.

    Two seats: every pair (``adjacent``: each agent and the next), ``games`` games each, seats
    swapped within each pair of games (games 2k and 2k+1 share a seed, so also their
    ``opening`` random moves). More seats: the first agent (or, with ``all_pairs``, each agent;
    with ``adjacent``, each agent after the first, against the one before it) alone against a
    table of another; its seat cycles through every seat.

    ``first_game`` skips each pairing's games before it: a match topped up later plays games
    ``first_game`` to ``games`` of the same schedule, so their seeds differ from those played.
    """
    if len(agents) < 2:
        raise CathedralError("the arena needs at least two agents")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1 or games % num_players:
        raise CathedralError(
            f"--games {games}: expected a positive multiple of {num_players} (each agent "
            f"takes every seat equally often, so {num_players} games is the smallest match)"
        )
    if (isinstance(first_game, bool) or not isinstance(first_game, int)
            or not 0 <= first_game < games or first_game % num_players):
        raise CathedralError(
            f"first game {first_game}: expected a multiple of {num_players} below {games}"
        )
    if isinstance(opening, bool) or not isinstance(opening, int) or opening < 0:
        raise CathedralError(f"--opening {opening}: expected a number of moves, 0 or more")
    if adjacent and num_players == 2:
        pairings = list(pairwise(agents))
    elif adjacent:
        # Each agent alone against a table of the one listed before it: the test a stronger
        # level must pass, and far cheaper than a weak player alone among strong ones.
        pairings = [(b, a) for a, b in pairwise(agents)]
    elif num_players == 2:
        pairings = list(combinations(agents, 2))
    else:
        heads = agents if all_pairs else agents[:1]
        pairings = [(a, b) for a in heads for b in agents if a != b]
    tasks = []
    for p, (first, second) in enumerate(pairings):
        for g in range(first_game, games):
            if num_players == 2:
                seats = [first, second] if g % 2 == 0 else [second, first]
                game_seed = seed * 1_000_003 + p * 10_007 + g // 2
            else:
                seats = [second] * num_players
                seats[g % num_players] = first
                game_seed = seed * 1_000_003 + p * 10_007 + g // num_players
            tasks.append(
                GameTask(len(tasks), p, game_name, dict(params), seats, game_seed, opening)
            )
    return pairings, tasks


def comparisons(result: GameResult, first: str, second: str) -> list[tuple[str, str, float]]:
    """Returns a game's comparisons ``(first, second, score of first)``: the game's outcome
    with two seats; with more, one per seat of ``first`` and seat of ``second``, by place
    (a higher return is a win, an equal one a draw)."""
    seats, returns = result.seats, result.returns
    if len(seats) == 2:
        return [(first, second, outcome(result, first))]
    found = []
    for i, a in enumerate(seats):
        if a != first:
            continue
        for j, b in enumerate(seats):
            if b == second and j != i:
                mine, theirs = returns[i], returns[j]
                score = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                found.append((first, second, score))
    return found


def outcome(result: GameResult, first: str) -> float:
    """Returns the first agent's score in a game: 1 best alone, 0.5 tied best, else 0.

    With two seats where both are the same agent, the first listed seat counts.
    """
    seats = result.seats
    mine = [i for i, s in enumerate(seats) if s == first]
    if len(set(seats)) == 1:
        mine = [0]
    me = mine[0]
    best = max(result.returns)
    if result.returns[me] < best:
        return 0.0
    tied = sum(1 for r in result.returns if r == best)
    return 1.0 if tied == 1 else 0.5


# ----- progress --------------------------------------------------------------------------------


class Progress:
    """A progress bar on stderr: rich's when installed and stderr is a terminal, else lines."""

    def __init__(self, total: int, description: str, *, quiet: bool = False) -> None:
        self.total = total
        self.done = 0
        self.quiet = quiet
        self.description = description
        self._rich = None
        self._last = 0.0
        self._start = time.perf_counter()
        if quiet:
            return
        try:
            if not sys.stderr.isatty():
                raise ImportError
            from rich.progress import Progress as RichProgress

            self._rich = RichProgress(transient=False)
            self._rich.start()
            self._task = self._rich.add_task(description, total=total)
        except ImportError:
            self._rich = None

    def advance(self, text: str = "") -> None:
        self.done += 1
        if self.quiet:
            return
        if self._rich is not None:
            self._rich.update(self._task, advance=1, description=f"{self.description} {text}")
            return
        now = time.perf_counter()
        if now - self._last < 2.0 and self.done < self.total:
            return
        self._last = now
        elapsed = now - self._start
        eta = elapsed / self.done * (self.total - self.done)
        bar = "#" * (20 * self.done // self.total)
        line = f"{self.description} [{bar:<20}] {self.done}/{self.total} {text} eta {eta:.0f}s"
        if sys.stderr.isatty():
            print("\r" + line, end="", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._rich is not None:
            self._rich.stop()
        elif not self.quiet and sys.stderr.isatty():
            print(file=sys.stderr)


# ----- a whole run -----------------------------------------------------------------------------


def run_arena(
    game_name: str,
    agents: Sequence[str],
    *,
    games: int = 20,
    jobs: int = 1,
    params: dict[str, Any] | None = None,
    seed: int = 0,
    all_pairs: bool = False,
    adjacent: bool = False,
    opening: int = 0,
    first_game: int = 0,
    quiet: bool = True,
    play: Callable[[GameTask], GameResult] = play_game,
    ray: str | None = None,
) -> dict[str, Any]:
    """Plays every pairing and returns the report (see ``summarise``).

    ``play`` plays one game (tests pass a stub); ``jobs`` > 1 runs games in that many
    processes. ``ray`` (``""`` for a local instance of ``jobs`` CPUs, or a cluster's address)
    runs them as Ray tasks instead (see ``played_on_ray``). ``first_game``: see ``schedule``.
    """
    params = dict(params or {})
    game = load(game_name, **params)
    for spec in agents:  # fail fast on a bad name, before any process starts
        load_agent(spec, game, seed=0)
    pairings, tasks = schedule(
        game_name, game.params, agents, games, num_players=game.num_players, seed=seed,
        all_pairs=all_pairs, adjacent=adjacent, opening=opening, first_game=first_game,
    )
    progress = Progress(len(tasks), f"{game_name}", quiet=quiet)
    results: list[GameResult] = []
    start = time.perf_counter()
    try:
        for result in _played(tasks, play, jobs, ray):
            results.append(result)
            progress.advance(_running_score(results, pairings))
    finally:
        progress.close()
    results.sort(key=lambda r: r.index)
    where = {} if ray is None else {"ray": ray or "local"}
    if opening:
        where["opening"] = opening
    return summarise(
        game_name, game.params, list(agents), pairings, results,
        games_per_pairing=games - first_game,
        seed=seed, jobs=jobs, **where, seconds=time.perf_counter() - start,
    )


def _played(
    tasks: list[GameTask], play: Callable[[GameTask], GameResult], jobs: int, ray: str | None
) -> Iterator[GameResult]:
    """Yields every game's result as it finishes: the executors, and all that differs."""
    if ray is not None:
        yield from played_on_ray(tasks, play, address=ray, cpus=max(1, jobs))
    elif jobs <= 1:
        for task in tasks:
            yield play(task)
    else:
        # An executor's workers, unlike a Pool's, may start processes of their own (the
        # searches that use every core).
        context = multiprocessing.get_context("spawn" if sys.platform == "win32" else None)
        pool = ProcessPoolExecutor(jobs, mp_context=context)
        try:
            for future in as_completed([pool.submit(play, task) for task in tasks]):
                yield future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


# ----- Ray -------------------------------------------------------------------------------------


def played_on_ray(
    tasks: list[GameTask],
    play: Callable[[GameTask], GameResult],
    *,
    address: str = "",
    cpus: int = 1,
) -> Iterator[GameResult]:
    """Yields the results of ``tasks`` played as Ray tasks, one CPU each, as they finish.

    Without ``address``, uses the Ray already initialised in this process if there is one (and
    leaves it running), else starts a local instance of ``cpus`` CPUs; with one, connects to
    the cluster there (``host:port`` of its head, ``auto`` or ``ray://...``). What it started
    or joined, it shuts down or leaves at the end. Every node needs ``cathedral`` installed.
    A game whose worker dies is retried by Ray from its seed, so its result is the same.

    Raises:
        CathedralError: Ray is not installed, nothing answers at ``address``, or this process
            is already attached to a Ray and ``address`` names another.
        AgentError: as ``play_game``, from the worker (unwrapped, as the process pool does).
    """
    try:
        import ray
    except ImportError:
        raise CathedralError(
            "--ray needs Ray: pip install 'cathedral[cluster]' (or 'ray>=2.9')"
        ) from None
    from ray.exceptions import RayTaskError

    started = not ray.is_initialized()
    if started:
        _ray_init(ray, address, cpus)
    elif address:
        raise CathedralError(
            f"--ray {address}: this process already uses a Ray instance; give no address"
        )
    pending = []
    try:
        remote = ray.remote(num_cpus=1)(play)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                yield ray.get(done[0])
            except RayTaskError as exc:  # the game's own error, not Ray's wrapping of it
                if isinstance(exc.cause, (CathedralError, AgentError)):
                    raise exc.cause from None
                raise
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()


def _ray_init(ray: Any, address: str, cpus: int) -> None:
    """Starts a quiet local Ray instance, or connects to ``address`` after checking it answers."""
    import logging
    import os

    # Ray would phone home with usage statistics from a local instance unless told not to.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    if not address:
        # "local": a new instance, never one that `ray start` left running here ("auto" joins it).
        ray.init(address="local", num_cpus=cpus, **quiet)
        return
    host, sep, port = address.rpartition(":")
    if sep and "://" not in address:
        # ray.init retries an address where nothing listens for minutes; fail at once instead.
        import socket

        if not port.isdigit():
            raise CathedralError(f"--ray {address!r}: expected HOST:PORT of a Ray head")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
        except OSError as exc:
            raise CathedralError(
                f"--ray {address}: no Ray cluster answers there ({exc.strerror or exc}); "
                "start one with `ray start --head`, or give no address for a local instance"
            ) from None
    try:
        ray.init(address=address, **quiet)
    except (ConnectionError, ValueError, RuntimeError, ray.exceptions.RayError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        # A refused token reads as a plain connection failure, so say what it needs.
        refused = getattr(ray.exceptions, "AuthenticationError", ())  # Ray 2.52 and later
        hint = ""
        if "Failed to connect" in first or isinstance(exc, refused):
            hint = (" (with token authentication, set RAY_AUTH_MODE=token and give this machine"
                    " the cluster's token)")
        raise CathedralError(
            f"--ray {address}: cannot join the Ray cluster: {first}{hint}"
        ) from None


def _running_score(results: list[GameResult], pairings: list[tuple[str, str]]) -> str:
    last = results[-1].pairing
    first = pairings[last][0]
    mine = [outcome(r, first) for r in results if r.pairing == last]
    return f"{first} vs {pairings[last][1]}: {sum(mine):g}/{len(mine)}"


def summarise(
    game_name: str,
    params: dict[str, Any],
    agents: list[str],
    pairings: list[tuple[str, str]],
    results: list[GameResult],
    *,
    bootstrap: int = 200,
    **meta: Any,
) -> dict[str, Any]:
    """Returns the report: per-pairing results with intervals, Elo with 95% intervals (each
    agent's, and each agent's difference from the one listed before it: ``elo_steps``, the
    ladder when agents are listed weakest first), timings and every game.

    Elo is fitted to every game's comparisons (``cathedral.ai.ratings``: with more than two
    seats, one per pair of seats of different agents, by place); its intervals come from
    ``bootstrap`` resamplings of the games.
    """
    rows = []
    per_game: list[list[tuple[str, str, float]]] = []  # each game's comparisons
    strata: list[int] = []  # each game's pairing
    for p, (first, second) in enumerate(pairings):
        mine = [r for r in results if r.pairing == p]
        scores = [outcome(r, first) for r in mine]
        wins = sum(1 for s in scores if s == 1.0)
        draws = sum(1 for s in scores if s == 0.5)
        losses = len(scores) - wins - draws
        n = len(scores)
        by_seat: dict[int, list[float]] = {}
        for r, s in zip(mine, scores):
            by_seat.setdefault(r.seats.index(first), []).append(s)
        rows.append({
            "agents": [first, second],
            "games": n,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "win_rate": wins / n if n else 0.0,
            "win_interval": list(wilson_interval(wins, n)),
            "score": (wins + draws / 2) / n if n else 0.0,
            "score_interval": list(wilson_interval(wins + draws / 2, n)),
            "score_by_seat": {str(k): sum(v) / len(v) for k, v in sorted(by_seat.items())},
        })
        for r in mine:
            per_game.append(comparisons(r, first, second))
            strata.append(p)
    names = list(dict.fromkeys(agents))  # an agent may be listed twice (self-play)
    elo = bradley_terry_elo((c for game in per_game for c in game), names)
    fits = bootstrap_elo(per_game, names, strata, samples=bootstrap)
    timing: dict[str, dict[str, float]] = {}
    for spec in agents:
        times = [t for r in results for t in r.move_times.get(spec, [])]
        if times:
            timing[spec] = {
                "moves": len(times),
                "mean_seconds": sum(times) / len(times),
                "max_seconds": max(times),
            }
    return {
        "game": game_name,
        "params": params,
        "agents": agents,
        **meta,
        "pairings": rows,
        "elo": elo,
        "elo_interval": {
            name: list(percentile_interval(fits[:, k])) for k, name in enumerate(names)
        },
        "elo_steps": ladder_steps(fits, names, elo),
        "timing": timing,
        "games": [
            {
                "index": r.index,
                "pairing": r.pairing,
                "seats": r.seats,
                "seed": r.seed,
                "outcome_for_first": outcome(r, pairings[r.pairing][0]),
                "returns": r.returns,
                "scores": r.scores,
                "plies": r.plies,
                "seconds": r.seconds,
                "record": r.record,
            }
            for r in results
        ],
    }


def _report_paths(path: str) -> list[str]:
    base = path[:-5] if path.endswith(".json") else path
    return [base + ".json", base + ".csv"]


def write_report(report: dict[str, Any], path: str) -> list[str]:
    """Writes the JSON report at ``path`` and a CSV of games beside it; returns both paths."""
    json_path, csv_path = _report_paths(path)
    with open(json_path, "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=1)
        handle.write("\n")
    with open(csv_path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["index", "pairing", "first", "second", "seats", "seed",
                         "outcome_for_first", "returns", "scores", "plies", "seconds"])
        for g in report["games"]:
            first, second = report["pairings"][g["pairing"]]["agents"]
            writer.writerow([
                g["index"], g["pairing"], first, second, " ".join(g["seats"]), g["seed"],
                g["outcome_for_first"], " ".join(f"{v:g}" for v in g["returns"]),
                " ".join(f"{v:g}" for v in g["scores"]), g["plies"], f"{g['seconds']:.3f}",
            ])
    return [json_path, csv_path]


def format_report(report: dict[str, Any]) -> str:
    """Returns the report's tables for people."""
    lines = [f"{report['game']} {report['params']}"]
    for row in report["pairings"]:
        low, high = row["win_interval"]
        lines.append(
            f"  {row['agents'][0]} vs {row['agents'][1]}: {row['wins']}-{row['draws']}-"
            f"{row['losses']} (W-D-L) in {row['games']} games, wins {row['win_rate']:.1%} "
            f"[{low:.1%}, {high:.1%}], score {row['score']:.1%}"
        )
    intervals = report.get("elo_interval", {})

    def rated(name: str, elo: float) -> str:
        low, high = intervals.get(name, (None, None))
        return f"{name} {elo:+.0f}" + (f" [{low:+.0f}, {high:+.0f}]" if low is not None else "")

    lines.append("  Elo (Bradley-Terry, mean 0, 95% intervals): " + ", ".join(
        rated(name, elo) for name, elo in sorted(report["elo"].items(), key=lambda x: -x[1])
    ))
    for step in report.get("elo_steps", []):
        upper, lower = step["agents"]
        low, high = step["interval"]
        lines.append(
            f"  {upper} over {lower}: {step['difference']:+.0f} Elo [{low:+.0f}, {high:+.0f}]"
        )
    for name, t in report["timing"].items():
        lines.append(
            f"  {name}: {t['moves']} moves, {t['mean_seconds']:.3f} s mean, "
            f"{t['max_seconds']:.3f} s max per move"
        )
    return "\n".join(lines)


# ----- the command line ------------------------------------------------------------------------


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number of processes, 1 or more")
    return value


def _writable(path: str) -> str | None:
    """Says why the report cannot be written at ``path`` (its folder is made), or None:
    asked before the games, which may take hours, are played."""
    targets = _report_paths(path)
    folder = os.path.dirname(os.path.abspath(targets[0]))  # the CSV goes beside the JSON
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        return f"cannot make the folder {folder!r}: {exc.strerror or exc}"
    for target in targets:
        if os.path.isdir(target):
            return f"{target!r} is a folder"
        if not os.access(target if os.path.exists(target) else folder, os.W_OK):
            return f"{target!r} cannot be written"
    return None


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game (classic, allmer, red)")
    parser.add_argument("agents", nargs="+", metavar="AGENT",
                        help="levels, agent names or specs such as mcts:seconds=2")
    parser.add_argument("--games", type=int, default=20,
                        help="games per pairing (even: colours are swapped in pairs)")
    parser.add_argument("--jobs", type=_jobs, default=1, help="worker processes")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a game parameter (repeatable)")
    parser.add_argument("--report", metavar="PATH",
                        help="write the JSON report here and a CSV of games beside it (a "
                        "folder: arena_<game>_<games>.json in it)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of every game and agent")
    parser.add_argument("--all-pairs", action="store_true",
                        help="with more than two seats, rate every agent against every field")
    parser.add_argument("--adjacent", action="store_true",
                        help="play only each agent and the next (a ladder, weakest first)")
    parser.add_argument("--opening", type=int, default=0, metavar="K",
                        help="start every game with K random moves, the same for both colours")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                        help="play the games as Ray tasks: on a local Ray instance of --jobs "
                        "CPUs, or on the cluster whose head is at ADDRESS (HOST:PORT)")
    parser.set_defaults(run=run_command)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``arena`` subcommand to a CLI's argparse subparsers."""
    parser = subparsers.add_parser(
        "arena", help="play matches between computer players and rate them",
        description="Plays every pairing of the agents (levels, agent names or specs such as "
        "mcts:seconds=2) with colours swapped in pairs, in parallel processes, and reports "
        "win/draw/loss with 95% intervals, Bradley-Terry Elo and every game's record.",
    )
    _configure(parser)
    return parser


def _params(items: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise CathedralError(f"--param {item!r} is not NAME=VALUE")
        params[key.strip()] = value.strip()
    return params


def _report_target(path: str, game: str, games: int) -> str:
    """Returns where ``--report PATH`` goes: PATH, or inside it when it names a folder (one
    that exists, or any path ending in a separator) a file named after the run."""
    if os.path.isdir(path) or path.endswith(("/", os.sep)):
        return os.path.join(path, f"arena_{game}_{games}.json")
    return path


def run_command(args: argparse.Namespace) -> int:
    """Runs ``arena`` from parsed arguments; returns the exit status."""
    if args.report:
        args.report = _report_target(args.report, args.game, args.games)
    problem = _writable(args.report) if args.report else None
    if problem:
        print(f"cathedral arena: error: --report {args.report}: {problem}", file=sys.stderr)
        return 2
    try:
        report = run_arena(
            args.game, args.agents, games=args.games, jobs=args.jobs,
            params=_params(args.param), seed=args.seed, all_pairs=args.all_pairs,
            adjacent=args.adjacent, opening=args.opening, quiet=args.quiet, ray=args.ray,
        )
    except CathedralError as exc:
        print(f"cathedral arena: error: {exc}", file=sys.stderr)
        return 2
    except AgentError as exc:  # a computer player broke: say which and where, no traceback
        print(f"cathedral arena: {exc}", file=sys.stderr)
        return 1
    print(format_report(report))
    if args.report:
        try:
            written = write_report(report, args.report)
        except OSError as exc:  # the games are not lost: they go to a temporary file
            handle, fallback = tempfile.mkstemp(prefix="arena-", suffix=".json")
            os.close(handle)
            written = write_report(report, fallback)
            print(f"cathedral arena: error: cannot write {args.report} ({exc.strerror or exc}); "
                  f"the report is at {written[0]} instead", file=sys.stderr)
            return 1
        for path in written:
            print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cathedral arena", description=__doc__)
    _configure(parser)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
