"""What the hub does for accounts: their seats' secrets, claiming an anonymous seat, rating
a finished rated game, notifications (made once, e-mailed once), an account's games and a
player's page, and forgetting a deleted account.

Part of the ``Hub`` (a mixin, like ``commands`` and ``computer``). An account's seat secret is
derived from the site's secret (HMAC of the game, seat and account), so the account can open
its seat from any device, and everything about seats and moves stays as it is for anonymous
ones. Ratings and notifications never run on the path of a move's answer: a change schedules
them as tasks (``_after_change``), and a start-up catches up with any a dead process left.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
from typing import TYPE_CHECKING

from cathedral.server import glicko
from cathedral.server.errors import Conflict, Invalid, NotFound, Unauthorized
from cathedral.server.logs import event
from cathedral.server.security import hash_token
from cathedral.server.table import HUMAN, Table

if TYPE_CHECKING:
    from cathedral.core.contract import Game
    from cathedral.server.auth import Signed
    from cathedral.server.hub import Hub

log = logging.getLogger("cathedral.server")
EMAIL_POLL_S = 1.0


def result_for(returns: list[float] | None, player: int) -> str | None:
    """A seat's result in words: win, loss or draw for two; a place for more."""
    if not returns:
        return None
    mine = returns[player]
    if len(returns) == 2:
        other = returns[1 - player]
        return "win" if mine > other else "loss" if mine < other else "draw"
    place = 1 + sum(1 for r in returns if r > mine)
    return f"place {place} of {len(returns)}"


