"""Tables: creating one, reading its view, and what a seat does (move, resign, take back,
rematch) or a newcomer (join an open seat)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse, Response

from cathedral.server import models
from cathedral.server.auth import MaybeWriter
from cathedral.server.deps import Address, GameId, HubDep, Token, limit
from cathedral.server.routes import errors

router = APIRouter(prefix="/api/games", tags=["games"])


def view_response(text: str) -> Response:
    """A game view: JSON text the table built once for this change."""
    return Response(content=text, media_type="application/json")


@router.post("", status_code=201, response_model=models.Created, responses=errors(422),
             dependencies=[limit("creates", "new games")])
async def create(body: Annotated[models.CreateGame, Body()], hub: HubDep, asker: Address,
                 who: MaybeWriter):
    """A new table: one secret per human seat, shown only here (signed in, the first human
    seat is your account's)."""
    return JSONResponse(await hub.create(body, asker, who), status_code=201)


@router.get("/{game_id}", response_model=models.GameView, responses=errors(404))
async def view(game_id: GameId, hub: HubDep):
    """The game as anyone sees it (players and spectators alike)."""
    table = await hub.table(game_id)
    return view_response(table.view_text(hub.now(), hub.wall))


@router.post("/{game_id}/moves", response_model=models.GameView,
             responses=errors(401, 403, 404, 409, 422), dependencies=[limit("moves", "moves")])
async def move(game_id: GameId, body: Annotated[models.Move, Body()], hub: HubDep,
               token: Token):
    """A seat's move; checked in the order 400, 401, 409, 403, 422."""
    return view_response(await hub.move(game_id, token, body))


@router.get("/{game_id}/seat", response_model=models.SeatOf, responses=errors(401, 404))
async def seat(game_id: GameId, hub: HubDep, token: Token):
    """Which seat a secret opens."""
    return {"player": await hub.seat_of(await hub.table(game_id), token)}


@router.post("/{game_id}/resign", response_model=models.GameView,
             responses=errors(401, 404, 409), dependencies=[limit("moves", "moves")])
async def resign(game_id: GameId, hub: HubDep, token: Token,
                 body: Annotated[models.Resign | None, Body()] = None):
    return view_response(await hub.resign(game_id, token, body or models.Resign()))


@router.post("/{game_id}/takeback", response_model=models.GameView,
             responses=errors(401, 403, 404, 409), dependencies=[limit("moves", "moves")])
async def takeback(game_id: GameId, hub: HubDep, token: Token):
    """Takes back the only human's last move and the computers' replies."""
    return view_response(await hub.takeback(game_id, token))


@router.post("/{game_id}/rematch", status_code=201, response_model=models.Created,
             responses={200: {"model": models.Created}, **errors(401, 404, 409)},
             dependencies=[limit("creates", "new games")])
async def rematch(game_id: GameId, hub: HubDep, token: Token, asker: Address):
    """A new game, seats rotated by one (200 if it exists already)."""
    status, reply = await hub.rematch(game_id, token, asker)
    return JSONResponse(reply, status_code=status)
