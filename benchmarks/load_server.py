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

``--attack`` compares the paced run quiet and under attack on one server with its rate
limits on (each table's people on a loopback address of their own, 127.0.1.x and up, so that
only the attacker meets the limits): during the second run one address, 127.0.0.66, keeps
creating tables of ``max`` against ``max``, asking ``hard`` analyses, uploading long records,
asking pictures of far plies, sending JSON nested 10,000 deep and holding 100 half-open
requests. ``--burst N`` times N games created at once by N new visitors, each from opening its
connection to the answer (a raw HTTP client, so that the figure is the server's and not the
client's).

Usage::

    python benchmarks/load_server.py [--db sqlite postgresql] [--games 200] [--seconds 60]
        [--think 0.5 2.0] [--flat-out-games 20] [--flat-out-seconds 20] [--profile DIR]
        [--attack] [--burst 200 [--burst-rounds 5]] [--reads 2000] [--servers 2]

Client and server share the machine: the client's own CPU use is printed too. ``--profile``
records the server with py-spy (if installed) into DIR, raw stacks per run; ``--keep``
keeps the server's log.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
    attacks: dict[str, int] = field(default_factory=dict)  # the attacker's answers by status
    mismatched: list[str] = field(default_factory=list)  # game ids whose record differs
    failures: list[str] = field(default_factory=list)


@dataclass
class Run:
    games: int
    seconds: float
    think: tuple[float, float]
    spread: bool = False  # each table's people on a loopback address of their own
    attack: bool = False
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
            if pending is not None:
                sent.pop(pending[0], None)  # refused, so not in the record
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


def address(seed: int) -> str:
    """A loopback address of a table's own (Linux routes all of 127/8 to the loopback)."""
    return f"127.0.{1 + seed // 250}.{1 + seed % 250}"


async def table(
    http: httpx.AsyncClient, ws_urls: list[str], run: Run, seed: int,
    checks: list[tuple[str, dict[int, str], str]],
) -> None:
    """One table: game after game until the deadline. Its first game is created and both
    sockets opened before the clock starts, so the figures are for play, not for 200 tables
    arriving at once (creation has its own columns)."""
    rng = random.Random(seed)
    local: dict = {}
    if run.spread:
        local = {"local_addr": (address(seed), 0)}
        http = httpx.AsyncClient(base_url=str(http.base_url), timeout=60.0,
                                 transport=httpx.AsyncHTTPTransport(local_address=address(seed)))
    first = True
    while first or time.monotonic() < run.deadline:
        created = await create(http, run)
        if created is None:
            if first:
                ready(run)
            return
        game_id, tokens = created
        sent: dict[int, str] = {}
        checks.append((game_id, sent, address(seed) if run.spread else ""))
        # With two servers, light plays on the first and dark on the second: every move
        # crosses processes (through the database and Redis).
        light_url, dark_url = (f"{url}/ws/games/{game_id}" for url in (ws_urls[0], ws_urls[-1]))
        try:
            async with connect(light_url, max_queue=None, **local) as light, \
                    connect(dark_url, max_queue=None, **local) as dark:
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


async def verify(http: httpx.AsyncClient, checks: list[tuple[str, dict[int, str], str]],
                 stats: Stats) -> None:
    """Every record holds exactly the moves sent, in order: nothing lost, nothing doubled.
    Each record is read from its table's own address, so that with the limits on no address
    reads more than its own games."""
    limit = asyncio.Semaphore(20)
    clients: dict[str, httpx.AsyncClient] = {}

    def client(local: str) -> httpx.AsyncClient:
        if not local:
            return http
        if local not in clients:
            clients[local] = httpx.AsyncClient(
                base_url=str(http.base_url), timeout=60.0,
                transport=httpx.AsyncHTTPTransport(local_address=local))
        return clients[local]

    async def one(game_id: str, sent: dict[int, str], local: str) -> None:
        async with limit:
            answer = await with_retry(
                lambda: client(local).get(f"/api/games/{game_id}/record"))
        if answer.status_code != 200:
            stats.failures.append(f"record {game_id}: {answer.status_code} {answer.text[:200]}")
            stats.mismatched.append(game_id)
            return
        actions = json.loads(answer.text)["actions"]
        expected = [sent[ply] for ply in sorted(sent)]
        # A move sent at the very end may be applied after the client stopped listening; it
        # is still the one sent, at its ply.
        if actions != expected or sorted(sent) != list(range(len(sent))):
            stats.mismatched.append(game_id)

    try:
        await asyncio.gather(*(one(*check) for check in checks))
    finally:
        for opened in clients.values():
            await opened.aclose()


async def drive(servers: list[Server], run: Run) -> None:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=60.0, limits=limits) as http:
        checks: list[tuple[str, dict[int, str], str]] = []
        ws_urls = [server.ws_url for server in servers]
        attacker = asyncio.ensure_future(attack(servers[0], run)) if run.attack else None
        try:
            await asyncio.gather(*(
                table(http, ws_urls, run, seed, checks) for seed in range(run.games)
            ))
        finally:
            if attacker is not None:
                attacker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await attacker
        await asyncio.sleep(0.5)  # moves in flight at the deadline land
        await verify(http, checks, run.stats)