class Players:
    """The hub's work for accounts (see the module docstring)."""

    mailer = None  # ``mailer.Mailer`` when the site sends e-mail
    public_url: str | None = None

    async def seat_secret(self: Hub, game_id: str, player: int, account_id: str) -> str:
        key = (self.accounts.known_secret or await self.db(self.accounts.site_secret)).encode()
        digest = hmac.new(key, f"seat:{game_id}:{player}:{account_id}".encode(),
                          hashlib.sha256).digest()[:24]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def rated_setting(self: Hub, game: Game, seats: list[str], public: bool,
                      who: Signed | None) -> str:
        """The setting of a rated table asked for, or the reason it cannot be rated."""
        if who is None:
            raise Unauthorized("a rated table needs an account: sign in first")
        setting = glicko.setting_of(game.name, dict(game.params))
        if setting is None:
            raise Invalid(f"{game.name} with these parameters is not rated: rated settings "
                          f"are {', '.join(glicko.SETTINGS)} with standard parameters")
        humans = [i for i, k in enumerate(seats) if k == HUMAN]
        if not humans:
            raise Invalid("a rated table needs your seat: at least one 'human' seat")
        for player, kind in enumerate(seats):
            if kind == HUMAN and player != humans[0] and not public:
                raise Invalid("a rated table's other human seats are open seats that accounts "
                              "join: make it public")
            if kind != HUMAN and glicko.computer_rating(setting, kind) is None:
                raise Invalid(f"{kind!r} has no rating: rated computer seats are "
                              f"{', '.join(glicko.COMPUTER_RATINGS[setting])}")
        return setting

    # ----- seats ----------------------------------------------------------------------------

    async def claim(self: Hub, game_id: str, token: str | None, who: Signed) -> dict:
        """Makes the anonymous seat ``token`` opens the account's; its secret changes."""
        table = await self.table(game_id)
        async with table.lock:
            player = self._authorise(table, token)
            seat = table.seats[player]
            if seat.account_id == who.account.id:
                raise Conflict("this seat is yours already")
            if seat.account_id is not None:
                raise Conflict("this seat belongs to another account")
            if any(s.account_id == who.account.id for s in table.seats):
                raise Conflict("you have another seat at this table")
            if table.finished:
                raise Conflict("the game is over: its seats can no longer be claimed")
            secret = await self.seat_secret(table.id, player, who.account.id)
            done = await self._store(table, self.storage.set_seat, table.id, player,
                                     token_hash=hash_token(secret), only_if_anonymous=True,
                                     account=(who.account.id, who.account.name))
            if not done:
                raise Conflict("this seat was claimed meanwhile")
            seat.token_hash = hash_token(secret)
            seat.account_id, seat.name = who.account.id, who.account.name
            self._changed(table)
            return {"player": player, "token": secret, "url": f"/g/{table.id}#{secret}"}

    async def forget_account(self: Hub, account_id: str) -> None:
        """Deletes an account's personal data; its cached games reload with the name gone."""
        games = await self.db(self.accounts.delete, account_id)
        for game_id in games:
            table = self.tables.get(game_id)
            if table is not None:
                async with table.lock:
                    await self._reload(table)
            if self.bus is not None:
                self.bus.publish(game_id)

    # ----- after each change ----------------------------------------------------------------

    def _after_change(self: Hub, table: Table) -> None:
        """Schedules what a change made here leads to, off the answer's path: a finished
        rated game's rating; a correspondence player's turn notification."""
        if table.rated and table.finished and not table.rating_spawned:
            table.rating_spawned = True
            self.spawn(self.rate(table.id))
        clock = table.clock
        if clock is None or not clock.per_move or table.finished or not table.entries:
            return
        player = table.state.current_player()
        if player < 0 or table.entries[-1].player == player:
            return
        seat = table.seats[player]
        if seat.account_id is None or seat.kind != HUMAN:
            return
        mark = (table.generation, table.ply)
        if table.notified == mark:
            return
        table.notified = mark
        text, actor = f"Your turn in {table.game.info.title}", None
        others = [s for s in table.seats if s.player != player]
        if len(others) == 1:  # named only where one account is named
            text += f" against {others[0].name or others[0].kind}"
            actor = others[0].account_id
        self.spawn(self._tell_turn(table.id, player, seat.account_id, text, actor))

    async def _tell_turn(self: Hub, game_id: str, player: int, account_id: str, text: str,
                         actor: str | None) -> None:
        """A turn notification whose link opens the player's seat."""
        url = f"/g/{game_id}#" + await self.seat_secret(game_id, player, account_id)
        await self.notify(account_id, "turn", text, url, actor)

    async def rate(self: Hub, game_id: str) -> None:
        """Rates a finished rated game (once, whichever process gets there first)."""
        try:
            changes = await self.db(self.accounts.apply_rating, game_id, self.wall(),
                                    _rating_changes)
        except Exception:  # the start-up sweep tries again
            log.exception("rating game %s failed", game_id)
            return
        if changes is None:
            return
        event("rated", game=game_id)
        table = self.tables.get(game_id)
        if table is not None:
            async with table.lock:
                await self._reload(table)
        if self.bus is not None:
            self.bus.publish(game_id)

    async def rate_due(self: Hub) -> None:
        for game_id in await self.db(self.accounts.due_ratings):
            await self.rate(game_id)

    # ----- notifications --------------------------------------------------------------------

    async def notify(self: Hub, account_id: str, kind: str, text: str, url: str | None,
                     actor: str | None = None) -> None:
        """Tells an account of something ``actor`` (the account ``text`` names) did; the
        notification goes when the actor's account is deleted."""
        try:
            account = await self.db(self.accounts.get, account_id)
            if account is None:
                return
            email = bool(self.mailer is not None and account.email
                         and account.notify.get("email"))
            await self.db(self.accounts.notify, account_id, kind, text, url, self.wall(),
                          email=email, actor_id=actor)
        except Exception:
            log.exception("notification for %s failed", account_id)

    async def send_emails(self: Hub) -> None:
        """Sends the e-mails due, each claimed by one process first (sent once)."""
        while True:
            await asyncio.sleep(EMAIL_POLL_S)
            try:
                for mail in await self.db(self.accounts.claim_emails):
                    link = (self.public_url or "").rstrip("/") + (mail["url"] or "/me")
                    text = (f"Hello {mail['name']},\n\n{mail['text']}.\n\n{link}\n\n"
                            "You can switch these e-mails off on your page (My games).\n")
                    try:
                        await asyncio.get_running_loop().run_in_executor(
                            None, self.mailer.send, mail["to"], f"Cathedral: {mail['text']}",
                            text)
                        state = "sent"
                    except Exception as exc:
                        log.warning("e-mail %s not sent: %s", mail["id"], type(exc).__name__)
                        state = "failed"
                    await self.db(self.accounts.emailed, mail["id"], state)
            except Exception:  # a busy database now is a try a second later
                log.exception("sending e-mail failed")

    # ----- puzzles --------------------------------------------------------------------------

    async def puzzle_tried(self: Hub, who: Signed, puzzle_id: str, difficulty: float,
                           solved: bool) -> dict | None:
        """Counts a signed-in person's first try at a puzzle against its rating (Glicko-2,
        the puzzle a fixed opponent rated ``difficulty``). None for a second try."""

        def rate(before: dict | None) -> dict:
            mine = glicko.Rating() if before is None else glicko.Rating(
                before["rating"], before["rd"], before["volatility"])
            puzzle = glicko.Rating(difficulty, glicko.COMPUTER_RD)
            after = glicko.rate(mine, [(puzzle, 1.0 if solved else 0.0)])
            return {"rating": after.rating, "rd": after.rd, "volatility": after.volatility}

        return await self.db(self.accounts.record_puzzle, who.account.id, puzzle_id, solved,
                             self.wall(), rate)

    # ----- lists ----------------------------------------------------------------------------

    async def my_games(self: Hub, who: Signed) -> list[dict]:
        found = await self.db(self.accounts.games_of, who.account.id)
        games = []
        for entry in found:
            row, player = entry["row"], entry["player"]
            item = _game_item(row, player, entry["seats"])
            item["url"] = f"/g/{row.id}#" + await self.seat_secret(row.id, player,
                                                                   who.account.id)
            item["your_turn"] = False
            if row.status == "playing":
                table = await self.table(row.id)
                item["your_turn"] = (table.shown_player() == player and not table.finished)
            games.append(item)
        waiting = sorted((g for g in games if g["your_turn"]), key=lambda g: g["updated"])
        playing = [g for g in games if g["status"] == "playing" and not g["your_turn"]]
        finished = [g for g in games if g["status"] == "finished"]
        return waiting + playing + finished

    async def player_page(self: Hub, name: str) -> dict:
        account = await self.db(self.accounts.by_name, name)
        if account is None:
            raise NotFound(f"no player named {name!r}")
        ratings = await self.db(self.accounts.ratings, account.id)
        for setting, entry in ratings.items():
            entry["provisional"] = entry.get("rd", glicko.MAX_RD) >= glicko.PROVISIONAL_RD
            entry.setdefault("rating", glicko.Rating().rating)
            entry.setdefault("rd", glicko.MAX_RD)
            entry.setdefault("games", 0)
            entry.pop("volatility", None)
            ratings[setting] = entry
        history = {h["game_id"]: h for entry in ratings.values() for h in entry["history"]}
        games = []
        for entry in await self.db(self.accounts.games_of, account.id):
            row, player = entry["row"], entry["player"]
            item = _game_item(row, player, entry["seats"])
            rated = history.get(row.id)
            games.append({"id": row.id, "game": row.game, "setting": row.setting,
                          "names": item["names"], "player": player, "result": item["result"],
                          "rated": bool(row.rated), "status": row.status,
                          "change": None if rated is None else
                          round(rated["rating"] - rated["before"], 1),
                          "at": row.updated, "replay_url": f"/replay/{row.id}"})
        return {"name": account.name, "created": account.created, "ratings": ratings,
                "games": games}

    async def player_records(self: Hub, name: str) -> str:
        account = await self.db(self.accounts.by_name, name)
        if account is None:
            raise NotFound(f"no player named {name!r}")
        found = await self.db(self.accounts.games_of, account.id, finished_only=True,
                              limit=1000)
        texts = []
        for entry in found:
            try:
                table = await self.table(entry["row"].id)
            except NotFound:
                continue
            texts.append(table.record_text())
        return "[" + ",".join(texts) + "]"


