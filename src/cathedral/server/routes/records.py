"""Records in and out: a game's record, and an uploaded record stored as a read-only game.

An upload is read, checked and replayed in a worker process; the route only counts its
bytes against the address's upload volume."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cathedral.server import models
from cathedral.server.deps import Address, GameId, HubDep, limit
from cathedral.server.routes import errors

router = APIRouter(tags=["records"])

_RECORD_BODY = {"requestBody": {"required": True, "content": {"application/json": {
    "schema": {"$ref": "#/components/schemas/RecordBody"}}}}}


@router.get("/api/games/{game_id}/record", response_model=models.RecordBody,
            responses=errors(404), dependencies=[limit("reads", "reads")])
async def record(game_id: GameId, hub: HubDep):
    """The game's record (``cathedral.Record``), replayable."""
    table = await hub.table(game_id)
    return Response(content=table.record_text(), media_type="application/json")


@router.post("/api/records", status_code=201, response_model=models.Uploaded,
             responses=errors(422), openapi_extra=_RECORD_BODY,
             dependencies=[limit("creates", "uploads")])
async def upload(request: Request, hub: HubDep, asker: Address):
    """Stores a record (at most 1 MB, 20,000 plies) as a finished read-only game."""
    body = await request.body()  # read and size-checked by BodyGate
    request.app.state.limits.check("uploads", asker, "uploaded bytes", cost=len(body))
    text = body.decode("utf-8", "surrogateescape")  # the worker refuses what is not UTF-8
    return JSONResponse(await hub.upload(text, asker), status_code=201)
