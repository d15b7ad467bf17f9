"""Players: an account's games, a player's page and records, the leaderboards."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query
from fastapi.responses import JSONResponse, Response

from cathedral.server import glicko, models
from cathedral.server.auth import MaybeWriter, SignedIn, Writer
from cathedral.server.deps import GameId, HubDep, Token, limit
from cathedral.server.errors import Invalid
from cathedral.server.routes import errors

router = APIRouter(prefix="/api", tags=["players"])


@router.get("/me/games", responses=errors(401))
async def my_games(hub: HubDep, who: SignedIn):
    """Your games: those waiting for your move first."""
    return {"games": await hub.my_games(who)}


@router.post("/games/{game_id}/claim", responses=errors(401, 403, 404, 409),
             dependencies=[limit("moves", "claims")])
async def claim(game_id: GameId, hub: HubDep, token: Token, who: Writer):
    """Makes the anonymous seat your secret opens your account's (its secret changes)."""
    return await hub.claim(game_id, token, who)


@router.post("/games/{game_id}/join", status_code=201, response_model=models.Joined,
             responses=errors(401, 403, 404, 409, 422), dependencies=[limit("creates", "joins")])
async def join(game_id: GameId, body: Annotated[models.Join, Body()], hub: HubDep,
               who: MaybeWriter):
    """Takes an open seat of a public table (your account's, signed in)."""
    return JSONResponse(await hub.join(game_id, body, who), status_code=201)


@router.get("/players/{name}", responses=errors(404))
async def player(name: str, hub: HubDep):
    return await hub.player_page(name[:64])


@router.get("/players/{name}/records", responses=errors(404),
            dependencies=[limit("reads", "record downloads")])
async def records(name: str, hub: HubDep):
    """Every finished game of the player, one JSON array of records."""
    text = await hub.player_records(name[:64])
    safe = "".join(ch for ch in name[:64] if ch.isalnum() or ch in "-_")
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="cathedral-{safe}.json"'})


@router.get("/leaderboard", responses=errors(422))
async def leaderboard(hub: HubDep, setting: Annotated[str, Query(max_length=16)] = "classic"):
    if setting not in glicko.SETTINGS:
        raise Invalid(f"unknown setting {setting!r} (settings: {', '.join(glicko.SETTINGS)})")
    players = await hub.db(hub.accounts.leaderboard, setting, glicko.PROVISIONAL_RD)
    computers = [{"level": level, "rating": rating}
                 for level, rating in glicko.COMPUTER_RATINGS[setting].items()]
    return {"setting": setting, "settings": list(glicko.SETTINGS), "players": players,
            "computers": computers}

