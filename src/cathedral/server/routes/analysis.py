"""Pictures and hints: what a position looks like at any ply, and what a level thinks of it.

Both may be heavy, so both go off the event loop (``Hub.picture``, ``Hub.hint``); a hint
whose asker hangs up is cancelled, so its worker is free again at once."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from cathedral.server import models
from cathedral.server.deps import Address, GameId, HubDep, Token, limit
from cathedral.server.limits import MAX_PLIES
from cathedral.server.routes import errors

router = APIRouter(prefix="/api/games", tags=["analysis"])

Ply = Annotated[int | None, Query(ge=0, le=MAX_PLIES, description="plies from the start "
                                  "(default: now)")]


@router.get("/{game_id}/picture", response_model=dict[str, Any],
            responses=errors(404, 422), dependencies=[limit("reads", "pictures")])
async def picture(game_id: GameId, hub: HubDep, asker: Address, ply: Ply = None):
    """``State.picture()`` after ``ply`` plies: the board and what every legal move does."""
    return JSONResponse(await hub.picture(game_id, ply, asker))


@router.get("/{game_id}/hint", response_model=models.Hint,
            responses=errors(401, 403, 404, 422), dependencies=[limit("reads", "hints")])
async def hint(game_id: GameId, request: Request, hub: HubDep, token: Token, asker: Address,
               ply: Ply = None,
               level: Annotated[str, Query(max_length=20)] = "medium"):
    """A level's analysis of a position: anyone's once the game is over (up to ``hard``),
    otherwise only a human playing computers (send the seat's token)."""
    work = asyncio.ensure_future(hub.hint(game_id, token, ply, level, asker))
    gone = asyncio.ensure_future(_hung_up(request))
    try:
        await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not work.done():
            work.cancel()  # the asker has gone: its worker is freed
            with contextlib.suppress(asyncio.CancelledError):
                await work
    if work.cancelled():
        return Response(status_code=499)  # nobody is listening (nginx's "client closed")
    return work.result()


async def _hung_up(request: Request) -> None:
    """Returns when the client disconnects."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