def _game_item(row, player: int, seats: list) -> dict:
    result = None if row.result is None else json.loads(row.result)
    returns = None if result is None else result.get("returns")
    return {"id": row.id, "game": row.game, "params": json.loads(row.params),
            "setting": row.setting, "names": [s.name or s.kind for s in seats],
            "player": player, "status": row.status, "rated": bool(row.rated),
            "result": result_for(returns, player),
            "clock": None if row.clock is None else json.loads(row.clock),
            "updated": row.updated}


def _rating_changes(game: dict, seats: list[dict]) -> list | None:
    """Each seat's new rating (``accounts.apply_rating``'s ``compute``): Glicko-2 over the
    pairwise results by finishing place; computers keep their fixed ratings."""
    result = game["result"]
    setting = game["setting"]
    returns = None if result is None else result.get("returns")
    if returns is None or setting is None:
        return None
    ratings, fixed = [], []
    for seat in seats:
        if seat["account_id"] is not None:
            r = seat["rating"]
            ratings.append(glicko.Rating() if r is None else glicko.Rating(*r))
            fixed.append(False)
        else:
            computer = (glicko.computer_rating(setting, seat["kind"])
                        if seat["kind"] != HUMAN else None)
            ratings.append(computer or glicko.Rating())
            fixed.append(True)
    after = glicko.rate_game(ratings, returns, fixed)
    return [None if is_fixed else {"before": old.rating, "after": new.rating, "rd": new.rd,
                                   "volatility": new.volatility}
            for old, new, is_fixed in zip(ratings, after, fixed, strict=True)]

