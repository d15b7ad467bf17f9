"""Live tables: each game's state in memory, its seats, its subscribers, and every change.

A ``Table`` is one game rebuilt from its log (``storage``) and kept in memory; every change
goes through its lock and is first made durable (one transaction appending the action), then
applied to the cached state and broadcast: one view per ply, in ply order, into every
subscriber's own queue (a slow socket never holds up the game or the other watchers).

The ``Hub`` owns the tables: moves by token, chance outcomes drawn from the game's secret
seed, computer moves in the worker pool (never on the event loop; a stale answer, after a
take-back or a restart, is dropped), clocks, resignations, take-backs, rematches, open seats,
uploaded records, and picking every unfinished game up again on start.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cathedral
from cathedral.ai import LEVEL_NAMES, load_agent, parse_spec
from cathedral.core.contract import CHANCE, TERMINAL, Game, State, ranked_returns
from cathedral.core.errors import CathedralError, RecordError
from cathedral.core.record import Record
from cathedral.server import models
from cathedral.server.clocks import GameClock
from cathedral.server.logs import event
from cathedral.server.security import find_token, hash_token, new_token
from cathedral.server.storage import PlyTaken, Storage, StoredAction, StoredGame, StoredSeat
from cathedral.server.workers import Workers

log = logging.getLogger("cathedral.server")

HUMAN = "human"
# What an agent spec may ask for over HTTP: a few seconds of search, not a server's day.
MAX_SECONDS = 60.0
MAX_ITERATIONS = 5_000_000
MAX_DEPTH = 30
QUEUE_LIMIT = 2_000  # views waiting for one slow socket before it is dropped
CLAIM_RETRY_S = 0.5  # how often a process asks again for a computer move another one holds
# Many processes: how often each looks for games with a computer seat unchanged for STALL_S
# (but not for longer than STALL_WINDOW_S) that it does not hold: their computer move may have
# died with another process.
SWEEP_S = 5.0
STALL_S = 15.0
STALL_WINDOW_S = 600.0


class ApiError(Exception):
    """A refusal: an HTTP status and one sentence for the error body."""

    def __init__(self, status: int, message: str, headers: dict | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


@lru_cache(maxsize=256)  # bounded: parameters come from clients
def _game(name: str, params_json: str) -> Game:
    return cathedral.load(name, **json.loads(params_json))


def load_game(name: str, params: dict) -> Game:
    """Returns the game (cached: a Game is immutable once made)."""
    return _game(name, json.dumps(params, sort_keys=True))


def check_http_params(name: str, params: dict) -> None:
    """Refuses parameter values a client may not choose: a free-text parameter (a file path,
    such as red's ``components``) takes only its default over HTTP, and the error never
    says whether some path exists."""
    try:
        declared = cathedral.core.registry.game_class(name).info.parameters
    except CathedralError as exc:
        raise ApiError(422, str(exc)) from None
    for param in declared:
        free_text = param.kind is str and not param.choices
        if free_text and param.name in params and params[param.name] != param.default:
            raise ApiError(422, f"parameter {param.name!r} of {name} takes only "
                           f"{param.default!r} on this server")


def check_seat_kind(kind: str, game: Game) -> None:
    """Refuses a seat that is neither ``human`` nor a computer player ``load_agent`` accepts,
    or one asking for an unreasonable budget."""
    if kind == HUMAN:
        return
    try:
        load_agent(kind, game)
        _, args = parse_spec(kind)
    except CathedralError as exc:
        raise ApiError(422, f"seat {kind!r}: {exc}") from None
    limits = {"seconds": MAX_SECONDS, "iterations": MAX_ITERATIONS, "depth": MAX_DEPTH}
    for key, limit in limits.items():
        value = args.get(key)
        if value is not None and (not isinstance(value, int | float) or value > limit):
            raise ApiError(422, f"seat {kind!r}: {key} must be at most {limit:g} here")


def _derived(seed: str, *parts: object) -> int:
    text = ":".join([seed, *map(str, parts)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def chance_outcome(state: State, seed: str, ply: int) -> int:
    """Returns the outcome of the chance node at ``ply``, drawn from the game's secret seed:
    the same game and ply always give the same outcome (a restart reproduces it)."""
    outcomes = state.chance_outcomes()
    point = random.Random(_derived(seed, "chance", ply)).random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if point < total:
            return action
    return outcomes[-1][0]


class Subscriber:
    """One watcher's queue of messages (JSON text), drained by its socket's sender."""

    def __init__(self, limit: int = QUEUE_LIMIT) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.dropped = False

    def put(self, text: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self.limit:
            self.dropped = True  # too slow to follow: the sender closes the socket
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


@dataclass
class Seat:
    player: int
    kind: str
    token_hash: str | None
    open: bool = False


@dataclass
class Table:
    """One live game."""

    id: str
    game: Game
    state: State
    seats: list[Seat]
    seed: str
    generation: int
    entries: list[StoredAction]
    result: dict | None
    clock: GameClock | None
    read_only: bool
    public: bool
    rematch_of: str | None
    rematch: str | None
    created: float
    updated: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    auto: asyncio.Task | None = None
    timer: asyncio.TimerHandle | None = None
    version: int = 0
    _view: tuple[int, str] | None = None

    @property
    def ply(self) -> int:
        return len(self.entries)

    @property
    def finished(self) -> bool:
        return self.read_only or self.result is not None or self.state.is_terminal()

    def kinds(self) -> list[str]:
        return [seat.kind for seat in self.seats]

    def player_of(self, token: str) -> int | None:
        """Returns the human seat ``token`` opens, or ``None``."""
        return find_token(token, ((s.player, s.token_hash) for s in self.seats
                                  if s.kind == HUMAN))

    def computer_to_move(self) -> bool:
        player = self.state.current_player()
        return player >= 0 and self.seats[player].kind != HUMAN

    def only_human(self) -> int | None:
        """Returns the human seat if every other seat is a computer, else ``None``."""
        humans = [s.player for s in self.seats if s.kind == HUMAN]
        return humans[0] if len(humans) == 1 else None

    def takeback_point(self, player: int) -> int | None:
        """Returns the ply a take-back by ``player`` returns to, or ``None`` if none may."""
        if self.read_only or self.result is not None or self.only_human() != player:
            return None
        for index in range(len(self.entries) - 1, -1, -1):
            mover = self.entries[index].player
            if mover == CHANCE:
                return None  # the dice after a move stay rolled
            if mover == player:
                return index
        return None

    def shown_player(self) -> int:
        """The view's ``current_player``: never CHANCE (the server is resolving it right now;
        meanwhile the player who decided last still holds the turn)."""
        if self.finished:
            return TERMINAL
        player = self.state.current_player()
        if player != CHANCE:
            return player
        for entry in reversed(self.entries):
            if entry.player >= 0:
                return entry.player
        return 0

    def result_view(self) -> dict | None:
        if self.result is not None:
            return self.result
        if self.state.is_terminal():
            return {"text": self.state.result_string(), "scores": self.state.scores(),
                    "returns": self.state.returns(), "resigned": None, "timeout": False}
        return None

    def view(self, now: float, wall: Callable[[], float]) -> dict:
        state = self.state
        result = self.result_view()
        human = self.only_human()
        return {
            "id": self.id,
            "game": self.game.name,
            "params": self.game.params,
            "status": "finished" if self.finished else "playing",
            "ply": self.ply,
            "current_player": self.shown_player(),
            "players": self.game.player_names(),
            "seats": self.kinds(),
            "open_seats": [s.player for s in self.seats if s.open],
            "state": state.to_json(),
            "returns": result["returns"] if result is not None else None,
            "last_move": self.entries[-1].notation if self.entries else None,
            "history": [entry.notation for entry in self.entries],
            "scores": state.scores(),
            "result": result,
            "clock": self.clock.to_view(now, wall) if self.clock is not None else None,
            "read_only": self.read_only,
            "public": self.public,
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "takeback": human is not None and self.takeback_point(human) is not None,
            "created": self.created,
            "updated": self.updated,
        }

    def view_text(self, now: float, wall: Callable[[], float]) -> str:
        """The view as JSON text, built once per change."""
        ticking = self.clock is not None and self.clock.running is not None
        if self._view is None or self._view[0] != self.version or ticking:
            text = json.dumps(self.view(now, wall), separators=(",", ":"))
            self._view = (self.version, text)
        return self._view[1]

    def state_at(self, ply: int) -> State:
        """Returns the position after ``ply`` actions (a copy)."""
        if ply == self.ply:
            return self.state.clone()
        state = self.game.new_initial_state()
        for entry in self.entries[:ply]:
            state.apply_action(entry.action)
        return state

    def record(self) -> Record:
        record = Record.from_state(self.state, players=self.kinds(),
                                   meta={"server_id": self.id, "created": self.created})
        if self.result is not None:
            record.result = dict(self.result)
        return record


class Hub:
    """Every live table, and every change to any of them."""

    def __init__(self, storage: Storage, workers: Workers, *,
                 now: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 clock_timers: bool = True, max_tables: int = 5000) -> None:
        self.storage = storage
        self.workers = workers
        self.now = now
        self.wall = wall
        self.clock_timers = clock_timers
        self.tables: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        self.max_tables = max_tables
        self._loading: dict[str, asyncio.Future] = {}
        # Reads (and, on other databases than SQLite, writes) run in these threads.
        self.db_pool = ThreadPoolExecutor(2 if storage.is_sqlite else 8,
                                          thread_name_prefix="cathedral-db")
        self._tasks: set[asyncio.Task] = set()
        self.closing = False
        self.lobby_version = 0  # counts the changes the lobby shows: new, joined, ended
        self.bus = None  # the site's Redis channel (``site.SiteBus``) when many processes serve

    # ----- plumbing -----------------------------------------------------------------------

    async def db(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Runs a database read in the database threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kwargs))

    async def write(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Runs a database write (one short transaction). On SQLite it runs right here: a
        commit without fsync (WAL, synchronous=NORMAL; checkpoints run in a thread) is
        cheaper than handing it to a thread and back, and one writer never waits for the
        file lock. Other databases are across a network: a thread waits for them."""
        if self.storage.is_sqlite:
            return fn(*args, **kwargs)
        return await self.db(fn, *args, **kwargs)

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _checkpoints(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            try:
                await self.db(self.storage.checkpoint)
            except Exception:  # a busy database now is a checkpoint a second later
                log.exception("checkpoint failed")

    async def start(self) -> None:
        """Picks up every unfinished game: pending computer moves and chance nodes, clocks."""
        if self.storage.is_sqlite:
            self.spawn(self._checkpoints())
        ids = await self.db(self.storage.unfinished)
        for game_id in ids:
            try:
                table = await self.table(game_id)
                async with table.lock:
                    if table.finished:  # the last move was stored, its status was not
                        await self.write(self.storage.mark_finished, game_id)
                    await self._settle(table)
            except Exception:  # one broken game must not keep the others down
                log.exception("could not pick up game %s", game_id)
        if ids:
            event("resumed", games=len(ids))
        if self.bus is not None and not self.storage.is_sqlite:
            self.spawn(self._sweep())

    async def _sweep(self) -> None:
        """Takes up stalled games this process does not hold: loading one starts its due
        computer move, whose claim (a lock that died with its holder) makes it exactly once.
        Also reloads any cached game the database has moved past: a change whose Redis
        message was missed is caught up within a sweep."""
        while True:
            await asyncio.sleep(SWEEP_S)
            try:
                cached = list(self.tables)
                stored = await self.db(self.storage.positions, cached) if cached else {}
                for game_id, position in stored.items():
                    table = self.tables.get(game_id)
                    if table is not None and (table.generation, table.ply) != position:
                        self.bus.changed(game_id)
                now = self.wall()
                ids = await self.db(self.storage.stalled, now - STALL_S - STALL_WINDOW_S,
                                    now - STALL_S)
                for game_id in ids:
                    if game_id not in self.tables:
                        await self.table(game_id)
            except Exception:  # a busy database now is a sweep a few seconds later
                log.exception("sweep failed")

    async def close(self) -> None:
        self.closing = True
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            for sub in table.subscribers:
                sub.queue.put_nowait(None)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.db_pool.shutdown(wait=True)

    # ----- loading ------------------------------------------------------------------------

    async def table(self, game_id: str) -> Table:
        """Returns the live table, rebuilding it from the log on a miss; 404 if none."""
        table = self.tables.get(game_id)
        if table is not None:
            self.tables.move_to_end(game_id)
            return table
        if len(game_id) > 64:
            raise ApiError(404, f"no game {game_id[:64]!r}...: check the game's address")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                stored = await self.db(self.storage.load, game_id)
                table = None if stored is None else self._rebuild(stored)
                if table is not None:
                    self._keep(table)
                    if self.bus is not None:  # a move due that a dead process had claimed
                        self.spawn(self._take_up(table))
                pending.set_result(table)
            except Exception as exc:
                pending.set_exception(exc)
                pending.exception()  # retrieved: no "never retrieved" warning
                raise
            finally:
                del self._loading[game_id]
        table = await asyncio.shield(pending)
        if table is None:
            raise ApiError(404, f"no game {game_id!r}: check the game's address")
        return table

    def loading(self, game_id: str) -> asyncio.Future | None:
        """The load of ``game_id`` under way, if one is (it resolves to the table or None)."""
        return self._loading.get(game_id)

    async def _take_up(self, table: Table) -> None:
        async with table.lock:
            await self._settle(table)

    def _keep(self, table: Table) -> None:
        """Caches a live table, forgetting idle ones (nobody watching, nothing pending)
        beyond ``max_tables``: they are rebuilt from the log when asked for again."""
        if table.id not in self.tables:
            self.lobby_version += 1
        self.tables[table.id] = table
        if len(self.tables) <= self.max_tables:
            return
        for game_id, old in list(self.tables.items()):
            if len(self.tables) <= self.max_tables * 9 // 10:
                break
            idle = (not old.subscribers and not old.lock.locked() and old.timer is None
                    and (old.auto is None or old.auto.done()) and old is not table)
            if idle:
                del self.tables[game_id]

    def _rebuild(self, stored: StoredGame) -> Table:
        game = load_game(stored.game, stored.params)
        state = game.new_initial_state()
        for entry in stored.actions:
            state.apply_action(entry.action)
        clock = None
        if stored.clock is not None:
            clock = GameClock.new(stored.clock["initial_s"], stored.clock["increment_s"],
                                  game.num_players)
            for entry in reversed(stored.actions):
                if entry.clock is not None:
                    clock.remaining = list(entry.clock)
                    break
        table = Table(
            id=stored.id, game=game, state=state,
            seats=[Seat(s.player, s.kind, s.token_hash, s.open) for s in stored.seats],
            seed=stored.seed, generation=stored.generation, entries=list(stored.actions),
            result=stored.result, clock=clock, read_only=stored.read_only,
            public=stored.public, rematch_of=stored.rematch_of, rematch=stored.rematch,
            created=stored.created, updated=stored.updated,
        )
        self._run_clock(table)
        return table

    async def refresh(self, game_id: str, resend: bool = False) -> None:
        """Reloads a cached game from the database after another process changed it, pushes
        the new views to this process's sockets (the current one at least, with ``resend``)
        and takes up a computer's turn if one is due."""
        table = self.tables.get(game_id)
        if table is None:
            return
        async with table.lock:
            if not await self._reload(table) and resend:
                self._changed(table, publish=False)
            await self._settle(table)

    async def _reload(self, table: Table) -> bool:
        """Replaces a table's game with the database's, in place (its sockets and lock stay),
        and pushes its views to this process's sockets: one per new ply when the game only
        grew, as if the moves had been made here. Returns whether anything changed. Called
        with the table's lock held."""
        stored = await self.db(self.storage.load, table.id)
        if stored is None:
            return False
        known = [e.action for e in table.entries]
        if (stored.generation == table.generation and len(stored.actions) >= table.ply
                and [a.action for a in stored.actions[:table.ply]] == known):
            return self._grow(table, stored)
        fresh = self._rebuild(stored)
        if fresh.timer is not None:
            fresh.timer.cancel()
        before = (table.generation, table.ply, table.result, table.rematch,
                  [(s.kind, s.token_hash, s.open) for s in table.seats])
        after = (fresh.generation, fresh.ply, fresh.result, fresh.rematch,
                 [(s.kind, s.token_hash, s.open) for s in fresh.seats])
        if before == after:
            return False
        for name in ("state", "seats", "generation", "entries", "result", "clock",
                     "read_only", "public", "rematch_of", "rematch", "updated"):
            setattr(table, name, getattr(fresh, name))
        self._run_clock(table)
        self._changed(table, publish=False)
        return True

    def _grow(self, table: Table, stored: StoredGame) -> bool:
        """``_reload`` when the stored game only grew: the new plies are applied to the cached
        state (no replay from the start), one view each."""
        seats = [(s.kind, s.token_hash, s.open) for s in stored.seats]
        same = (len(stored.actions) == table.ply and stored.result == table.result
                and stored.rematch == table.rematch
                and seats == [(s.kind, s.token_hash, s.open) for s in table.seats])
        if same:
            return False
        new = stored.actions[table.ply:]
        for index, entry in enumerate(new):
            table.state = table.state.clone()
            table.state.apply_action(entry.action)
            table.entries.append(entry)
            if index < len(new) - 1:  # the plies between: one view each
                self._changed(table, publish=False)
        table.seats = [Seat(s.player, s.kind, s.token_hash, s.open) for s in stored.seats]
        table.result, table.read_only, table.public = stored.result, stored.read_only, \
            stored.public
        table.rematch_of, table.rematch, table.updated = stored.rematch_of, stored.rematch, \
            stored.updated
        if table.clock is not None and new:
            times = next((e.clock for e in reversed(stored.actions) if e.clock is not None),
                         None)
            if times is not None:
                table.clock.remaining = list(times)
            table.clock.running = None
        self._run_clock(table)
        self._changed(table, publish=False)
        return True

    # ----- creating -----------------------------------------------------------------------

    async def create(self, request: models.CreateGame) -> dict:
        check_http_params(request.game, request.params)
        try:
            game = load_game(request.game, request.params)  # cached: some games load slowly
        except CathedralError as exc:
            raise ApiError(422, str(exc)) from None
        names = game.player_names()
        if len(request.seats) != len(names):
            raise ApiError(422, f"{len(request.seats)} seats given, {request.game} with these "
                           f"parameters has {len(names)} players ({', '.join(names)})")
        for kind in request.seats:
            check_seat_kind(kind, game)
        tokens: dict[int, str] = {}
        seats = []
        first_human = next((i for i, k in enumerate(request.seats) if k == HUMAN), None)
        for player, kind in enumerate(request.seats):
            is_open = request.public and kind == HUMAN and player != first_human
            token_hash = None
            if kind == HUMAN and not is_open:
                tokens[player] = new_token()
                token_hash = hash_token(tokens[player])
            seats.append(StoredSeat(player, kind, token_hash, is_open))
        clock = (None if request.clock is None else
                 {"initial_s": request.clock.initial_s, "increment_s": request.clock.increment_s})
        table = await self._store_new(game, seats, clock=clock, public=request.public)
        return self.created_reply(table, tokens)

    def created_reply(self, table: Table, tokens: dict[int, str]) -> dict:
        seats = []
        for seat in table.seats:
            entry: dict[str, Any] = {"player": seat.player, "kind": seat.kind}
            if seat.player in tokens:
                entry["token"] = tokens[seat.player]
                entry["url"] = f"/g/{table.id}#{tokens[seat.player]}"
            if seat.open:
                entry["open"] = True
            seats.append(entry)
        return {"id": table.id, "seats": seats, "watch_url": f"/g/{table.id}"}

    async def _store_new(self, game: Game, seats: list[StoredSeat], *, clock: dict | None,
                         public: bool, rematch_of: str | None = None) -> Table:
        wall = self.wall()
        stored = StoredGame(
            id=secrets.token_urlsafe(12), game=game.name, params=dict(game.params),
            rules_version=game.rules_version, seed=secrets.token_hex(16), status="playing",
            generation=0, result=None, clock=clock, read_only=False, public=public,
            rematch_of=rematch_of, rematch=None, created=wall, updated=wall, seats=seats,
        )
        await self.write(self.storage.create_game, stored)
        table = self._rebuild(stored)
        self._keep(table)
        event("created", game=table.id, name=game.name, seats=table.kinds())
        async with table.lock:
            await self._settle(table)
        return table

    # ----- moving -------------------------------------------------------------------------

    def _authorise(self, table: Table, token: str | None) -> int:
        if not token:
            raise ApiError(401, "no seat token: send 'Authorization: Bearer <your seat's "
                           "secret>' as given when the game was created")
        player = table.player_of(token)
        if player is None:
            raise ApiError(401, "unknown seat token for this game: use the secret your "
                           "seat's invitation gave")
        return player

    def seat_of(self, table: Table, token: str | None) -> int:
        """Returns the seat a secret opens (401 if none): the page asks before moving."""
        return self._authorise(table, token)

    async def move(self, game_id: str, token: str | None, move: models.Move) -> str:
        """Plays a human's move: 401, 409, 403, 422 in that order; returns the new view."""
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            if table.finished:
                raise ApiError(409, "the game is over: no more moves")
            if table.clock is not None and await self._check_flag(table):
                raise ApiError(409, "time ran out before this move arrived")
            if move.ply != table.ply and self.bus is not None:
                await self._reload(table)  # another process may have moved: check its ply
            if move.ply != table.ply:
                raise ApiError(409, f"the game is at ply {table.ply}, not {move.ply}: "
                               "reload the game and move from there")
            if table.state.current_player() != player:
                raise ApiError(403, f"it is not {table.game.player_names()[player]}'s turn")
            if table.seats[player].kind != HUMAN:
                raise ApiError(403, "this seat is played by the computer now")
            next_state, action = self._try(table, move)
            await self._commit(table, next_state, action, player)
            await self._settle(table)
            return table.view_text(self.now(), self.wall)

    @staticmethod
    def _try(table: Table, move: models.Move) -> tuple[State, int]:
        state = table.state.clone()
        try:
            action = (state.string_to_action(move.move) if move.move is not None
                      else move.action)
            state.apply_action(action)
        except CathedralError as exc:
            raise ApiError(422, f"illegal move: {exc}") from None
        return state, action

    async def _commit(self, table: Table, next_state: State | None, action: int | None,
                      player: int) -> None:
        """Makes an action durable, then live, with the chance outcomes it leads to: one
        transaction appends them all to the log; then, with nothing awaited in between (no
        reader sees a chance node), each ply is swapped in and its view broadcast. With
        ``next_state`` None only the chance node the table stands on is resolved."""
        now, wall = self.now(), self.wall()
        steps: list[tuple[State, StoredAction]] = []
        clock_after = None
        if table.clock is not None:
            clock_after = list(table.clock.remaining)
            if player >= 0 and table.clock.running == player:
                clock_after[player] += table.clock.increment_s - (now - table.clock.since)
            clock_after = [round(t, 3) for t in clock_after]
        before, ply = table.state, table.ply
        if next_state is not None and action is not None:
            steps.append((next_state, StoredAction(ply, action, player,
                                                   before.action_to_string(action),
                                                   clock_after, wall)))
            before, ply = next_state, ply + 1
        while before.is_chance_node():
            outcome = chance_outcome(before, table.seed, ply)
            after = before.clone()
            after.apply_action(outcome)
            steps.append((after, StoredAction(ply, outcome, CHANCE,
                                              before.action_to_string(outcome),
                                              clock_after, wall)))
            before, ply = after, ply + 1
        if not steps:
            return
        status = "finished" if before.is_terminal() else "playing"
        try:
            await self.write(self.storage.append, table.id, table.generation,
                          [entry for _, entry in steps], status=status)
        except PlyTaken:
            # Another server process wrote this ply first: ours is stale; reload from the log.
            if self.bus is not None:
                await self._reload(table)  # in place: this process's sockets follow
            else:
                self.tables.pop(table.id, None)
            raise ApiError(409, "the game moved on meanwhile: reload it") from None
        if table.clock is not None:
            if player >= 0:
                table.clock.moved(player, now)
            table.clock.remaining = list(clock_after)
        table.updated = wall
        for state, entry in steps:
            table.state = state
            table.entries.append(entry)
            event("move", game=table.id, ply=entry.ply, player=entry.player,
                  move=entry.notation,
                  by="chance" if entry.player < 0 else table.seats[entry.player].kind)
            self._run_clock(table)
            self._changed(table)

    def _changed(self, table: Table, extra: str | None = None, publish: bool = True) -> None:
        table.version += 1
        if self.bus is not None and publish:
            self.bus.publish(table.id)
        if table.finished or table.ply == 0 or any(seat.open for seat in table.seats):
            self.lobby_version += 1
        text = table.view_text(self.now(), self.wall)
        message = '{"type":"view","view":' + text + "}"
        for sub in table.subscribers:
            sub.put(message)
            if extra is not None:
                sub.put(extra)

    async def _settle(self, table: Table) -> None:
        """Resolves chance nodes at once and hands a computer's turn to the workers
        (called with the lock held, after every change)."""
        await self._draw_chance(table)
        if (not table.finished and table.computer_to_move() and not self.closing
                and (table.auto is None or table.auto.done())):
            table.auto = self.spawn(self._computer(table))

    async def _draw_chance(self, table: Table) -> None:
        if not table.finished and table.state.is_chance_node():
            await self._commit(table, None, None, CHANCE)

    async def _computer(self, table: Table) -> None:
        """Asks the workers for the computer's move and plays it unless the game moved on."""
        while True:
            async with table.lock:
                if table.finished or not table.computer_to_move():
                    return
                ply, generation = table.ply, table.generation
                player = table.state.current_player()
                kind = table.seats[player].kind
                state_json = table.state.to_json()
            seed = _derived(table.seed, "ai", generation, ply)
            claim = None
            if self.bus is not None and not self.storage.is_sqlite:
                # Many processes: the move is a job; the one holding its claim makes it.
                key = _derived(table.id, "job", generation, ply) - 2 ** 63
                claim = await self.db(self.storage.claim, key)
                if claim is None:  # another process is thinking; if it dies, its claim ends
                    await asyncio.sleep(CLAIM_RETRY_S)
                    async with table.lock:
                        await self._reload(table)
                    continue
                async with table.lock:
                    if await self._reload(table):  # made meanwhile, before our claim
                        await self.db(self.storage.release, claim, key)
                        continue
                event("claimed", game=table.id, ply=ply)
            try:
                action = await self.workers.choose(table.game.name, table.game.params,
                                                   state_json, kind, seed)
            except asyncio.CancelledError:
                if claim is not None:
                    await self.db(self.storage.release, claim, key)
                raise
            except Exception:
                log.exception("computer player %r failed in game %s", kind, table.id)
                action = None
            try:
                if not await self._play_computer(table, ply, generation, player, seed, action):
                    return
            finally:
                if claim is not None:
                    await self.db(self.storage.release, claim, key)
            if table.finished or not table.computer_to_move():
                return

    async def _play_computer(self, table: Table, ply: int, generation: int, player: int,
                             seed: int, action: int | None) -> bool:
        """Plays the computer's answer unless the game moved on meanwhile; returns False if
        another writer took the ply (the computer stops here)."""
        async with table.lock:
            if (table.ply, table.generation) != (ply, generation) or table.finished:
                return True  # a take-back or a clock changed the game: think again
            next_state = table.state.clone()
            try:
                if action is None:
                    raise CathedralError("no answer")
                next_state.apply_action(action)
            except CathedralError:
                # A broken agent never stalls a table: a random legal move instead.
                action = random.Random(seed).choice(table.state.legal_actions())
                next_state = table.state.clone()
                next_state.apply_action(action)
            try:
                await self._commit(table, next_state, action, player)
            except ApiError:
                return False
            # The caller goes on while a computer is to move (red: many decisions a turn).
            await self._draw_chance(table)
            return True

    # ----- clocks -------------------------------------------------------------------------

    def _run_clock(self, table: Table) -> None:
        """Starts the clock of the human to move (or none) and sets the flag timer."""
        clock = table.clock
        if clock is None:
            return
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        player = table.state.current_player()
        if table.finished or player < 0 or table.seats[player].kind != HUMAN:
            if clock.running is not None:
                clock.stop(self.now())
            return
        if clock.running != player:
            clock.start(player, self.now())
        if self.clock_timers and not self.closing:
            with contextlib.suppress(RuntimeError):  # no running loop: tests drive clocks
                delay = max(0.0, clock.left(player, self.now())) + 0.05
                table.timer = asyncio.get_running_loop().call_later(
                    delay, lambda: self.spawn(self.check_clock(table.id)))

    async def check_clock(self, game_id: str) -> bool:
        """Ends a turn whose time ran out; returns whether a flag fell. Two players: the
        player out of time loses; more: ``easy`` plays that seat from then on."""
        table = await self.table(game_id)
        async with table.lock:
            return await self._check_flag(table)

    async def _check_flag(self, table: Table) -> bool:
        """``check_clock`` with the table's lock held."""
        clock = table.clock
        if clock is None or table.finished:
            return False
        player = clock.flagged(self.now())
        if player is None:
            self._run_clock(table)
            return False
        clock.stop(self.now())
        clock.remaining[player] = 0.0
        names = table.game.player_names()
        if table.game.num_players == 2:
            winner = 1 - player
            returns = [0.0, 0.0]
            returns[player], returns[winner] = -1.0, 1.0
            result = {"text": f"{names[player]} ran out of time; {names[winner]} wins",
                      "scores": table.state.scores(), "returns": returns,
                      "resigned": player, "timeout": True}
            await self.write(self.storage.finish, table.id, result, self.wall())
            table.result = result
        else:
            await self.write(self.storage.set_seat, table.id, player, kind="easy")
            table.seats[player].kind = "easy"
        table.updated = self.wall()
        event("flag", game=table.id, player=player)
        message = json.dumps({"type": "clock", "event": "flag", "player": player,
                              "ply": table.ply})
        self._changed(table, message)
        self._run_clock(table)
        await self._settle(table)
        return True

    # ----- other actions of a seat --------------------------------------------------------

    async def resign(self, game_id: str, token: str | None, request: models.Resign) -> str:
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            if table.finished:
                raise ApiError(409, "the game is over already")
            if request.ply is not None and request.ply != table.ply:
                raise ApiError(409, f"the game is at ply {table.ply}, not {request.ply}")
            scores = table.state.scores()
            lower = table.game.info.lower_score_wins
            # The resigner ranks below everyone; the others keep their order by score.
            ranking = [-float(s) if lower else float(s) for s in scores]
            ranking[player] = float("-inf")
            returns = ranked_returns(ranking)
            names = table.game.player_names()
            result = {"text": f"{names[player]} resigned", "scores": scores,
                      "returns": returns, "resigned": player, "timeout": False}
            await self.write(self.storage.finish, table.id, result, self.wall())
            table.result = result
            table.updated = self.wall()
            event("resign", game=table.id, player=player)
            self._run_clock(table)
            self._changed(table)
            return table.view_text(self.now(), self.wall)

    async def takeback(self, game_id: str, token: str | None) -> str:
        """Takes back the human's last move and the computer's replies (never past a chance
        outcome the server drew after it): a new generation of the log, nothing rewritten."""
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            if table.read_only or table.result is not None:
                raise ApiError(409, "the game is over: nothing can be taken back")
            if table.only_human() != player:
                raise ApiError(403, "a take-back needs every other seat to be a computer")
            point = table.takeback_point(player)
            if point is None:
                raise ApiError(409, "nothing to take back: no move of yours since the last "
                               "chance outcome")
            kept = table.entries[:point]
            try:
                await self.write(self.storage.take_back, table.id, table.generation, kept,
                              self.wall())
            except PlyTaken:
                self.tables.pop(table.id, None)
                raise ApiError(409, "the game changed meanwhile: reload it") from None
            state = table.game.new_initial_state()
            for entry in kept:
                state.apply_action(entry.action)
            table.state = state
            table.entries = list(kept)
            table.generation += 1
            table.updated = self.wall()
            if table.clock is not None:
                back = next((e.clock for e in reversed(kept) if e.clock is not None), None)
                table.clock.remaining = list(back) if back else [table.clock.initial_s] * len(
                    table.seats)
                table.clock.running = None
            event("takeback", game=table.id, ply=point)
            self._run_clock(table)
            self._changed(table)
            return table.view_text(self.now(), self.wall)

    async def rematch(self, game_id: str, token: str | None) -> tuple[int, dict]:
        """A new game with the same game and parameters, seats rotated by one; each human
        keeps their secret. Returns (201, reply), or (200, reply) if it exists already."""
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            assert token is not None
            if not table.finished or table.read_only:
                raise ApiError(409, "a rematch needs a finished game")
            n = len(table.seats)
            if table.rematch is not None:
                other = await self.table(table.rematch)
                return 200, self.created_reply(other, {(player + 1) % n: token})
            seats = [StoredSeat(0, "", None)] * n
            for seat in table.seats:
                seats[(seat.player + 1) % n] = StoredSeat((seat.player + 1) % n, seat.kind,
                                                          seat.token_hash, seat.open)
            clock = (None if table.clock is None else
                     {"initial_s": table.clock.initial_s,
                      "increment_s": table.clock.increment_s})
            new = await self._store_new(table.game, seats, clock=clock, public=table.public,
                                        rematch_of=table.id)
            table.rematch = new.id
            self._changed(table)
            return 201, self.created_reply(new, {(player + 1) % n: token})

    async def join(self, game_id: str, request: models.Join) -> dict:
        """Takes an open seat of a public game: a fresh secret for the newcomer."""
        table = await self.table(game_id)
        async with table.lock:
            if request.player >= len(table.seats):
                raise ApiError(422, f"there is no player {request.player} in this game "
                               f"(0..{len(table.seats) - 1})")
            seat = table.seats[request.player]
            if not seat.open or table.finished:
                raise ApiError(409, f"seat {request.player} is not open")
            token = new_token()
            taken = await self.write(self.storage.set_seat, table.id, seat.player,
                                  token_hash=hash_token(token), open=False, only_if_open=True)
            if not taken:
                raise ApiError(409, f"seat {request.player} was taken meanwhile")
            seat.token_hash = hash_token(token)
            seat.open = False
            self.lobby_version += 1
            table.updated = self.wall()
            self._changed(table)
            return {"player": seat.player, "token": token,
                    "url": f"/g/{table.id}#{token}"}

    async def upload(self, record: Record) -> dict:
        """Stores a record (validated and replayed) as a read-only finished game."""
        check_http_params(record.game, record.params)
        try:
            final = record.final_state()
        except CathedralError as exc:
            raise ApiError(422, f"record refused: {exc}") from None
        game = load_game(final.game.name, final.game.params)
        if len(record.players) != game.num_players:
            raise ApiError(422, f"record refused: {len(record.players)} players listed, "
                           f"the game has {game.num_players}")
        replay = game.new_initial_state()
        wall = self.wall()
        actions = []
        for ply, action in enumerate(final.history()):
            actions.append(StoredAction(ply, action, replay.current_player(),
                                        replay.action_to_string(action), None, wall))
            replay.apply_action(action)
        result = None
        if record.result is not None and "resigned" in record.result:
            result = {"text": str(record.result.get("text", "")),
                      "scores": final.scores(), "returns": record.result.get("returns"),
                      "resigned": record.result.get("resigned"),
                      "timeout": bool(record.result.get("timeout", False))}
        seats = [StoredSeat(p, str(name)[:100] or "?", None) for p, name in
                 enumerate(record.players)]
        stored = StoredGame(
            id=secrets.token_urlsafe(12), game=game.name, params=dict(game.params),
            rules_version=game.rules_version, seed=secrets.token_hex(16), status="finished",
            generation=0, result=result, clock=None, read_only=True, public=False,
            rematch_of=None, rematch=None, created=wall, updated=wall, seats=seats,
            actions=actions,
        )
        await self.write(self.storage.create_game, stored)
        self._keep(self._rebuild(stored))
        return {"id": stored.id, "watch_url": f"/g/{stored.id}",
                "replay_url": f"/replay/{stored.id}"}

    async def hint(self, game_id: str, token: str | None, ply: int | None,
                   level: str, progress: Callable[[dict], None] | None = None) -> dict:
        table = await self.table(game_id)
        if level not in LEVEL_NAMES:
            raise ApiError(422, f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
        if not table.finished:
            player = self._authorise(table, token) if token else None
            if player is None or table.only_human() != player:
                raise ApiError(403, "hints are for finished games, or for a human playing "
                               "only computers (send your seat's token)")
        ply = table.ply if ply is None else ply
        if not 0 <= ply <= table.ply:
            raise ApiError(422, f"ply {ply} is outside the game (0..{table.ply})")
        state = table.state_at(ply)
        if state.is_terminal() or state.is_chance_node():
            raise ApiError(422, f"nobody is to move at ply {ply}")
        return await self.workers.hint(table.game.name, table.game.params, state.to_json(),
                                       level, _derived(table.seed, "hint", ply), progress)

    def subscribe(self, table: Table, sub: Subscriber) -> None:
        """Adds a watcher and queues the current view first (no change can come between)."""
        table.subscribers.add(sub)
        sub.put('{"type":"view","view":' + table.view_text(self.now(), self.wall) + "}")

    def upload_record(self, text: str) -> Record:
        try:
            return Record.from_json(text)
        except RecordError as exc:
            raise ApiError(422, str(exc)) from None
