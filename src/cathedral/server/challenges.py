"""Finding an opponent: open challenges anyone signed in may accept, direct challenges to a
named player, and quick pairing by rating range (a seek: an open challenge with a range).

Part of the ``Hub`` (a mixin). A challenge is accepted once: the database's conditional
update decides between two accepters, on one process or several; the game starts at once,
seats in random order, each seat its account's.
"""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING

from cathedral.core.errors import CathedralError
from cathedral.server import glicko, models
from cathedral.server.accounts import Challenge, Taken
from cathedral.server.commands import clock_of
from cathedral.server.errors import Conflict, Forbidden, Invalid, NotFound
from cathedral.server.limits import check_params
from cathedral.server.logs import event
from cathedral.server.security import hash_token
from cathedral.server.storage import StoredSeat
from cathedral.server.table import HUMAN, load_game

if TYPE_CHECKING:
    from cathedral.server.auth import Signed
    from cathedral.server.hub import Hub

CHALLENGE_S = 7 * 24 * 3600.0  # an open challenge is listed for a week
SEEK_S = 600.0  # a quick-pairing seek for ten minutes (its page asks every few seconds)


def clock_words(clock: dict | None) -> str:
    if clock is None:
        return "no clock"
    if clock.get("per_move"):
        days = round(clock["initial_s"] / 86400)
        return f"{days} day{'s' if days != 1 else ''} a move"
    return f"{clock['initial_s'] / 60:g}+{clock['increment_s']:g}"


