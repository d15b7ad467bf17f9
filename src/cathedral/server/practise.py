"""Practising a position: a new table that starts where a game stood after some ply, the
person taking the side to move there and a computer level every other seat.

A function of the hub (no mixin): it reads the game's log, copies its first plies into a new
game's log (a new table, not read-only, with no clock), and opens it as ``Commands.create``
does a new table. The game must be over (or an uploaded record): a position of a game under
way would be a way round "no analysis during play", since a person alone against computers
may ask for hints.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import TYPE_CHECKING

from cathedral.ai import LEVEL_NAMES
from cathedral.core.contract import CHANCE
from cathedral.server.errors import Forbidden, Invalid
from cathedral.server.limits import check_seat
from cathedral.server.logs import event
from cathedral.server.security import hash_token, new_token
from cathedral.server.storage import StoredGame, StoredSeat
from cathedral.server.table import HUMAN

if TYPE_CHECKING:
    from cathedral.server.auth import Signed
    from cathedral.server.hub import Hub


async def practise(hub: Hub, game_id: str, ply: int, level: str, asker: str,
                   who: Signed | None = None) -> dict:
    """Opens a table at ``game_id``'s position after ``ply`` plies (and the chance outcomes
    that followed it there): a human seat for the player to move, ``level`` at the others.
    Returns the created reply (``Commands.created_reply``) with ``practise_of`` and ``ply``."""
    if level not in LEVEL_NAMES:
        raise Invalid(f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
    source = await hub.table(game_id, asker=asker)
    if not source.finished:
        raise Forbidden("practise opens once the game is over: a game under way cannot be "
                        "played out against the computer")
    if not 0 <= ply <= source.ply:
        raise Invalid(f"ply {ply} is outside the game (0..{source.ply})")
    game = source.game
    check_seat(level, game)
    entries = source.entries
    end = ply
    # the dice and draws that came right after the ply belong to the position
    while end < source.ply and entries[end].player == CHANCE:
        end += 1
    state = await hub._replayed(game, source.actions(end), asker)
    if state.is_terminal():
        raise Invalid(f"the game is over at ply {end}: practise a position before its end")
    if state.is_chance_node():
        raise Invalid(f"nobody is to move at ply {end}: pick another ply")
    mover = state.current_player()
    wall = hub.wall()
    table_id = secrets.token_urlsafe(12)
    seats = []
    tokens: dict[int, str] = {}
    for player in range(game.num_players):
        if player != mover:
            seats.append(StoredSeat(player, level, None))
            continue
        account = None if who is None else who.account
        if account is not None:
            tokens[player] = await hub.seat_secret(table_id, player, account.id)
        else:
            tokens[player] = new_token()
        seats.append(StoredSeat(player, HUMAN, hash_token(tokens[player]),
                                account_id=None if account is None else account.id,
                                name=None if account is None else account.name))
    actions = [dataclasses.replace(entry, clock=None, at=wall) for entry in entries[:end]]
    stored = StoredGame(
        id=table_id, game=game.name, params=dict(game.params),
        rules_version=game.rules_version, seed=secrets.token_hex(16), status="playing",
        generation=0, result=None, clock=None, read_only=False, public=False,
        rematch_of=None, rematch=None, created=wall, updated=wall, seats=seats,
        actions=actions,
    )
    await hub.write(hub.storage.create_game, stored, bulk=True)
    table = hub._table(stored, game, state, asker)
    hub._keep(table)
    event("created", game=table.id, name=game.name, seats=table.kinds(), practise_of=source.id,
          ply=end)
    async with table.lock:
        await hub._settle(table)
    return {**hub.created_reply(table, tokens), "practise_of": source.id, "ply": end}
