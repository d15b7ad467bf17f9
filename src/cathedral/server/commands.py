"""What clients ask of the tables: new games, moves, resignations, take-backs, rematches,
open seats, uploaded records, hints and pictures.

Part of the ``Hub`` (a mixin, so that each job of the hub reads in a file of its own).
Every command takes the table's lock, checks in server-api.md's order (401, 409, 403, 422),
makes its change durable first and only then live, and raises the domain errors of
``errors`` with one sentence each. ``asker`` is the client's address: whom a command's
work is counted against in the workers' fair shares.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cathedral.ai import LEVEL_NAMES
from cathedral.core.contract import Game, State
from cathedral.core.errors import CathedralError
from cathedral.server import models, results
from cathedral.server.errors import (
    Conflict,
    Forbidden,
    Invalid,
    TooMany,
    Unauthorized,
    Unavailable,
    Unsupported,
)
from cathedral.server.limits import (
    ANONYMOUS_LEVELS,
    GRACE_S,
    MAX_PLIES,
    check_params,
    check_seat,
    run_spec,
    seconds_of,
)
from cathedral.server.logs import event
from cathedral.server.security import hash_token, new_token
from cathedral.server.storage import StoredAction, StoredGame, StoredSeat
from cathedral.server.table import HUMAN, INLINE_PLIES, Table, derived, load_game
from cathedral.server.thinking import ANALYSIS, HINT, JobFailed

if TYPE_CHECKING:
    from cathedral.server.auth import Signed
    from cathedral.server.hub import Hub

PICTURES_KEPT = 512  # pictures of past plies kept for replays (a few MB)
DAY_S = 24 * 3600.0


def clock_of(spec: models.ClockSpec | models.CorrespondenceSpec | None) -> dict | None:
    """The stored form of a clock asked for: Fischer, or days per move (correspondence)."""
    if spec is None:
        return None
    if isinstance(spec, models.CorrespondenceSpec):
        return {"initial_s": spec.days_per_move * DAY_S, "increment_s": 0.0, "per_move": True}
    return {"initial_s": spec.initial_s, "increment_s": spec.increment_s}


class Commands:
    """The hub's commands (see the module docstring)."""

    # ----- creating -----------------------------------------------------------------------

    async def create(self: Hub, request: models.CreateGame, asker: str,
                     who: Signed | None = None) -> dict:
        """A new table; signed in, the first human seat is the account's. A rated table
        needs an account, a rated setting's standard parameters, and every other seat a
        computer level with a rating or an open seat (public) that an account takes."""
        check_params(request.game, request.params)
        try:
            game = load_game(request.game, request.params)  # cached: some games load slowly
        except CathedralError as exc:
            raise Invalid(str(exc)) from None
        names = game.player_names()
        if len(request.seats) != len(names):
            raise Invalid(f"{len(request.seats)} seats given, {request.game} with these "
                          f"parameters has {len(names)} players ({', '.join(names)})")
        for kind in request.seats:
            check_seat(kind, game)
        first_human = next((i for i, k in enumerate(request.seats) if k == HUMAN), None)
        setting = self.rated_setting(game, request.seats, request.public, who) \
            if request.rated else None
        if who is not None and first_human is None:
            who = None  # a table of computers only: nobody's seat
        tokens: dict[int, str] = {}
        seats = []
        table_id = secrets.token_urlsafe(12)
        for player, kind in enumerate(request.seats):
            is_open = request.public and kind == HUMAN and player != first_human
            token_hash = None
            account = None
            if kind == HUMAN and not is_open:
                if who is not None and player == first_human:
                    account = who.account
                    tokens[player] = await self.seat_secret(table_id, player, account.id)
                else:
                    tokens[player] = new_token()
                token_hash = hash_token(tokens[player])
            seats.append(StoredSeat(player, kind, token_hash, is_open,
                                    account_id=None if account is None else account.id,
                                    name=None if account is None else account.name))
        table = await self._store_new(game, seats, clock=clock_of(request.clock),
                                      public=request.public, owner=asker, game_id=table_id,
                                      setting=setting)
        return self.created_reply(table, tokens)

    def created_reply(self: Hub, table: Table, tokens: dict[int, str]) -> dict:
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

    async def _store_new(self: Hub, game: Game, seats: list[StoredSeat], *, clock: dict | None,
                         public: bool, owner: str, rematch_of: Table | None = None,
                         game_id: str | None = None, setting: str | None = None) -> Table:
        """Stores and opens a new table; ``setting`` makes it rated."""
        wall = self.wall()
        stored = StoredGame(
            id=game_id or secrets.token_urlsafe(12), game=game.name, params=dict(game.params),
            rules_version=game.rules_version, seed=secrets.token_hex(16), status="playing",
            generation=0, result=None, clock=clock, read_only=False, public=public,
            rematch_of=None if rematch_of is None else rematch_of.id, rematch=None,
            created=wall, updated=wall, seats=seats, rated=setting is not None,
            setting=setting,
        )
        if rematch_of is None:
            await self.write(self.storage.create_game, stored)
        else:
            await self._store(rematch_of, self.storage.create_game, stored)
        table = self._table(stored, game, game.new_initial_state(), owner)
        self._keep(table)
        event("created", game=table.id, name=game.name, seats=table.kinds())
        async with table.lock:
            await self._settle(table)
        return table

    # ----- moving -------------------------------------------------------------------------

    def _authorise(self: Hub, table: Table, token: str | None) -> int:
        if not token:
            raise Unauthorized("no seat token: send 'Authorization: Bearer <your seat's "
                               "secret>' as given when the game was created")
        player = table.player_of(token)
        if player is None:
            raise Unauthorized("unknown seat token for this game: use the secret your "
                               "seat's invitation gave")
        return player

    async def seat_of(self: Hub, table: Table, token: str | None) -> int:
        """Returns the seat a secret opens (401 if none): the page asks as it opens, which
        marks the seat arrived (its clock waits for that)."""
        player = self._authorise(table, token)
        seat = table.seats[player]
        if not seat.arrived:
            async with table.lock:
                if not seat.arrived:
                    await self._store(table, self.storage.set_seat, table.id, player,
                                      arrived=True)
                    seat.arrived = True
                    table.updated = self.wall()
                    self._run_clock(table)
                    self._changed(table)
        return player

    async def move(self: Hub, game_id: str, token: str | None, move: models.Move) -> str:
        """Plays a human's move: 401, 409, 403, 422 in that order; returns the new view."""
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            if table.finished:
                raise Conflict("the game is over: no more moves")
            if table.clock is not None and await self._check_flag(table):
                raise Conflict("time ran out before this move arrived")
            if move.ply != table.ply and self.bus is not None:
                await self._reload(table)  # another process may have moved: check its ply
            if move.ply != table.ply:
                raise Conflict(f"the game is at ply {table.ply}, not {move.ply}: "
                               "reload the game and move from there")
            if table.state.current_player() != player:
                raise Forbidden(f"it is not {table.game.player_names()[player]}'s turn")
            if table.seats[player].kind != HUMAN:
                raise Forbidden("this seat is played by the computer now")
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
            raise Invalid(f"illegal move: {exc}") from None
        return state, action

    # ----- other actions of a seat --------------------------------------------------------

    async def resign(self: Hub, game_id: str, token: str | None,
                     request: models.Resign) -> str:
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            if table.finished:
                raise Conflict("the game is over already")
            if request.ply is not None and request.ply != table.ply:
                raise Conflict(f"the game is at ply {table.ply}, not {request.ply}")
            result = results.resigned(table.game, table.state.scores(), player)
            await self._end(table, result, "resign")
            return table.view_text(self.now(), self.wall)

    async def takeback(self: Hub, game_id: str, token: str | None) -> str:
        """Takes back the human's last move and the computer's replies (never past a chance
        outcome the server drew after it): a new generation of the log, nothing rewritten."""
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            if table.read_only or table.result is not None:
                raise Conflict("the game is over: nothing can be taken back")
            if table.only_human() != player:
                raise Forbidden("a take-back needs every other seat to be a computer")
            point = table.takeback_point(player)
            if point is None:
                raise Conflict("nothing to take back: no move of yours since the last "
                               "chance outcome")
            kept = table.entries[:point]
            await self._store(table, self.storage.take_back, table.id, table.generation,
                              kept, self.wall())
            if table.auto is not None and not table.auto.done():
                table.auto.cancel()  # its answer is for a position that is gone
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

    async def rematch(self: Hub, game_id: str, token: str | None,
                      asker: str) -> tuple[int, dict]:
        """A new game with the same game and parameters, seats rotated by one; each human
        keeps their secret. Returns (201, reply), or (200, reply) if it exists already."""
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            assert token is not None
            if not table.finished or table.read_only:
                raise Conflict("a rematch needs a finished game")
            n = len(table.seats)
            account = table.seats[player].account_id

            async def mine(game: str) -> str:
                """The asker's secret at the rematch: its own, or its account's there."""
                return token if account is None else await self.seat_secret(
                    game, (player + 1) % n, account)

            if table.rematch is not None:
                other = await self.table(table.rematch)
                return 200, self.created_reply(other, {(player + 1) % n: await mine(other.id)})
            seats = [StoredSeat(0, "", None)] * n
            new_id = secrets.token_urlsafe(12)
            for seat in table.seats:
                moved = (seat.player + 1) % n
                token_hash = seat.token_hash
                if seat.account_id is not None:  # an account's secret is its own per game
                    token_hash = hash_token(await self.seat_secret(new_id, moved,
                                                                   seat.account_id))
                seats[moved] = StoredSeat(moved, seat.kind, token_hash, seat.open,
                                          account_id=seat.account_id, name=seat.name)
            clock = (None if table.clock is None else
                     {"initial_s": table.clock.initial_s,
                      "increment_s": table.clock.increment_s,
                      **({"per_move": True} if table.clock.per_move else {})})
            new = await self._store_new(table.game, seats, clock=clock, public=table.public,
                                        owner=asker, rematch_of=table, game_id=new_id,
                                        setting=table.setting)
            table.rematch = new.id
            self._changed(table)
            return 201, self.created_reply(new, {(player + 1) % n: await mine(new.id)})

    async def join(self: Hub, game_id: str, request: models.Join,
                   who: Signed | None = None) -> dict:
        """Takes an open seat of a public game: a fresh secret for the newcomer, the seat the
        account's if signed in (a rated table's seats are for accounts only)."""
        table = await self.table(game_id)
        async with table.lock:
            if request.player >= len(table.seats):
                raise Invalid(f"there is no player {request.player} in this game "
                              f"(0..{len(table.seats) - 1})")
            seat = table.seats[request.player]
            if not seat.open or table.finished:
                raise Conflict(f"seat {request.player} is not open")
            account = None
            if who is not None:
                account = (who.account.id, who.account.name)
                if any(s.account_id == who.account.id for s in table.seats):
                    raise Conflict("you have a seat at this table already")
            if table.rated and account is None:
                raise Unauthorized("a rated table's seats are for accounts: sign in first")
            token = (new_token() if account is None else
                     await self.seat_secret(table.id, seat.player, account[0]))
            taken = await self._store(table, self.storage.set_seat, table.id, seat.player,
                                      token_hash=hash_token(token), open=False,
                                      only_if_open=True, account=account)
            if not taken:
                raise Conflict(f"seat {request.player} was taken meanwhile")
            seat.token_hash = hash_token(token)
            seat.open = False
            if account is not None:
                seat.account_id, seat.name = account
            self.lobby_version += 1
            table.updated = self.wall()
            self._changed(table)
            return {"player": seat.player, "token": token,
                    "url": f"/g/{table.id}#{token}"}

    # ----- records, hints, pictures -------------------------------------------------------

    async def upload(self: Hub, text: str, asker: str) -> dict:
        """Stores a record as a read-only finished game; the record is read, checked and
        replayed in a worker, and its plies stored from a database thread."""
        try:
            found = await self.quick.run("upload", text, MAX_PLIES, priority=ANALYSIS,
                                         owner=asker, limit_s=6 * GRACE_S)
        except JobFailed as exc:
            raise Unavailable(f"the record could not be read ({exc}): try again") from None
        game = load_game(found["game"], found["params"])
        state = await self.db(game.state_from_json, found["state"])  # up to 20,000 plies
        wall = self.wall()
        stored = StoredGame(
            id=secrets.token_urlsafe(12), game=game.name, params=dict(game.params),
            rules_version=game.rules_version, seed=secrets.token_hex(16), status="finished",
            generation=0, result=found["result"], clock=None, read_only=True, public=False,
            rematch_of=None, rematch=None, created=wall, updated=wall,
            seats=[StoredSeat(p, name, None) for p, name in enumerate(found["players"])],
            actions=[StoredAction(ply, action, player, notation, None, wall, text, turn,
                                  skipped)
                     for ply, (action, player, notation, text, turn, skipped)
                     in enumerate(found["plies"])],
        )
        await self.write(self.storage.create_game, stored, bulk=True)
        self._keep(self._table(stored, game, state, asker))
        return {"id": stored.id, "watch_url": f"/g/{stored.id}",
                "replay_url": f"/replay/{stored.id}"}

    async def hint(self: Hub, game_id: str, token: str | None, ply: int | None, level: str,
                   asker: str, progress: Callable[[dict], None] | None = None) -> dict:
        """Analyses a position in the search workers: for a seated player against the
        computer (``HINT``), or for anyone once the game is over (``ANALYSIS``, levels up
        to ``hard``); one at a time per address."""
        table = await self.table(game_id, asker=asker)
        if level not in LEVEL_NAMES:
            raise Invalid(f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
        if table.finished:
            priority = ANALYSIS
            if level not in ANONYMOUS_LEVELS:
                raise Invalid(f"level {level!r} is not offered for analysis here (levels: "
                              f"{', '.join(ANONYMOUS_LEVELS)})")
        else:
            priority = HINT
            player = self._authorise(table, token) if token else None
            if table.rated:
                raise Forbidden("no hints during a rated game: ask once it is over")
            if player is None or table.only_human() != player:
                raise Forbidden("hints are for finished games, or for a human playing only "
                                "computers (send your seat's token)")
        ply = table.ply if ply is None else ply
        if not 0 <= ply <= table.ply:
            raise Invalid(f"ply {ply} is outside the game (0..{table.ply})")
        if ply <= INLINE_PLIES:
            state = table.state_at(ply)
            if state.is_terminal() or state.is_chance_node():
                raise Invalid(f"nobody is to move at ply {ply}")
        if asker in self.analysing:
            raise TooMany("one analysis at a time from your address: wait for the one under "
                          "way", retry_after=1)
        self.analysing.add(asker)
        try:
            game = table.game
            return await self.search.run(
                "analyse", game.name, game.params, table.actions(ply), level,
                run_spec(level, game), derived(table.seed, "hint", ply), priority=priority,
                owner=asker, limit_s=(seconds_of(level, game) or 0.0) + GRACE_S, progress=progress)
        except JobFailed as exc:
            raise Unavailable(f"the analysis could not finish ({exc}): try again") from None
        finally:
            self.analysing.discard(asker)

    async def picture(self: Hub, game_id: str, ply: int | None, asker: str) -> dict:
        """``State.picture()`` at a ply, with ``scores`` there: drawn in a thread, after a
        replay in a worker when the ply is far from now; past plies are kept (a replay steps
        back and forth)."""
        table = await self.table(game_id, asker=asker)
        ply = table.ply if ply is None else ply
        if not 0 <= ply <= table.ply:
            raise Invalid(f"ply {ply} is outside the game (0..{table.ply})")
        key = (table.id, table.generation, ply)
        drawn = self.pictures.get(key)
        if drawn is not None:
            self.pictures.move_to_end(key)
            return drawn
        try:
            if ply == table.ply or ply <= INLINE_PLIES:
                state = table.state_at(ply)
                drawn = await asyncio.get_running_loop().run_in_executor(None, state.picture)
                drawn = {**drawn, "scores": state.scores()}
            else:
                game = table.game
                drawn = await self.quick.run("picture", game.name, game.params,
                                             table.actions(ply), priority=ANALYSIS,
                                             owner=asker, limit_s=3 * GRACE_S)
        except NotImplementedError:
            raise Unsupported(f"{table.game.name} has no picture yet") from None
        except JobFailed as exc:
            raise Unavailable(f"the picture could not be drawn ({exc}): try again") from None
        if ply < table.ply:
            self.pictures[key] = drawn
            while len(self.pictures) > PICTURES_KEPT:
                self.pictures.popitem(last=False)
        return drawn
