"""The hub: every live table in memory, how they are loaded and kept current, and how a
change becomes durable, then live.

A table is rebuilt from its log on first use and kept (the least recently used idle ones
are forgotten past ``max_tables``); a long log is replayed in a worker, never on the event
loop. Every change goes through the table's lock and is first made durable (one
transaction, at the table's revision), then applied to the cached state and broadcast: one
view per ply, in ply order, into every subscriber's own queue (a slow socket never holds up
the game or the other watchers).

With several server processes on one database (``bus``, the site's Redis), a process that
hears of a change reloads the game; and before answering any request from its cache it asks
the database for the game's revision (one primary-key query), reloading first if another
process has moved the game on: read-your-writes, whichever process a request reaches.

The commands clients send live in ``commands``, computer moves, chance and clocks in
``computer``; both are mixed into ``Hub``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cathedral.core.contract import CHANCE, Game, State
from cathedral.server.accounts import Accounts
from cathedral.server.challenges import Challenges
from cathedral.server.clocks import GameClock
from cathedral.server.commands import Commands
from cathedral.server.computer import Computers
from cathedral.server.errors import Conflict, NotFound, Unavailable
from cathedral.server.inputs import checked_game_id
from cathedral.server.limits import GRACE_S
from cathedral.server.logs import event
from cathedral.server.players import Players
from cathedral.server.storage import PlyTaken, Storage, StoredAction, StoredGame
from cathedral.server.table import (
    INLINE_PLIES,
    Seat,
    Subscriber,
    Table,
    chance_outcome,
    described,
    fill_turns,
    load_game,
)
from cathedral.server.thinking import ANALYSIS, JobFailed, Pool

log = logging.getLogger("cathedral.server")

# Many processes: how often each looks for games with a computer seat unchanged for STALL_S
# (but not for longer than STALL_WINDOW_S) that it does not hold: their computer move may have
# died with another process.
SWEEP_S = 5.0
STALL_S = 15.0
STALL_WINDOW_S = 600.0


def outside_rules(result: dict | None) -> dict | None:
    """A table's ``result``: only an end outside the rules (a resignation, a clock, the ply
    limit). The rules' own result (``"rules": true``), stored with the row for lists that
    read no log, is the state's to tell."""
    return None if result is not None and result.get("rules") else result


