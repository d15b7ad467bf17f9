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

``--signed-in`` runs the paced and the flat-out runs twice on the same server: anonymous as
above, then with every simulated person an account (docs/accounts.md). Before the clock
starts, and before any game is made, each person signs up with a password and keeps its
session cookie and CSRF token (sign-up times are a column of their own). Each game is then
made the way people make a rated game: one of the table's two people opens a rated challenge
(``POST /api/challenges``, the two taking turns game by game), the other accepts it, the
challenger reads its seat link from the challenge, and each seat's secret (the link's
fragment) is the token the person moves with over its socket, exactly as above. So rated
games finish during the run and the server rates them (Glicko-2, in background tasks).
"create" is then the whole making of a game: challenge, accept, the challenger's read and the
seat's number (``GET /api/games/{id}/seat``). Checked at the end, through ``GET
/api/players/{name}``: every finished rated game of every account is in its classic rating
history once, the history's count is the rating's ``games``, and each entry starts from the
rating the one before it ended on (no rating lost or computed from a stale one). The server's
own log is summarised too: its errors, its answer times per route, and how long after a rated
game's last move its rating was stored.

Usage::

    python benchmarks/load_server.py [--db sqlite postgresql] [--games 200] [--seconds 60]
        [--think 0.5 2.0] [--flat-out-games 20] [--flat-out-seconds 20] [--profile DIR]
        [--attack] [--burst 200 [--burst-rounds 5]] [--reads 2000] [--servers 2]
        [--signed-in]

Client and server share the machine: the client's own CPU use is printed too (both over
the play, from the clock's start until the last table stopped). ``--profile``
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
import re
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
    # Signed in (--signed-in): seconds per sign-up; each account's finished rated games as its
    # people saw them end; what the rating check found.
    signups: list[float] = field(default_factory=list)
    rated: dict[str, list[str]] = field(default_factory=dict)
    rated_in_history: int = 0
    rating_problems: list[str] = field(default_factory=list)
    rating_wait: float = 0.0  # seconds after the run until every rating was in


@dataclass
class Run:
    games: int
    seconds: float
    think: tuple[float, float]
    spread: bool = False  # each table's people on a loopback address of their own
    attack: bool = False
    signed_in: bool = False
    prefix: str = "p"  # the accounts' names start with it (unique on the server per run)
    stats: Stats = field(default_factory=Stats)
    seated: int = 0
    deadline: float = float("inf")
    go: asyncio.Event = field(default_factory=asyncio.Event)
    # (client CPU s, servers' CPU s, perf_counter s) when the clock starts and when the last
    # table stops: the CPU columns are over the play alone, not the sign-ups before it or
    # the checks after it.
    usage: Callable[[], tuple[float, float, float]] | None = None
    at_go: tuple[float, float, float] | None = None
    at_end: tuple[float, float, float] | None = None


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


@dataclass
class Person:
    """A simulated person with an account: its own client (its session cookie) and the
    session's CSRF token."""

    name: str
    http: httpx.AsyncClient
    csrf: str = ""

    @property
    def headers(self) -> dict[str, str]:
        return {"X-CSRF-Token": self.csrf}


PASSWORD = "load-test-password"


def client(base_url: str, local: str | None = None) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=local) if local else None
    return httpx.AsyncClient(base_url=base_url, timeout=60.0, transport=transport,
                             limits=httpx.Limits(max_connections=4))


async def sign_up(base_url: str, name: str, run: Run, local: str | None) -> Person | None:
    """A new account (a password, kept signed in by the client's cookie jar)."""
    person = Person(name, client(base_url, local))
    started = time.perf_counter()
    answer = await with_retry(lambda: person.http.post(
        "/api/account/signup", json={"name": name, "password": PASSWORD}))
    run.stats.signups.append(time.perf_counter() - started)
    if answer.status_code != 201 or "cathedral_session" not in person.http.cookies:
        run.stats.failures.append(f"sign-up {name}: {answer.status_code} {answer.text[:200]}")
        await person.http.aclose()
        return None
    person.csrf = answer.json()["account"]["csrf"]
    run.stats.rated[name] = []
    return person


async def sign_up_table(base_url: str, run: Run, seed: int) -> list[Person] | None:
    """A table's two people, each a new account; None if either sign-up failed."""
    local = address(seed) if run.spread else None
    people = await asyncio.gather(*(sign_up(base_url, f"{run.prefix}{seed}{side}", run, local)
                                    for side in "ab"))
    if all(people):
        return list(people)
    for person in people:
        if person is not None:
            await person.http.aclose()
    return None


def secret_of(url: str | None) -> str | None:
    """A seat link's secret: its fragment (``/g/<id>#<secret>``)."""
    return url.split("#", 1)[1] if url and "#" in url else None