ATTACKER = "127.0.0.66"


def long_record(seed: int) -> str:
    """A legal Allmer game of 2,000 turns (the longest the server's caps allow)."""
    game = cathedral.load("allmer", players=2, max_turns=2000, quiet_turns=0, repetition=0)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        rng.shuffle(actions)
        before = state.scores()
        for action in actions:
            after = state.clone()
            after.apply_action(action)
            if after.scores() == before:
                break
        state.apply_action(action)
    return cathedral.Record.from_state(state, players=["A", "B"]).to_json(indent=None)


async def attack(server: Server, run: Run) -> None:
    """One address doing every attack of tests/server/attack at once, until cancelled;
    counts its answers by status in ``run.stats.attacks``."""
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    counts = run.stats.attacks

    async def call(http, method, path, **options) -> httpx.Response | None:
        try:
            answer = await http.request(method, path, **options)
        except httpx.HTTPError as exc:
            counts[type(exc).__name__] = counts.get(type(exc).__name__, 0) + 1
            return None
        counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1
        if answer.status_code == 429:
            await asyncio.sleep(float(answer.headers.get("retry-after", 1)))
        return answer

    record = long_record(1)
    plies = len(json.loads(record)["actions"])
    finished = GAME.new_initial_state()
    rng = random.Random(7)
    while not finished.is_terminal():
        finished.apply_action(rng.choice(finished.legal_actions()))
    short = cathedral.Record.from_state(finished, players=["A", "B"]).to_json()
    async with httpx.AsyncClient(base_url=server.url, timeout=60.0, transport=transport) as http:
        uploaded = await call(http, "POST", "/api/records", content=short)
        games = [(await call(http, "POST", "/api/records", content=record)).json()["id"]]
        await run.go.wait()

        async def computers():
            while True:
                await call(http, "POST", "/api/games",
                           json={"game": "classic", "seats": ["max", "max"]})
                await asyncio.sleep(5)

        async def analyses():
            while True:
                ply = rng.randrange(1, 20)
                await call(http, "GET", f"/api/games/{uploaded.json()['id']}/hint"
                           f"?ply={ply}&level=hard")

        async def uploads():
            while True:
                answer = await call(http, "POST", "/api/records", content=record)
                if answer is not None and answer.status_code == 201:
                    games.append(answer.json()["id"])
                await asyncio.sleep(0.2)

        async def pictures():
            while True:
                await call(http, "GET", f"/api/games/{rng.choice(games)}/picture"
                           f"?ply={rng.randrange(plies)}")
                await asyncio.sleep(0.05)

        async def nested():
            body = '{"a":' * 10_000
            while True:
                await call(http, "POST", "/api/games", content=body,
                           headers={"Content-Type": "application/json"})
                await asyncio.sleep(0.05)

        async def half_open():
            while True:
                held = []
                for _ in range(100):
                    try:
                        _, writer = await asyncio.open_connection(
                            "127.0.0.1", server.port, local_addr=(ATTACKER, 0))
                        writer.write(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
                        held.append(writer)
                    except OSError:
                        counts["refused connection"] = counts.get("refused connection", 0) + 1
                await asyncio.sleep(2)
                for writer in held:
                    writer.close()

        await asyncio.gather(computers(), analyses(), uploads(), pictures(), nested(),
                             half_open())


async def burst(server: Server, n: int) -> list[float]:
    """Seconds each of ``n`` game creations took, all sent at once, each by a new visitor of
    its own address: from opening the connection until the answer is in."""
    body = json.dumps({"game": "classic", "seats": ["human", "human"]}).encode()
    request = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
               ).encode() + body

    async def one(seed: int) -> float:
        started = time.perf_counter()
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", server.port, local_addr=(address(seed), 0))
        writer.write(request)
        answer = await reader.read()
        writer.close()
        assert answer.startswith(b"HTTP/1.1 201 "), answer[:200]
        return time.perf_counter() - started

    return list(await asyncio.gather(*(one(seed) for seed in range(n))))


