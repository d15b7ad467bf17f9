"""Challenges and quick pairing (docs/accounts.md, "Challenges and pairing")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse, Response

from cathedral.server import models
from cathedral.server.auth import MaybeSigned, Writer
from cathedral.server.deps import HubDep, limit
from cathedral.server.routes import errors

router = APIRouter(prefix="/api", tags=["challenges"])


@router.get("/challenges")
async def challenges(hub: HubDep, who: MaybeSigned):
    """Open challenges; with a session, also yours and those to you."""
    return await hub.list_challenges(who)


@router.post("/challenges", status_code=201, responses=errors(401, 403, 404, 422),
             dependencies=[limit("creates", "challenges")])
async def create(body: Annotated[models.ChallengeBody, Body()], hub: HubDep, who: Writer):
    return JSONResponse(await hub.new_challenge(body, who), status_code=201)


@router.get("/challenges/{challenge_id}", responses=errors(404))
async def get(challenge_id: str, hub: HubDep, who: MaybeSigned):
    return await hub.get_challenge(challenge_id[:64], who)


@router.post("/challenges/{challenge_id}/accept", status_code=201,
             responses=errors(401, 403, 404, 409), dependencies=[limit("creates", "games")])
async def accept(challenge_id: str, hub: HubDep, who: Writer):
    return JSONResponse(await hub.accept(challenge_id[:64], who), status_code=201)


@router.delete("/challenges/{challenge_id}", status_code=204,
               responses=errors(401, 403, 404, 409))
async def withdraw(challenge_id: str, hub: HubDep, who: Writer):
    await hub.withdraw(challenge_id[:64], who)
    return Response(status_code=204)


@router.post("/pairing", responses={201: {}, **errors(401, 403, 422)},
             dependencies=[limit("creates", "pairings")])
async def pairing(body: Annotated[models.PairingBody, Body()], hub: HubDep, who: Writer):
    """Joins a waiting seek both ranges allow (200, the game), or opens one (201)."""
    status, reply = await hub.pair(body, who)
    return JSONResponse(reply, status_code=status)