async def challenge(people: list[Person], run: Run, n: int
                    ) -> tuple[str, list[str], list[str]] | None:
    """A rated game made as people make one: a rated challenge opened by one (the two take
    turns), accepted by the other; each learns its seat's link. Returns the game, the seats'
    secrets and the accounts' names, both by seat."""
    by, other = people if n % 2 == 0 else people[::-1]
    fails = run.stats.failures
    started = time.perf_counter()
    opened = await with_retry(lambda: by.http.post(
        "/api/challenges", json={"game": "classic", "rated": True}, headers=by.headers))
    if opened.status_code != 201:
        fails.append(f"challenge by {by.name}: {opened.status_code} {opened.text[:200]}")
        return None
    challenge_id = opened.json()["id"]
    accepted = await with_retry(lambda: other.http.post(
        f"/api/challenges/{challenge_id}/accept", headers=other.headers))
    if accepted.status_code != 201:
        fails.append(f"accept {challenge_id}: {accepted.status_code} {accepted.text[:200]}")
        return None
    game_id, theirs = accepted.json()["game_id"], secret_of(accepted.json()["url"])
    mine = None
    for _ in range(50):  # the challenger asks until its seat's link is there (at once)
        seen = await with_retry(lambda: by.http.get(f"/api/challenges/{challenge_id}"))
        mine = secret_of(seen.json().get("url")) if seen.status_code == 200 else None
        if mine is not None or seen.status_code != 200:
            break
        await asyncio.sleep(0.1)
    if mine is None or theirs is None:
        fails.append(f"challenge {challenge_id}: no seat link for "
                     f"{by.name if mine is None else other.name}")
        return None
    seat = await with_retry(lambda: other.http.get(
        f"/api/games/{game_id}/seat", headers={"Authorization": f"Bearer {theirs}"}))
    if seat.status_code != 200:
        fails.append(f"seat of {game_id}: {seat.status_code} {seat.text[:200]}")
        return None
    run.stats.creates.append(time.perf_counter() - started)
    if seat.json()["player"] == 0:
        return game_id, [theirs, mine], [other.name, by.name]
    return game_id, [mine, theirs], [by.name, other.name]


def ready(run: Run) -> None:
    """One more table is seated; the clock starts when the last one is."""
    run.seated += 1
    if run.seated == run.games:
        run.deadline = time.monotonic() + run.seconds
        if run.usage is not None:
            run.at_go = run.usage()
        run.go.set()


def address(seed: int) -> str:
    """A loopback address of a table's own (Linux routes all of 127/8 to the loopback)."""
    return f"127.0.{1 + seed // 250}.{1 + seed % 250}"


async def table(
    http: httpx.AsyncClient, ws_urls: list[str], run: Run, seed: int,
    checks: list[tuple[str, dict[int, str], str]], people: list[Person] | None = None,
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
    if run.signed_in and not people:  # its sign-ups failed (counted)
        ready(run)
        return
    try:
        await play_games(http, ws_urls, run, seed, checks, rng, local, people or [])
    finally:
        for person in people or []:
            await person.http.aclose()


async def play_games(
    http: httpx.AsyncClient, ws_urls: list[str], run: Run, seed: int,
    checks: list[tuple[str, dict[int, str], str]], rng: random.Random, local: dict,
    people: list[Person],
) -> None:
    first = True
    n = 0
    while first or time.monotonic() < run.deadline:
        names: list[str] = []
        if people:
            made = await challenge(people, run, n)
            n += 1
            created = None if made is None else made[:2]
            names = [] if made is None else made[2]
        else:
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
        if all(ended):
            for name in names:
                run.stats.rated[name].append(game_id)


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


async def rating_problems(http: httpx.AsyncClient, stats: Stats) -> tuple[list[str], int]:
    """What is wrong with the accounts' classic ratings (see the module docstring), and how
    many rated games their histories hold."""
    limit = asyncio.Semaphore(20)
    problems: list[str] = []
    rated: set[str] = set()

    async def one(name: str, seen: list[str]) -> None:
        async with limit:
            answer = await with_retry(lambda: http.get(f"/api/players/{name}"))
        if answer.status_code != 200:
            problems.append(f"{name}: page {answer.status_code} {answer.text[:200]}")
            return
        page = answer.json()
        entry = page["ratings"].get("classic", {"history": [], "games": 0})
        history = entry["history"]
        ids = [h["game_id"] for h in history]
        rated.update(ids)
        finished = {g["id"] for g in page["games"]
                    if g["rated"] and g.get("status", "finished") == "finished"}
        missing = (set(seen) | finished) - set(ids)
        if missing:
            problems.append(f"{name}: {len(missing)} finished rated games not in the "
                            f"history, e.g. {sorted(missing)[0]}")
        if len(ids) != len(set(ids)):
            problems.append(f"{name}: a game twice in the history")
        if history and entry["games"] != len(history):
            problems.append(f"{name}: rating counts {entry['games']} games, history "
                            f"{len(history)}")
        before = 1500.0
        for h in history:
            if abs(h["before"] - before) > 0.11:
                problems.append(f"{name}: game {h['game_id']} rated from {h['before']}, "
                                f"the rating before it was {before}")
            before = h["rating"]
        if history and abs(entry["rating"] - before) > 0.11:
            problems.append(f"{name}: rating {entry['rating']}, last history entry {before}")

    await asyncio.gather(*(one(name, seen) for name, seen in stats.rated.items()))
    return problems, len(rated)


async def check_ratings(server: Server, stats: Stats, patience: float = 60.0) -> None:
    """Waits until every account's rating holds its finished games (ratings are made in
    background tasks), at most ``patience`` seconds, and keeps what is still wrong. After the
    run's figures, so that its reads are not in them."""
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=server.url, timeout=60.0) as http:
        while True:
            problems, rated = await rating_problems(http, stats)
            if not problems or time.monotonic() - started > patience:
                break
            await asyncio.sleep(0.5)
    stats.rating_wait = time.monotonic() - started
    stats.rating_problems = problems
    stats.rated_in_history = rated


