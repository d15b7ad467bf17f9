"""What moves a table without a person: chance outcomes, computer players and clocks.

Part of the ``Hub`` (a mixin, so that each job of the hub reads in a file of its own):
after every change ``_settle`` draws any chance outcome at once (from the game's secret
seed) and hands a computer's turn to the worker pools, never running it on the event loop;
an answer that comes back after the game moved on (a take-back, a flag, another process)
is dropped. Clocks run for human seats only; a flag falls by a timer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from typing import TYPE_CHECKING

from cathedral.core.errors import CathedralError
from cathedral.server import results
from cathedral.server.errors import Conflict
from cathedral.server.limits import GRACE_S, MAX_PLIES, run_spec, seconds_of
from cathedral.server.logs import event
from cathedral.server.table import HUMAN, Table, derived
from cathedral.server.thinking import MOVE, JobFailed

if TYPE_CHECKING:
    from cathedral.server.hub import Hub

log = logging.getLogger("cathedral.server")

CLAIM_RETRY_S = 0.5  # how often a process asks again for a computer move another one holds
QUICK = frozenset({"random", "easy", "greedy"})  # players that answer at once


class Computers:
    """The hub's computer moves, chance outcomes and clocks (see the module docstring)."""

    async def _settle(self: Hub, table: Table) -> None:
        """Resolves chance nodes at once and hands a computer's turn to the workers
        (called with the lock held, after every change)."""
        await self._draw_chance(table)
        if not table.finished and table.ply >= MAX_PLIES:
            await self._end(table, results.ply_limit(table.game, table.state.scores(),
                                                     MAX_PLIES), "ply_limit")
            return
        if (not table.finished and table.computer_to_move() and not self.closing
                and (table.auto is None or table.auto.done())):
            table.auto = self.spawn(self._computer(table))

    async def _draw_chance(self: Hub, table: Table) -> None:
        if not table.finished and table.state.is_chance_node():
            await self._commit(table, None, None, -1)

    async def _end(self: Hub, table: Table, result: dict, why: str) -> None:
        """Ends a game outside its rules (with the table's lock held)."""
        await self._store(table, self.storage.finish, table.id, result, self.wall())
        table.result = result
        table.updated = self.wall()
        event(why, game=table.id)
        self._run_clock(table)
        self._changed(table)

    async def _think(self: Hub, table: Table, kind: str, state_json: str, seed: int) -> int:
        """Asks a worker for the computer's move: the quick pool for the instant players,
        the search pool for the others, counted against the table's owner."""
        game = table.game
        spec = run_spec(kind, game)
        seconds = seconds_of(kind, game) or 0.0
        pool = self.quick if kind.partition(":")[0].strip() in QUICK else self.search
        return await pool.run("choose", game.name, game.params, state_json, spec, seed,
                              priority=MOVE, owner=table.owner, limit_s=seconds + GRACE_S)

    async def _computer(self: Hub, table: Table) -> None:
        """Asks the workers for the computer's move and plays it unless the game moved on."""
        while True:
            async with table.lock:
                if table.finished or not table.computer_to_move():
                    return
                ply, generation = table.ply, table.generation
                player = table.state.current_player()
                kind = table.seats[player].kind
                state_json = table.state.to_json()
            seed = derived(table.seed, "ai", generation, ply)
            claim = None
            if self.bus is not None and not self.storage.is_sqlite:
                # Many processes: the move is a job; the one holding its claim makes it.
                key = derived(table.id, "job", generation, ply) - 2 ** 63
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
                action = await self._think(table, kind, state_json, seed)
            except asyncio.CancelledError:
                if claim is not None:
                    await self.db(self.storage.release, claim, key)
                raise
            except (JobFailed, CathedralError) as exc:
                log.warning("computer player %r failed in game %s: %s", kind, table.id, exc)
                action = None
            try:
                if not await self._play_computer(table, ply, generation, player, seed, action):
                    return
            finally:
                if claim is not None:
                    await self.db(self.storage.release, claim, key)
            if table.finished or not table.computer_to_move():
                return

    async def _play_computer(self: Hub, table: Table, ply: int, generation: int, player: int,
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
            except Conflict:
                return False
            # The caller goes on while a computer is to move (red: many decisions a turn).
            await self._settle(table)
            return True

    # ----- clocks -------------------------------------------------------------------------

    def _run_clock(self: Hub, table: Table) -> None:
        """Starts the clock of the human to move (or none) and sets the flag timer."""
        clock = table.clock
        if clock is None:
            return
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        player = table.state.current_player()
        if (table.finished or player < 0 or table.seats[player].kind != HUMAN
                or table.clock_waits_for()):
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

    async def check_clock(self: Hub, game_id: str) -> bool:
        """Ends a turn whose time ran out; returns whether a flag fell. Two players: the
        player out of time loses; more: ``easy`` plays that seat from then on."""
        table = await self.table(game_id)
        async with table.lock:
            return await self._check_flag(table)

    async def _check_flag(self: Hub, table: Table) -> bool:
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
        if table.game.num_players == 2:
            result = results.flag_fell(table.game, table.state.scores(), player)
            await self._store(table, self.storage.finish, table.id, result, self.wall())
            table.result = result
        else:
            await self._store(table, self.storage.set_seat, table.id, player, kind="easy")
            table.seats[player].kind = "easy"
        table.updated = self.wall()
        event("flag", game=table.id, player=player)
        message = json.dumps({"type": "clock", "event": "flag", "player": player,
                              "ply": table.ply})
        self._changed(table, message)
        self._run_clock(table)
        await self._settle(table)
        return True
