"""Load on a real ``cathedral serve``: simulated people playing over WebSockets on loopback.

Not a test: it starts a server (on a SQLite file, or on a throwaway PostgreSQL cluster with
its default, durable settings), then keeps ``--games`` tables of classic Cathedral between two
simulated people going for ``--seconds``: each person has its own socket, answers 0.5-2 s
after its turn comes (``--think``), and sends a random legal move chosen from the view's own
state over the socket. When a game ends its table starts a new one. Measured: moves applied
per second and the round trip of a move (sent on the socket -> the view that shows it
received on that same socket), p50/p99/max. Checked: every game's record holds exactly the
moves its people sent, in order (nothing lost or doubled), and no move was refused. Then the
same with no think time (``--flat-out-games`` tables) for the most moves per second.

Usage::

    python benchmarks/load_server.py [--db sqlite postgresql] [--games 200] [--seconds 60]
        [--think 0.5 2.0] [--flat-out-games 20] [--flat-out-seconds 20] [--profile DIR]

Client and server share the machine: the client's own CPU use is printed too. ``--profile``
records the server with py-spy (if installed) into DIR, raw stacks per run; ``--keep``
keeps the server's log.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

import cathedral

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server" / "blackbox"))

from services import Postgres, Server, sqlite_url  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "server" / "site"))
from redis_service import RedisServer  # noqa: E402

GAME = cathedral.load("classic")


@dataclass
class Stats:
    """What the simulated people saw, over one run."""

    round_trips: list[float] = field(default_factory=list)  # seconds
    creates: list[float] = field(default_factory=list)  # seconds per POST /api/games
    moves: int = 0
    games_finished: int = 0
    refused: list[str] = field(default_factory=list)
    mismatched: list[str] = field(default_factory=list)  # game ids whose record differs
    failures: list[str] = field(default_factory=list)


@dataclass
class Run:
    games: int
    seconds: float
    think: tuple[float, float]
    stats: Stats = field(default_factory=Stats)
    seated: int = 0
    deadline: float = float("inf")
    go: asyncio.Event = field(default_factory=asyncio.Event)


async def person(
    socket: ClientConnection, token: str, player: int, sent: dict[int, str],
    run: Run, rng: random.Random,
) -> bool:
    """One simulated person at one table: waits for its turn, thinks, moves on its socket,
    and times each move until its own socket shows the view with it. True if the game
    ended."""
    stats = run.stats
    deadline = run.deadline
    pending: tuple[int, float] | None = None
    while True:
        # Past the deadline a person waiting for the other's move stops when none comes.
        patience = 120.0 if pending is not None else max(0.0, deadline - time.monotonic()) + 5
        try:
            message = json.loads(await asyncio.wait_for(socket.recv(), patience))
        except TimeoutError:
            if pending is None and time.monotonic() > deadline:
                return False
            raise
        if message.get("type") == "error":
            stats.refused.append(str(message))
            return False
        if message.get("type") != "view":
            continue
        view = message["view"]
        if pending is not None and view["ply"] > pending[0]:
            stats.round_trips.append(time.perf_counter() - pending[1])
            stats.moves += 1
            pending = None
        if view["status"] == "finished":
            return True
        if pending is None and time.monotonic() > deadline:
            return False  # the run is over: leave the game unfinished, no move of ours in flight
        if view["current_player"] != player or pending is not None:
            continue
        low, high = run.think
        if high > 0:
            await asyncio.sleep(rng.uniform(low, high))
        state = GAME.state_from_json(view["state"])
        action = rng.choice(state.legal_actions())
        ply = view["ply"]
        sent[ply] = state.action_to_string(action)
        pending = (ply, time.perf_counter())
        await socket.send(json.dumps(
            {"type": "move", "token": token, "ply": ply, "action": action}))


async def with_retry(send: Callable[[], Awaitable[httpx.Response]]) -> httpx.Response:
    """Sends again once if a pooled keep-alive connection was closed by the server just as
    it was reused (a race of HTTP/1.1 keep-alive, not a refusal)."""
    try:
        return await send()
    except httpx.TransportError:
        return await send()


async def create(http: httpx.AsyncClient, run: Run) -> tuple[str, list[str]] | None:
    started = time.perf_counter()
    answer = await with_retry(lambda: http.post(
        "/api/games", json={"game": "classic", "params": {}, "seats": ["human", "human"]}))
    run.stats.creates.append(time.perf_counter() - started)
    if answer.status_code != 201:
        run.stats.failures.append(f"create: {answer.status_code} {answer.text[:200]}")
        return None
    body = answer.json()
    return body["id"], [seat["token"] for seat in body["seats"]]


def ready(run: Run) -> None:
    """One more table is seated; the clock starts when the last one is."""
    run.seated += 1
    if run.seated == run.games:
        run.deadline = time.monotonic() + run.seconds
        run.go.set()


async def table(
    http: httpx.AsyncClient, ws_urls: list[str], run: Run, seed: int,
    checks: list[tuple[str, dict[int, str]]],
) -> None:
    """One table: game after game until the deadline. Its first game is created and both
    sockets opened before the clock starts, so the figures are for play, not for 200 tables
    arriving at once (creation has its own columns)."""
    rng = random.Random(seed)
    first = True
    while first or time.monotonic() < run.deadline:
        created = await create(http, run)
        if created is None:
            if first:
                ready(run)
            return
        game_id, tokens = created
        sent: dict[int, str] = {}
        checks.append((game_id, sent))
        # With two servers, light plays on the first and dark on the second: every move
        # crosses processes (through the database and Redis).
        light_url, dark_url = (f"{url}/ws/games/{game_id}" for url in (ws_urls[0], ws_urls[-1]))
        try:
            async with connect(light_url, max_queue=None) as light, \
                    connect(dark_url, max_queue=None) as dark:
                if first:
                    first = False
                    ready(run)
                    await run.go.wait()
                ended = await asyncio.gather(
                    person(light, tokens[0], 0, sent, run, rng),
                    person(dark, tokens[1], 1, sent, run, rng),
                )
        except Exception as exc:  # counted, and the table goes on
            if first:
                first = False
                ready(run)
            run.stats.failures.append(f"{game_id}: {exc!r}")
            continue
        run.stats.games_finished += all(ended)


async def verify(http: httpx.AsyncClient, checks: list[tuple[str, dict[int, str]]],
                 stats: Stats) -> None:
    """Every record holds exactly the moves sent, in order: nothing lost, nothing doubled."""
    limit = asyncio.Semaphore(20)

    async def one(game_id: str, sent: dict[int, str]) -> None:
        async with limit:
            answer = await with_retry(lambda: http.get(f"/api/games/{game_id}/record"))
        actions = json.loads(answer.text)["actions"]
        expected = [sent[ply] for ply in sorted(sent)]
        # A move sent at the very end may be applied after the client stopped listening; it
        # is still the one sent, at its ply.
        if actions != expected or sorted(sent) != list(range(len(sent))):
            stats.mismatched.append(game_id)

    await asyncio.gather(*(one(g, s) for g, s in checks))


async def drive(servers: list[Server], run: Run) -> None:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=60.0, limits=limits) as http:
        checks: list[tuple[str, dict[int, str]]] = []
        ws_urls = [server.ws_url for server in servers]
        await asyncio.gather(*(
            table(http, ws_urls, run, seed, checks) for seed in range(run.games)
        ))
        await asyncio.sleep(0.5)  # moves in flight at the deadline land
        await verify(http, checks, run.stats)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), 0 where unreadable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(servers: list[Server], run: Run, profile: Path | None, label: str) -> dict:
    server = servers[0]
    spy = None
    if profile is not None and shutil.which("py-spy"):
        profile.mkdir(parents=True, exist_ok=True)
        spy = subprocess.Popen(
            ["py-spy", "record", "--pid", str(server.proc.pid), "--subprocesses",
             "--format", "raw", "--output", str(profile / f"{label.replace(' ', '-')}.txt"),
             "--duration", str(int(run.seconds))],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    cpu = time.process_time()
    server_cpu = sum(cpu_seconds(s.proc.pid) for s in servers)
    wall = time.perf_counter()
    asyncio.run(drive(servers, run))
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    server_cpu = sum(cpu_seconds(s.proc.pid) for s in servers) - server_cpu
    if spy is not None:
        spy.wait(timeout=run.seconds + 60)
    stats = run.stats
    ms = [t * 1000 for t in stats.round_trips]
    return {
        "label": label,
        "games": run.games,
        "think": "none" if run.think[1] == 0 else f"{run.think[0]}-{run.think[1]} s",
        "seconds": run.seconds,
        "moves": stats.moves,
        "moves_per_s": stats.moves / run.seconds,
        "p50_ms": percentile(ms, 0.50),
        "p99_ms": percentile(ms, 0.99),
        "max_ms": max(ms) if ms else float("nan"),
        "create_p50_ms": percentile([t * 1000 for t in stats.creates], 0.5),
        "create_p99_ms": percentile([t * 1000 for t in stats.creates], 0.99),
        "games_finished": stats.games_finished,
        "refused": len(stats.refused),
        "lost_or_doubled": len(stats.mismatched),
        "failures": len(stats.failures),
        "client_cpu": cpu / wall,
        "server_cpu": server_cpu / wall,
        "server_cpu_ms_per_move": 1000 * server_cpu / max(1, stats.moves),
        "load": os.getloadavg()[0],
        "notes": (stats.refused + stats.failures + stats.mismatched)[:3],
    }


COLUMNS = [
    ("label", "run", "{}"), ("games", "tables", "{}"), ("think", "think", "{}"),
    ("moves", "moves", "{:,}"), ("moves_per_s", "moves/s", "{:,.1f}"),
    ("p50_ms", "p50 ms", "{:.1f}"), ("p99_ms", "p99 ms", "{:.1f}"), ("max_ms", "max ms", "{:.0f}"),
    ("create_p50_ms", "create p50 ms", "{:.0f}"), ("create_p99_ms", "create p99 ms", "{:.0f}"),
    ("games_finished", "games ended", "{:,}"), ("refused", "refused", "{}"),
    ("lost_or_doubled", "lost/doubled games", "{}"), ("client_cpu", "client CPU", "{:.0%}"),
    ("server_cpu", "server CPU", "{:.0%}"), ("server_cpu_ms_per_move", "server CPU ms/move",
                                             "{:.1f}"),
    ("load", "load avg", "{:.1f}"),
]


def print_table(rows: list[dict]) -> None:
    header = "| " + " | ".join(title for _, title, _ in COLUMNS) + " |"
    print(header)
    print("|" + "---|" * len(COLUMNS))
    for row in rows:
        print("| " + " | ".join(fmt.format(row[key]) for key, _, fmt in COLUMNS) + " |")
    for row in rows:
        for note in row["notes"]:
            print(f"  {row['label']}: {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", nargs="+", default=["sqlite", "postgresql"],
                        choices=["sqlite", "postgresql"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0))
    parser.add_argument("--flat-out-games", type=int, default=20)
    parser.add_argument("--flat-out-seconds", type=float, default=20.0)
    parser.add_argument("--serve-arg", action="append", default=[],
                        help="an extra `cathedral serve` argument (repeatable)")
    parser.add_argument("--profile", type=Path, help="py-spy raw stacks of the server here")
    parser.add_argument("--servers", type=int, choices=(1, 2), default=1,
                        help="2: two server processes on one PostgreSQL database and a "
                        "redis-server (--redis), each table's players on different ones")
    parser.add_argument("--keep", action="store_true",
                        help="keep the server's folder (its log, the SQLite file) afterwards")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}")
    rows = []
    for kind in args.db:
        if args.servers == 2 and kind != "postgresql":
            print(f"# {kind}: skipped, two servers share a PostgreSQL database only")
            continue
        work = Path(tempfile.mkdtemp(prefix=f"cathedral-load-{kind}-"))
        postgres = Postgres(durable=True).start() if kind == "postgresql" else None
        redis = RedisServer().start() if args.servers == 2 else None
        servers: list[Server] = []
        try:
            url = postgres.new_database() if postgres else sqlite_url(work / "games.db")
            site = ["--redis", redis.url] if redis else []
            # No computer seats here: one AI worker process is enough.
            for n in range(args.servers):
                servers.append(Server(url, work / f"server-{n}",
                                      extra=["--workers", "1", *site, *args.serve_arg]).start())
            label = kind if args.servers == 1 else f"{kind} 2 servers"
            paced = Run(args.games, args.seconds, tuple(args.think))
            rows.append(measure(servers, paced, args.profile, f"{label} paced"))
            flat = Run(args.flat_out_games, args.flat_out_seconds, (0.0, 0.0))
            rows.append(measure(servers, flat, args.profile, f"{label} flat out"))
        finally:
            for server in servers:
                server.stop()
            if redis:
                redis.stop()
            if postgres:
                postgres.stop()
            if args.keep:
                print(f"# {kind}: server log and data kept in {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
    print_table(rows)


if __name__ == "__main__":
    main()