async def drive(servers: list[Server], run: Run) -> None:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=60.0, limits=limits) as http:
        checks: list[tuple[str, dict[int, str], str]] = []
        ws_urls = [server.ws_url for server in servers]
        attacker = asyncio.ensure_future(attack(servers[0], run)) if run.attack else None
        try:
            teams: list[list[Person] | None] = [None] * run.games
            if run.signed_in:  # every account made before the first game is
                teams = list(await asyncio.gather(*(
                    sign_up_table(servers[0].url, run, seed) for seed in range(run.games))))
            await asyncio.gather(*(
                table(http, ws_urls, run, seed, checks, teams[seed])
                for seed in range(run.games)
            ))
            if run.usage is not None:
                run.at_end = run.usage()
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
    def usage() -> tuple[float, float, float]:
        return (time.process_time(), sum(cpu_seconds(s.proc.pid) for s in servers),
                time.perf_counter())

    run.usage = usage
    began = time.time()
    asyncio.run(drive(servers, run))
    if run.at_go is None or run.at_end is None:
        run.at_go = run.at_end = usage()
    cpu, server_cpu, wall = (end - go for end, go in zip(run.at_end, run.at_go, strict=True))
    wall = max(wall, 1e-9)
    if spy is not None:
        spy.wait(timeout=run.seconds + 60)
    stats = run.stats
    if run.signed_in:
        asyncio.run(check_ratings(server, stats))
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
        "window": (began, time.time()),  # wall clock, for the server's log
        "signed_in": run.signed_in,
        "accounts": len(stats.signups) - sum(1 for f in stats.failures if f.startswith("sign-up")),
        "signup_p50_ms": percentile([t * 1000 for t in stats.signups], 0.5),
        "signup_p99_ms": percentile([t * 1000 for t in stats.signups], 0.99),
        "rated_finished": stats.games_finished if run.signed_in else 0,
        "rated_in_history": stats.rated_in_history,
        "rating_problems": len(stats.rating_problems),
        "rating_wait": stats.rating_wait,
        "rating_lag_p50": float("nan"),  # from the server's log, once the server stopped
        "rating_lag_max": float("nan"),
        "notes": (stats.refused + stats.failures + stats.mismatched + stats.rating_problems)[:3]
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


SIGNED_IN_COLUMNS = [
    ("label", "run", "{}"), ("accounts", "accounts made", "{}"),
    ("signup_p50_ms", "sign-up p50 ms", "{:.0f}"), ("signup_p99_ms", "sign-up p99 ms", "{:.0f}"),
    ("rated_finished", "rated games finished", "{:,}"),
    ("rated_in_history", "rated games in the histories", "{:,}"),
    ("rating_problems", "ratings wrong or missing", "{}"),
    ("rating_lag_p50", "rated after the last move p50 ms", "{:.0f}"),
    ("rating_lag_max", "max ms", "{:.0f}"),
    ("rating_wait", "all rated at the check after s", "{:.1f}"),
    ("refused", "moves refused", "{}"),
]