async def reads(servers: list[Server], n: int) -> tuple[list[float], float]:
    """Seconds each of ``n`` reads of a game's view took on the last server (one request at
    a time on one connection), after a move made on the first; and the reading server's CPU
    seconds per read. With two servers the reader checks the game's revision in PostgreSQL
    before each answer (read-your-writes); with one it answers from its cache."""
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=60.0) as http:
        body = (await http.post("/api/games", json={"game": "classic",
                                                    "seats": ["human", "human"]})).json()
        state = GAME.new_initial_state()
        await http.post(f"/api/games/{body['id']}/moves",
                        json={"ply": 0, "action": state.legal_actions()[0]},
                        headers={"Authorization": f"Bearer {body['seats'][0]['token']}"})
    reader, writer = await asyncio.open_connection("127.0.0.1", servers[-1].port)
    request = (f"GET /api/games/{body['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").encode()
    times = []
    cpu = cpu_seconds(servers[-1].proc.pid)
    for _ in range(n):
        started = time.perf_counter()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length"))
        view = json.loads(await reader.readexactly(length))
        assert view["ply"] == 1, view["ply"]
        times.append(time.perf_counter() - started)
    cpu = cpu_seconds(servers[-1].proc.pid) - cpu
    writer.close()
    return times, cpu / n


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
        "notes": (stats.refused + stats.failures + stats.mismatched)[:3]
        + ([f"the attacker's answers by status: {dict(sorted(stats.attacks.items()))}"]
           if stats.attacks else []),
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
    parser.add_argument("--attack", action="store_true",
                        help="the paced run again under attack from one address; the server's "
                        "rate limits are on for every run then, the flat-out one included")
    parser.add_argument("--burst", type=int, default=0, metavar="N",
                        help="time N games created at once (0: not measured)")
    parser.add_argument("--burst-rounds", type=int, default=1, metavar="K",
                        help="the burst K times, a row each (they vary from round to round)")
    parser.add_argument("--reads", type=int, default=0, metavar="N",
                        help="time N reads of a game's view, one at a time (0: not measured)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the server's folder (its log, the SQLite file) afterwards")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}")
    rows = []
    bursts: list[tuple] = []
    read_rows: list[tuple] = []
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
            # No computer seats here but the attacker's: one AI worker process is enough.
            limits = ["--rate-limit", "on"] if args.attack else []
            for n in range(args.servers):
                servers.append(Server(url, work / f"server-{n}", extra=[
                    "--workers", "1", *site, *limits, *args.serve_arg]).start())
            label = kind if args.servers == 1 else f"{kind} 2 servers"
            for _ in range(args.burst_rounds if args.burst else 0):
                times = asyncio.run(burst(servers[0], args.burst))
                bursts.append((label, len(times), percentile(times, 0.5) * 1000,
                               percentile(times, 0.99) * 1000, max(times) * 1000))
            if args.reads:
                times, cpu = asyncio.run(reads(servers, args.reads))
                read_rows.append((label, len(times), percentile(times, 0.5) * 1000,
                                  percentile(times, 0.99) * 1000, cpu * 1000))
            if args.games:
                paced = Run(args.games, args.seconds, tuple(args.think), spread=args.attack)
                rows.append(measure(servers, paced, args.profile, f"{label} paced"))
            if args.games and args.attack:
                attacked = Run(args.games, args.seconds, tuple(args.think), spread=True,
                               attack=True)
                rows.append(measure(servers, attacked, args.profile,
                                    f"{label} paced, under attack"))
            if args.flat_out_games:
                flat = Run(args.flat_out_games, args.flat_out_seconds, (0.0, 0.0),
                           spread=args.attack)
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
    if rows:
        print_table(rows)
    if bursts:
        print("\n| run | games created at once | create p50 ms | p99 ms | max ms |")
        print("|---|---|---|---|---|")
        for label, n, p50, p99, most in bursts:
            print(f"| {label} | {n} | {p50:.1f} | {p99:.1f} | {most:.1f} |")
    if read_rows:
        print("\n| run | reads | p50 ms | p99 ms | server CPU ms per read |")
        print("|---|---|---|---|---|")
        for label, n, p50, p99, cpu in read_rows:
            print(f"| {label} | {n} | {p50:.2f} | {p99:.2f} | {cpu:.2f} |")


if __name__ == "__main__":
    main()