class Challenges:
    """The hub's challenges and pairing (see the module docstring)."""

    def challenge_view(self: Hub, c: Challenge, who: Signed | None) -> dict:
        return {"id": c.id, "by": {"name": c.by_name,
                                   "rating": None if c.by_rating is None else
                                   round(c.by_rating)},
                "to": c.to_name, "game": c.game, "params": c.params, "setting": c.setting,
                "clock": c.clock, "rated": c.rated, "range": c.range, "status": c.status,
                "game_id": c.game_id, "url": None, "created": c.created}

    async def _with_url(self: Hub, view: dict, c: Challenge, who: Signed | None) -> dict:
        """Adds the asker's seat link once the challenge's game exists."""
        if who is not None and c.game_id and who.account.id in (c.by_id, c.accepted_by):
            table = await self.table(c.game_id)
            for seat in table.seats:
                if seat.account_id == who.account.id:
                    view["url"] = f"/g/{c.game_id}#" + await self.seat_secret(
                        c.game_id, seat.player, who.account.id)
        return view

    def _setting(self: Hub, game: str, params: dict, rated: bool):
        check_params(game, params)
        try:
            loaded = load_game(game, params)
        except CathedralError as exc:
            raise Invalid(str(exc)) from None
        if loaded.num_players != 2:
            raise Invalid("challenges are for two players: for more, open a public table "
                          "in the lobby")
        setting = glicko.setting_of(game, dict(loaded.params))
        if rated and setting is None:
            raise Invalid(f"{game} with these parameters is not rated: rated settings are "
                          f"{', '.join(glicko.SETTINGS)} with standard parameters")
        return loaded, setting

    async def new_challenge(self: Hub, body: models.ChallengeBody, who: Signed, *,
                            range_: tuple[float, float] | None = None) -> dict:
        loaded, setting = self._setting(body.game, body.params, body.rated)
        to = None
        if body.to is not None:
            to = await self.db(self.accounts.by_name, body.to)
            if to is None:
                raise NotFound(f"no player named {body.to!r}")
            if to.id == who.account.id:
                raise Invalid("you cannot challenge yourself")
        clock = clock_of(body.clock)
        challenge_id = secrets.token_urlsafe(12)
        await self.db(self.accounts.new_challenge, {
            "id": challenge_id, "by_id": who.account.id, "to_id": None if to is None else to.id,
            "game": loaded.name, "params": json.dumps(dict(loaded.params), sort_keys=True),
            "clock": None if clock is None else json.dumps(clock, sort_keys=True),
            "rated": body.rated, "setting": setting,
            "range_lo": None if range_ is None else range_[0],
            "range_hi": None if range_ is None else range_[1],
            "status": "open", "game_id": None, "accepted_by": None, "created": self.wall()})
        self.lobby_version += 1
        if to is not None:
            self.spawn(self.notify(
                to.id, "challenge",
                f"{who.account.name} challenges you to {loaded.info.title} "
                f"({'rated' if body.rated else 'casual'}, {clock_words(clock)})", "/me",
                who.account.id))
        found = await self.db(self.accounts.challenge, challenge_id)
        return self.challenge_view(found, who)

    async def get_challenge(self: Hub, challenge_id: str, who: Signed | None) -> dict:
        found = await self.db(self.accounts.challenge, challenge_id)
        if found is None:
            raise NotFound(f"no challenge {challenge_id!r}")
        return await self._with_url(self.challenge_view(found, who), found, who)

    async def list_challenges(self: Hub, who: Signed | None) -> dict:
        now = self.wall()
        lists = await self.db(self.accounts.challenges,
                              None if who is None else who.account.id, now - CHALLENGE_S)
        out = {}
        for name, items in lists.items():
            out[name] = [await self._with_url(self.challenge_view(c, who), c, who)
                         for c in items
                         if c.range is None or c.created > now - SEEK_S or name == "mine"]
        return out

    async def accept(self: Hub, challenge_id: str, who: Signed) -> dict:
        found = await self.db(self.accounts.challenge, challenge_id)
        if found is None:
            raise NotFound(f"no challenge {challenge_id!r}")
        if found.by_id == who.account.id:
            raise Conflict("this is your own challenge")
        if found.to_id is not None and found.to_id != who.account.id:
            raise Forbidden("this challenge is for another player")
        if found.status != "open":
            raise Conflict(f"this challenge is {found.status} already")
        try:
            await self.db(self.accounts.settle_challenge, challenge_id, "accepted",
                          accepted_by=who.account.id)
        except Taken:
            raise Conflict("this challenge was taken meanwhile") from None
        return await self._start(found, who)

    async def _start(self: Hub, c: Challenge, who: Signed) -> dict:
        """The game of an accepted challenge: seats in random order, each an account's."""
        game = load_game(c.game, c.params)
        people = [(c.by_id, c.by_name), (who.account.id, who.account.name)]
        if secrets.randbelow(2):
            people.reverse()
        game_id = secrets.token_urlsafe(12)
        seats, secrets_of = [], {}
        for player, (account_id, name) in enumerate(people):
            secret = await self.seat_secret(game_id, player, account_id)
            secrets_of[account_id] = f"/g/{game_id}#{secret}"
            seats.append(StoredSeat(player, HUMAN, hash_token(secret), account_id=account_id,
                                    name=name))
        await self._store_new(game, seats, clock=c.clock, public=True,
                              owner=f"challenge:{c.id}", game_id=game_id,
                              setting=c.setting if c.rated else None)
        await self.db(self.accounts.game_of_challenge, c.id, game_id)
        event("challenge accepted", game=game_id, rated=c.rated)
        self.spawn(self.notify(c.by_id, "accepted",
                               f"{who.account.name} accepted your challenge: "
                               f"{game.info.title}, {clock_words(c.clock)}",
                               secrets_of[c.by_id], who.account.id))
        first = people[0][0]
        if c.clock is not None and c.clock.get("per_move") and first != who.account.id:
            self.spawn(self.notify(first, "turn", f"Your turn in {game.info.title} against "
                                   f"{who.account.name}", secrets_of[first], who.account.id))
        return {"game_id": game_id, "url": secrets_of[who.account.id]}

    async def withdraw(self: Hub, challenge_id: str, who: Signed) -> None:
        found = await self.db(self.accounts.challenge, challenge_id)
        if found is None or who.account.id not in (found.by_id, found.to_id):
            raise NotFound(f"no challenge {challenge_id!r} of yours")
        status = "cancelled" if found.by_id == who.account.id else "declined"
        try:
            await self.db(self.accounts.settle_challenge, challenge_id, status)
        except Taken:
            raise Conflict(f"this challenge is {found.status} already") from None
        self.lobby_version += 1

    async def pair(self: Hub, body: models.PairingBody, who: Signed) -> tuple[int, dict]:
        """Quick pairing: joins the oldest waiting seek both players' ranges allow, or opens
        one. Returns (200, the game) or (201, the seek)."""
        loaded, setting = self._setting(body.game, body.params, body.rated)
        mine = await self._rating(who.account.id, setting)
        clock = clock_of(body.clock)
        seeks = await self.db(
            self.accounts.seeks, loaded.name, json.dumps(dict(loaded.params), sort_keys=True),
            None if clock is None else json.dumps(clock, sort_keys=True), body.rated,
            who.account.id, self.wall() - SEEK_S)
        for seek in seeks:
            theirs = await self._rating(seek.by_id, setting)
            lo, hi = seek.range or (float("-inf"), float("inf"))
            if abs(theirs - mine) <= body.range and lo <= mine <= hi:
                try:
                    await self.db(self.accounts.settle_challenge, seek.id, "accepted",
                                  accepted_by=who.account.id)
                except Taken:
                    continue
                return 200, await self._start(seek, who)
        request = models.ChallengeBody(game=body.game, params=body.params, clock=body.clock,
                                       rated=body.rated)
        return 201, await self.new_challenge(request, who,
                                             range_=(mine - body.range, mine + body.range))

    async def _rating(self: Hub, account_id: str, setting: str | None) -> float:
        if setting is None:
            return glicko.Rating().rating
        found = await self.db(self.accounts.rating_of, account_id, setting)
        return glicko.Rating().rating if found is None else found[0]
