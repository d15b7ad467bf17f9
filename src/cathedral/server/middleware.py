"""The two ASGI layers every request passes: ``Observe`` (outermost) and ``BodyGate``.

``Observe`` puts the security headers on every response (a 500 included: it answers an
unexpected error itself, so the answer carries them too) and writes one JSON log line per
request (the path, never a query string, so a socket's ``?token=`` is never written down).

``BodyGate`` reads the body of every ``POST`` to ``/api/`` before any route sees it: at
most 64 kB (1 MB for an uploaded record), within ``timeout_s`` (a client trickling bytes
gets a 408, not a held connection), and, except for records (read in a worker), through
``inputs.checked_json``: JSON nested at most 32 deep, finite numbers, clean text. The route
then gets the same bytes again.
"""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse

from cathedral.server import errors
from cathedral.server.inputs import checked_json
from cathedral.server.logs import event
from cathedral.server.models import MAX_BODY_BYTES, MAX_RECORD_BYTES

log = logging.getLogger("cathedral.server")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'; form-action 'self'")
SECURITY_HEADERS = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
]
RECORDS_PATH = "/api/records"


def refusal(refused: errors.Refused) -> JSONResponse:
    """The response to a refusal: ``{"error": ...}`` with its status and headers."""
    return JSONResponse({"error": refused.message}, status_code=errors.status(refused),
                        headers=errors.headers(refused))


class Observe:
    """Security headers on every response, one log line per request, 500s answered here."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = {"code": 0}

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS:
                    headers.append(key, value)
                if scope["path"].startswith("/api/"):
                    headers.append("cache-control", "no-store")
            elif message["type"] == "websocket.accept":
                status["code"] = 101
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            log.exception("internal error on %s %s", scope.get("method", "WS"),
                          scope["path"][:200])
            if scope["type"] == "http" and status["code"] == 0:
                answer = JSONResponse(
                    {"error": "internal server error: it was logged; try again"},
                    status_code=500)
                await answer(scope, receive, sending)
        finally:
            client = scope.get("client")
            event("request" if scope["type"] == "http" else "socket",
                  method=scope.get("method", "WS"), path=scope["path"][:200],
                  status=status["code"],
                  ms=round((time.perf_counter() - started) * 1000, 2),
                  client=client[0] if client else None)


class BodyGate:
    """Reads and checks request bodies before the routes (see the module docstring)."""

    def __init__(self, app, timeout_s: float) -> None:
        self.app = app
        self.timeout_s = timeout_s

    async def __call__(self, scope, receive, send) -> None:
        if (scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH")
                or not scope["path"].startswith("/api/")):
            await self.app(scope, receive, send)
            return
        record = scope["path"] == RECORDS_PATH
        limit = MAX_RECORD_BYTES if record else MAX_BODY_BYTES
        what = "record" if record else "request body"
        try:
            body = await self._read(scope, receive, limit, what)
            if body is None:
                return  # the client left
            if body.strip() and not record:
                checked_json(body, what)
        except errors.Refused as refused:
            answer = refusal(refused)
            if isinstance(refused, errors.TooSlow):
                answer.headers["connection"] = "close"  # the rest may still be on its way
            await answer(scope, receive, send)
            return
        if body.strip() and not record:
            # Read as JSON whatever the client said it was: it was checked as JSON.
            headers = [(k, v) for k, v in scope["headers"] if k != b"content-type"]
            scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
        delivered = False

        async def replay():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _read(self, scope, receive, limit: int, what: str) -> bytes | None:
        too_large = errors.Malformed(f"{what} too large: at most {limit // 1024} kB")
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                raise too_large
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout_s):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    body += message.get("body", b"")
                    if len(body) > limit:
                        raise too_large
                    if not message.get("more_body", False):
                        return bytes(body)
        except TimeoutError:
            raise errors.TooSlow(f"{what} arrived too slowly: send it whole within "
                                 f"{self.timeout_s:g} s") from None
