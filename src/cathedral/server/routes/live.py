"""The game socket, ``/ws/games/{id}``: a view on connect and one per ply after, moves and
hints sent over it, and refusals to that socket alone.

Messages are read like request bodies (``inputs.checked_json``); moves count against the
socket's own rate and its address's; a hint's progress and answer come back on the socket
that asked, and a hint still thinking when its socket closes is cancelled.
"""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import suppress

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from cathedral.server import errors, models
from cathedral.server.deps import client_address
from cathedral.server.errors import Malformed, Refused, TooMany, Unauthorized
from cathedral.server.hub import Hub
from cathedral.server.inputs import checked_json
from cathedral.server.security import TokenBucket
from cathedral.server.table import Subscriber

router = APIRouter()


def _error(refused: Refused) -> dict:
    return {"type": "error", "status": errors.status(refused), "error": refused.message}


@router.websocket("/ws/games/{game_id}")
async def socket(websocket: WebSocket, game_id: str):
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    try:
        table = await hub.table(game_id)
    except Refused as refused:
        await websocket.send_text(json.dumps(_error(refused)))
        await websocket.close(code=4404)
        return
    session = _Session(hub, websocket, table.id)
    sub = Subscriber()
    hub.subscribe(table, sub)
    session.sub = sub
    sender = asyncio.create_task(_pump(websocket, sub))
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = message.get("bytes") or b""
            reply = await session.handle(text)
            if reply is not None:
                sub.put(json.dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        table.subscribers.discard(sub)
        for task in session.hints:
            task.cancel()  # nobody is left to read the answer: free the worker
        sender.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await sender


class _Session:
    """One socket's state: its token, its move rate, its hints under way."""

    def __init__(self, hub: Hub, websocket: WebSocket, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.client = client_address(websocket)
        self.default_token = websocket.query_params.get("token")
        self.limits = websocket.app.state.limits
        rate = self.limits.moves.rate
        self.bucket = TokenBucket(rate, max(10.0, 4 * rate), time.monotonic)
        self.hints: set[asyncio.Task] = set()
        self.sub: Subscriber | None = None

    async def handle(self, text: str | bytes) -> dict | None:
        """Answers one message: None, or an error for this socket alone."""
        try:
            if len(text) > models.MAX_MOVE_BYTES:
                raise Malformed("message too large: at most 64 kB")
            data = checked_json(text, "message")
            if not isinstance(data, dict):
                raise Malformed("message must be a JSON object")
            kind = data.get("type")
            if kind == "ping":
                return {"type": "pong"}
            if kind == "hint":
                self._hint(data)
                return None
            if kind != "move":
                raise Malformed("unknown message type: expected 'move', 'hint' or 'ping'")
            if not self.bucket.allow():
                raise TooMany("too many moves on this socket: wait a moment and retry")
            self.limits.check("moves", self.client, "moves")
            if "token" not in data and self.default_token is not None:
                data = {**data, "token": self.default_token}
            has_token = "token" in data
            try:
                move = models.SocketMove.model_validate(data if has_token
                                                        else {**data, "token": "-"})
            except ValidationError as exc:
                raise Malformed(models.problem_of(exc, "message")) from None
            if not has_token:
                raise Unauthorized("no seat token: put 'token' in the message or ?token= on "
                                   "the socket's address")
            await self.hub.move(self.game_id, move.token, move)
            return None
        except Refused as refused:
            return _error(refused)

    def _hint(self, data: dict) -> None:
        """Starts a hint whose progress and answer go to this socket (which keeps reading
        meanwhile)."""
        try:
            ask = models.SocketHint.model_validate(data)
        except ValidationError as exc:
            raise Malformed(models.problem_of(exc, "message")) from None
        self.limits.check("reads", self.client, "hints")
        sub = self.sub

        def report(found: dict) -> None:
            sub.put(json.dumps({"type": "hint", "hint": found}))

        async def run() -> None:
            try:
                report(await self.hub.hint(self.game_id, ask.token or self.default_token,
                                           ask.ply, ask.level, self.client, report))
            except Refused as refused:
                sub.put(json.dumps(_error(refused)))

        task = self.hub.spawn(run())
        self.hints.add(task)
        task.add_done_callback(self.hints.discard)


async def _pump(websocket: WebSocket, sub: Subscriber) -> None:
    try:
        while True:
            text = await sub.queue.get()
            if text is None:
                await websocket.close(code=1001 if sub.dropped is False else 1008)
                return
            await websocket.send_text(text)
    except Exception:
        return