class Hub(Commands, Computers, Players, Challenges):
    """Every live table, and every change to any of them."""

    def __init__(self, storage: Storage, search: Pool, quick: Pool, *,
                 now: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 clock_timers: bool = True, max_tables: int = 5000,
                 warm: bool = False) -> None:
        self.storage = storage
        self.search = search  # searches: computer moves of the searching levels, hints
        self.quick = quick  # instant players, replays, pictures of past plies, uploads
        self.now = now
        self.wall = wall
        self.clock_timers = clock_timers
        self.tables: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        self.max_tables = max_tables
        self._loading: dict[str, asyncio.Future] = {}
        # Reads (and, on other databases than SQLite, writes) run in these threads.
        self.db_pool = ThreadPoolExecutor(2 if storage.is_sqlite else 8,
                                          thread_name_prefix="cathedral-db")
        # Password hashes (argon2id, about half a second of CPU each) in threads of their
        # own: a burst of sign-ups queues here, never in front of the database's calls.
        self.hash_pool = ThreadPoolExecutor(2, thread_name_prefix="cathedral-argon2")
        self._tasks: set[asyncio.Task] = set()
        self.closing = False
        self.warm = warm  # start the worker processes with the server, not the first job
        self.lobby_version = 0  # counts the changes the lobby shows: new, joined, ended
        self.bus = None  # the site's Redis channel (``site.SiteBus``) when many processes serve
        self.analysing: set[str] = set()  # addresses with an analysis under way
        self.pictures: OrderedDict[tuple, dict] = OrderedDict()
        self.accounts = Accounts(storage)

    # ----- plumbing -----------------------------------------------------------------------

    async def db(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Runs a database call in the database threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kwargs))

    async def hashing(self, fn: Callable, *args: Any) -> Any:
        """Runs a password hash or check in its own threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.hash_pool, lambda: fn(*args))

    async def write(self, fn: Callable, *args: Any, bulk: bool = False, **kwargs: Any) -> Any:
        """Runs a database write (one short transaction). On SQLite it runs right here: a
        commit without fsync (WAL, synchronous=NORMAL; checkpoints run in a thread) is
        cheaper than handing it to a thread and back, and one writer never waits for the
        file lock. A ``bulk`` write (an uploaded record's plies) runs in a thread instead,
        and so does any write while a thread holds SQLite's writer, so the event loop never
        waits for it. Other databases are across a network: a thread waits for them."""
        if self.storage.is_sqlite and not bulk:
            with self.storage.writer_if_free() as free:
                if free:
                    return fn(*args, **kwargs)
        return await self.db(fn, *args, **kwargs)

    async def _store(self, table: Table, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Writes a change of ``table`` at its revision and counts it; if another writer
        changed the game first, nothing is written, the cached copy is refreshed and the
        request gets a 409. (``set_seat`` answering False changed nothing.)"""
        try:
            done = await self.write(fn, *args, revision=table.revision, **kwargs)
        except PlyTaken:
            await self._stale(table)
            raise Conflict("the game changed meanwhile: reload it and try again") from None
        if done is not False:
            table.revision += 1
        return done

    async def _stale(self, table: Table) -> None:
        """The database is past this cached copy: reload it in place (so this process's
        sockets follow) or, alone on the database, forget it (the next request reloads)."""
        if self.bus is not None:
            await self._reload(table)
        else:
            self.tables.pop(table.id, None)

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
        self.search.start(self.warm)
        self.quick.start(self.warm)
        if self.storage.is_sqlite:
            self.spawn(self._checkpoints())
        ids = await self.db(self.storage.unfinished)
        for game_id in ids:
            try:
                table = await self.table(game_id)
                async with table.lock:
                    if table.finished:  # the last move was stored, its status was not
                        await self._store(table, self.storage.mark_finished, game_id)
                    await self._settle(table)
            except Exception:  # one broken game must not keep the others down
                log.exception("could not pick up game %s", game_id)
        if ids:
            event("resumed", games=len(ids))
        self.spawn(self.rate_due())
        if self.mailer is not None:
            self.spawn(self.send_emails())
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
                stored = await self.db(self.storage.revisions, cached) if cached else {}
                for game_id, revision in stored.items():
                    table = self.tables.get(game_id)
                    if table is not None and table.revision != revision:
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
        await self.search.close()
        await self.quick.close()
        self.db_pool.shutdown(wait=True)
        self.hash_pool.shutdown(wait=True)

    # ----- loading ------------------------------------------------------------------------

    async def table(self, game_id: str, asker: str | None = None) -> Table:
        """Returns the live table, rebuilt from the log on a miss (the replay counted
        against ``asker``); 404 if none. With several processes, the cached copy is checked
        against the database's revision first."""
        checked_game_id(game_id)
        table = self.tables.get(game_id)
        if table is not None:
            self.tables.move_to_end(game_id)
            if self.bus is not None:
                await self._current(table)
            return table
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                stored = await self.db(self.storage.load, game_id)
                table = None if stored is None else await self._rebuilt(stored, asker)
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
            raise NotFound(f"no game {game_id!r}: check the game's address")
        return table

    async def _current(self, table: Table) -> None:
        """Read-your-writes: reloads ``table`` first if another process changed the game
        since this copy (one primary-key query; a reload only when behind)."""
        stored = await self.db(self.storage.revision, table.id)
        if stored is not None and stored != table.revision:
            async with table.lock:
                if stored != table.revision:
                    await self._reload(table)

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

    async def _replayed(self, game: Game, actions: list[int], asker: str | None) -> State:
        """The state after ``actions``: replayed here when short, in a worker when long."""
        if len(actions) <= INLINE_PLIES:
            state = game.new_initial_state()
            for action in actions:
                state.apply_action(action)
            return state
        try:
            text = await self.quick.run("replay", game.name, game.params, actions,
                                        priority=ANALYSIS, owner=asker or "replay",
                                        limit_s=3 * GRACE_S)
        except JobFailed as exc:
            raise Unavailable(f"the game could not be loaded ({exc}): try again") from None
        return game.state_from_json(text)

    async def _rebuilt(self, stored: StoredGame, asker: str | None = None) -> Table:
        game = load_game(stored.game, stored.params)
        state = await self._replayed(game, [a.action for a in stored.actions], asker)
        return self._table(stored, game, state, None)

    def _table(self, stored: StoredGame, game: Game, state: State,
               owner: str | None) -> Table:
        """A live table of a stored game whose state is ``state``."""
        clock = None
        if stored.clock is not None:
            clock = GameClock.new(stored.clock["initial_s"], stored.clock["increment_s"],
                                  game.num_players, bool(stored.clock.get("per_move")))
            for entry in reversed(stored.actions):
                if entry.clock is not None:
                    clock.remaining = list(entry.clock)
                    break
        fill_turns(stored.actions)
        table = Table(
            id=stored.id, game=game, state=state,
            seats=[Seat(s.player, s.kind, s.token_hash, s.open, s.arrived, s.account_id, s.name)
                   for s in stored.seats],
            rated=stored.rated, setting=stored.setting, rating_changes=stored.rating_changes,
            seed=stored.seed, generation=stored.generation, entries=list(stored.actions),
            result=outside_rules(stored.result), clock=clock, read_only=stored.read_only,
            public=stored.public, rematch_of=stored.rematch_of, rematch=stored.rematch,
            created=stored.created, updated=stored.updated, revision=stored.revision,
            owner=owner or "",
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
        fresh = await self._rebuilt(stored)
        if fresh.timer is not None:
            fresh.timer.cancel()
        table.revision = fresh.revision
        before = (table.generation, table.ply, table.result, table.rematch,
                  table.rating_changes, [s.key() for s in table.seats])
        after = (fresh.generation, fresh.ply, fresh.result, fresh.rematch,
                 fresh.rating_changes, [s.key() for s in fresh.seats])
        if before == after:
            return False
        for name in ("state", "seats", "generation", "entries", "result", "clock",
                     "read_only", "public", "rematch_of", "rematch", "updated",
                     "rating_changes"):
            setattr(table, name, getattr(fresh, name))
        self._run_clock(table)
        self._changed(table, publish=False)
        return True

    def _grow(self, table: Table, stored: StoredGame) -> bool:
        """``_reload`` when the stored game only grew: the new plies are applied to the cached
        state (no replay from the start), one view each."""
        table.revision = stored.revision
        fill_turns(stored.actions)
        seats = [Seat(s.player, s.kind, s.token_hash, s.open, s.arrived, s.account_id, s.name)
                 for s in stored.seats]
        result = outside_rules(stored.result)
        same = (len(stored.actions) == table.ply and result == table.result
                and stored.rematch == table.rematch
                and stored.rating_changes == table.rating_changes
                and [s.key() for s in seats] == [s.key() for s in table.seats])
        if same:
            return False
        new = stored.actions[table.ply:]
        for index, entry in enumerate(new):
            table.state = table.state.clone()
            table.state.apply_action(entry.action)
            table.entries.append(entry)
            if index < len(new) - 1:  # the plies between: one view each
                self._changed(table, publish=False)
        table.seats = seats
        table.rating_changes = stored.rating_changes
        table.result, table.read_only, table.public = result, stored.read_only, stored.public
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

    # ----- changing -----------------------------------------------------------------------

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
                clock_after[player] = table.clock.charged(player, now)
            clock_after = [round(t, 3) for t in clock_after]
        before, ply = table.state, table.ply
        if next_state is not None and action is not None:
            steps.append((next_state, described(before, action, ply, player, clock_after,
                                                wall)))
            before, ply = next_state, ply + 1
        while before.is_chance_node():
            outcome = chance_outcome(before, table.seed, ply)
            after = before.clone()
            after.apply_action(outcome)
            steps.append((after, described(before, outcome, ply, CHANCE, clock_after, wall)))
            before, ply = after, ply + 1
        if not steps:
            return
        status = "finished" if before.is_terminal() else "playing"
        # The rules' result is kept with the row, for lists that read no log (a player's
        # games); the table itself reads it from its state.
        ended = None if status == "playing" else {
            "text": before.result_string(), "scores": before.scores(),
            "returns": before.returns(), "resigned": None, "timeout": False, "rules": True}
        await self._store(table, self.storage.append, table.id, table.generation,
                          [entry for _, entry in steps], status=status, result=ended)
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
        if publish:
            if self.bus is not None:
                self.bus.publish(table.id)
            self._after_change(table)
        if table.finished or table.ply == 0 or any(seat.open for seat in table.seats):
            self.lobby_version += 1
        text = table.view_text(self.now(), self.wall)
        message = '{"type":"view","view":' + text + "}"
        for sub in table.subscribers:
            sub.put(message)
            if extra is not None:
                sub.put(extra)

    def subscribe(self, table: Table, sub: Subscriber) -> None:
        """Adds a watcher and queues the current view first (no change can come between)."""
        table.subscribers.add(sub)
        sub.put('{"type":"view","view":' + table.view_text(self.now(), self.wall) + "}")