def print_table(rows: list[dict], columns: list[tuple[str, str, str]] = COLUMNS) -> None:
    header = "| " + " | ".join(title for _, title, _ in columns) + " |"
    print(header)
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(fmt.format(row[key]) for key, _, fmt in columns) + " |")
    if columns is not COLUMNS:
        return
    for row in rows:
        for note in row["notes"]:
            print(f"  {row['label']}: {note}")


ROUTES = [  # the server's request paths, ids and names taken out
    (re.compile(r"^/api/challenges/[^/]+/accept$"), "/api/challenges/{id}/accept"),
    (re.compile(r"^/api/challenges/[^/]+$"), "/api/challenges/{id}"),
    (re.compile(r"^/api/games/[^/]+/([a-z]+)$"), r"/api/games/{id}/\1"),
    (re.compile(r"^/api/games/[^/]+$"), "/api/games/{id}"),
    (re.compile(r"^/api/players/[^/]+$"), "/api/players/{name}"),
]


def server_log(servers: list[Server], window: tuple[float, float]
               ) -> tuple[dict[str, list[float]], dict[str, int], list[str], list[float]]:
    """From the servers' JSON log lines within ``window``: each HTTP route's answer times
    (ms), its 5xx answers, the log's errors (their first lines), and for each rated game how
    long after its last move its rating was stored (ms)."""
    times: dict[str, list[float]] = {}
    failed: dict[str, int] = {}
    errors: list[str] = []
    last_move: dict[str, float] = {}
    lags: list[float] = []
    for server in servers:
        with contextlib.suppress(OSError), open(server.log, errors="replace") as log:
            for line in log:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(entry, dict) or not window[0] <= entry.get("t", 0) <= window[1]:
                    continue
                if entry.get("level") in ("error", "critical"):
                    errors.append(str(entry.get("message", entry))[:200])
                if entry.get("event") == "move":
                    last_move[entry["game"]] = entry["t"]
                elif entry.get("event") == "rated" and entry["game"] in last_move:
                    lags.append(1000 * (entry["t"] - last_move[entry["game"]]))
                if entry.get("event") != "request":
                    continue
                path = entry["path"]
                for pattern, name in ROUTES:
                    path = pattern.sub(name, path)
                times.setdefault(path, []).append(entry["ms"])
                if entry["status"] >= 500:
                    failed[path] = failed.get(path, 0) + 1
    return times, failed, errors, lags


def print_server_log(logs: list[tuple[str, tuple]]) -> None:
    print("\n| run | route (server's log) | answers | p50 ms | p99 ms | max ms | 5xx |")
    print("|---|---|---|---|---|---|---|")
    notes = []
    for label, (times, failed, errors, _) in logs:
        for path, ms in sorted(times.items(), key=lambda item: -len(item[1])):
            print(f"| {label} | {path} | {len(ms):,} | {percentile(ms, 0.5):.1f} | "
                  f"{percentile(ms, 0.99):.1f} | {max(ms):.0f} | {failed.get(path, 0)} |")
        notes.append(f"  {label}: {len(errors)} error lines in the server's log"
                     + (f", e.g. {errors[0]}" if errors else ""))
    print("\n".join(notes))


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
    parser.add_argument("--signed-in", action="store_true",
                        help="the paced and flat-out runs again, every person an account "
                        "playing rated games made by challenges; ratings checked")
    parser.add_argument("--keep", action="store_true",
                        help="keep the server's folder (its log, the SQLite file) afterwards")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}")
    rows = []
    logs: list[tuple[str, tuple]] = []
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
            if args.attack and args.signed_in:  # 4 accounts an address: under the default
                limits += ["--signin-rate", "off"]  # burst, but sign-ups are not measured
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
            if args.signed_in and args.games:
                paced = Run(args.games, args.seconds, tuple(args.think), spread=args.attack,
                            signed_in=True, prefix="paced")
                rows.append(measure(servers, paced, args.profile, f"{label} paced, signed in"))
            if args.signed_in and args.flat_out_games:
                flat = Run(args.flat_out_games, args.flat_out_seconds, (0.0, 0.0),
                           spread=args.attack, signed_in=True, prefix="flat")
                rows.append(measure(servers, flat, args.profile,
                                    f"{label} flat out, signed in"))
        finally:
            for server in servers:
                server.stop()
            for row in rows if args.signed_in else []:
                if row["label"].startswith(label):
                    logs.append((row["label"], server_log(servers, row["window"])))
                    lags = logs[-1][1][3]
                    row["rating_lag_p50"] = percentile(lags, 0.5)
                    row["rating_lag_max"] = max(lags, default=float("nan"))
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
    if any(row["signed_in"] for row in rows):
        print()
        print_table([row for row in rows if row["signed_in"]], SIGNED_IN_COLUMNS)
    if logs:
        print_server_log(logs)
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
