"""The FastAPI application: routes, body checks, errors, rate limits, pages, sockets.

Every route is thin: it checks the request (size, JSON, shape) and hands it to the ``Hub``.
Every refusal is ``{"error": "<one sentence>"}``, FastAPI's own validation errors and
unknown routes included. One JSON log line per request (the path, never a query string, so
a socket's ``?token=`` is never written down) and per move; security headers on every
response.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import time
from collections.abc import Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException

import cathedral
from cathedral.ai import LEVEL_NAMES, agent_names
from cathedral.core.registry import game_class, games
from cathedral.server import models
from cathedral.server.logs import event
from cathedral.server.security import RateLimiter, TokenBucket, bearer_token
from cathedral.server.storage import Storage
from cathedral.server.tables import ApiError, Hub, Subscriber, load_game
from cathedral.server.workers import Workers

log = logging.getLogger("cathedral.server")

STATIC = Path(cathedral.__file__).parent / "web" / "static"
PAGES = {"/": "index.html", "/lobby": "lobby.html"}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'; form-action 'self'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
CLOCK_PRESETS = [
    {"name": "5 min + 3 s", "initial_s": 300, "increment_s": 3},
    {"name": "10 min + 5 s", "initial_s": 600, "increment_s": 5},
    {"name": "30 min + 20 s", "initial_s": 1800, "increment_s": 20},
]


@dataclass
class Settings:
    """How the server runs (``cathedral serve`` flags).

    Attributes:
        db: the SQLAlchemy URL of the database.
        workers: processes for computer players' searches.
        move_rate: moves per second per client address (and per socket); 0 switches off.
        create_rate: games created (or joined, or uploaded) per second per address; 0: off.
        static: the pages' directory.
        warm_workers: start the AI processes at once rather than on the first move.
        now, wall: the clocks (monotonic and wall time), injectable for tests.
        clock_timers: whether flags fall by themselves (tests call ``check_clock``).
        max_tables: live games kept in memory; idle ones beyond are rebuilt on demand.
        redis: the site's Redis URL when several processes share one database (``site``).
    """

    db: str
    workers: int | None = None
    move_rate: float = 50.0
    create_rate: float = 5.0
    static: Path = STATIC
    warm_workers: bool = False
    now: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    clock_timers: bool = True
    max_tables: int = 5000
    redis: str | None = None


def error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def json_text(text: str, status: int = 200) -> Response:
    return Response(content=text, status_code=status, media_type="application/json")


async def read_model(request: Request, model: type[BaseModel], limit: int,
                     what: str = "request body") -> Any:
    """Reads and checks a JSON body: 400 if too big, not JSON, or the wrong shape."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise ApiError(400, f"{what} too large: at most {limit // 1024} kB")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(400, f"{what} too large: at most {limit // 1024} kB")
    return parse_model(bytes(body), model, what)


def parse_model(body: bytes | str, model: type[BaseModel], what: str = "request body") -> Any:
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, f"{what} is not JSON: send a JSON object") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"{what} must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ApiError(400, models.problem(exc, what)) from None


class Observe:
    """ASGI middleware: security headers on every response, one JSON log line per request."""

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
                    headers.append(key.decode(), value.decode())
                if scope["path"].startswith("/api/"):
                    headers.append("cache-control", "no-store")
            elif message["type"] == "websocket.accept":
                status["code"] = 101
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = scope.get("client")
            event("request" if scope["type"] == "http" else "socket",
                  method=scope.get("method", "WS"), path=scope["path"][:200],
                  status=status["code"],
                  ms=round((time.perf_counter() - started) * 1000, 2),
                  client=client[0] if client else None)


def catalog() -> dict:
    """Every game with its parameters, player names per table size, levels and agents."""
    out = []
    for name in games():
        info = game_class(name).info
        params = []
        players: dict[str, list[str]] = {}
        for p in info.parameters:
            entry: dict[str, Any] = {
                "name": p.name, "type": {int: "int", str: "str", bool: "bool"}[p.kind],
                "default": p.default, "choices": list(p.choices), "help": p.help,
                "optional": p.optional, "minimum": p.minimum,
            }
            if p.kind is str and not p.choices:
                entry["choices"] = [p.default]  # free text (a file path) is not offered
            params.append(entry)
        counts = next((p.choices for p in info.parameters if p.name == "players"), ())
        if counts:
            for n in counts:
                players[str(n)] = load_game(name, {"players": n}).player_names()
        else:
            game = load_game(name, {})
            players[str(game.num_players)] = game.player_names()
        out.append({"name": name, "title": info.title, "summary": info.summary,
                    "parameters": params, "players": players,
                    "lower_score_wins": info.lower_score_wins})
    return {"games": out, "levels": list(LEVEL_NAMES), "agents": agent_names(),
            "clock_presets": CLOCK_PRESETS}


def create_app(settings: Settings) -> FastAPI:
    """Returns the application; the database is migrated and the games resumed on start."""
    moves_by_address = RateLimiter(settings.move_rate)
    creates_by_address = RateLimiter(settings.create_rate)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        storage = Storage(settings.db)
        await asyncio.get_running_loop().run_in_executor(None, storage.migrate)
        workers = Workers(settings.workers)
        if settings.warm_workers:
            workers.warm()
        hub = Hub(storage, workers, now=settings.now, wall=settings.wall,
                  clock_timers=settings.clock_timers, max_tables=settings.max_tables)
        app.state.hub = hub
        if settings.redis:
            from cathedral.server.site import SiteBus

            hub.bus = SiteBus(settings.redis, hub)
            await hub.bus.start()
        await hub.start()
        # What start-up made lives as long as the server: out of the collector's way, so
        # its full passes stay short under load.
        gc.freeze()
        try:
            yield
        finally:
            await hub.close()
            if hub.bus is not None:
                await hub.bus.close()
            workers.close()
            storage.close()
            # uvicorn ends the process with the signal it caught: no exit hooks run after.
            for handler in log.handlers:
                handler.flush()

    app = FastAPI(title="cathedral", version=cathedral.__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.add_middleware(Observe)
    app.state.settings = settings
    catalog_cache: dict[str, Any] = {}

    def hub_of(request: Request | WebSocket) -> Hub:
        return request.app.state.hub

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "?"

    def limit(limiter: RateLimiter, request: Request, what: str) -> None:
        if limiter.enabled and not limiter.allow(address(request)):
            wait = limiter.bucket(address(request)).retry_after()
            raise ApiError(429, f"too many {what} from your address: wait a moment and retry",
                           {"Retry-After": str(max(1, round(wait)))})

    # ----- errors ---------------------------------------------------------------------------

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError):
        return error(exc.status, exc.message, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return error(400, f"bad request: {where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        texts = {404: "no such page or endpoint: check the address",
                 405: "method not allowed on this address"}
        message = texts.get(exc.status_code) or str(exc.detail)
        return error(exc.status_code, message, getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _internal(_request: Request, exc: Exception):
        log.exception("internal error", exc_info=exc)
        return error(500, "internal server error: it was logged; try again")

    # ----- operations -----------------------------------------------------------------------

    @app.get("/healthz")
    async def healthz(request: Request):
        return {"status": "ok", "games_live": len(hub_of(request).tables)}

    @app.get("/api/catalog")
    async def get_catalog():
        if not catalog_cache:
            catalog_cache.update(catalog())
        return catalog_cache

    lobby_cache: dict[str, Any] = {"at": -1.0, "lists": None, "version": -1}

    @app.get("/api/lobby")
    async def lobby(request: Request):
        hub = hub_of(request)
        # At most one lobby query a second unless a game starts, ends or fills a seat: the
        # database thread belongs to moves.
        fresh = lobby_cache["version"] == hub.lobby_version
        if fresh and time.monotonic() - lobby_cache["at"] < 1.0:
            return lobby_cache["lists"]
        version = hub.lobby_version
        lists = await hub.db(hub.storage.lobby)
        for items in lists.values():
            for item in items:
                try:
                    item["players"] = load_game(item["game"], item["params"]).player_names()
                except Exception:
                    item["players"] = []
        lobby_cache.update(at=time.monotonic(), lists=lists, version=version)
        return lists

    # ----- tables ---------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def create(request: Request):
        limit(creates_by_address, request, "new games")
        body = await read_model(request, models.CreateGame, models.MAX_BODY_BYTES)
        return JSONResponse(await hub_of(request).create(body), status_code=201)

    @app.get("/api/games/{game_id}")
    async def view(game_id: str, request: Request):
        hub = hub_of(request)
        table = await hub.table(game_id)
        return json_text(table.view_text(hub.now(), hub.wall))

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request):
        table = await hub_of(request).table(game_id)
        return json_text(table.record().to_json())

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, request: Request):
        limit(moves_by_address, request, "moves")
        body = await read_model(request, models.Move, models.MAX_MOVE_BYTES)
        token = bearer_token(request.headers.get("authorization"))
        return json_text(await hub_of(request).move(game_id, token, body))

    @app.get("/api/games/{game_id}/seat")
    async def seat(game_id: str, request: Request):
        token = bearer_token(request.headers.get("authorization"))
        return {"player": hub_of(request).seat_of(await hub_of(request).table(game_id), token)}

    @app.post("/api/games/{game_id}/resign")
    async def resign(game_id: str, request: Request):
        body = await _optional_body(request, models.Resign)
        token = bearer_token(request.headers.get("authorization"))
        return json_text(await hub_of(request).resign(game_id, token, body))

    @app.post("/api/games/{game_id}/takeback")
    async def takeback(game_id: str, request: Request):
        limit(moves_by_address, request, "moves")
        token = bearer_token(request.headers.get("authorization"))
        return json_text(await hub_of(request).takeback(game_id, token))

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request):
        limit(creates_by_address, request, "new games")
        token = bearer_token(request.headers.get("authorization"))
        status, reply = await hub_of(request).rematch(game_id, token)
        return JSONResponse(reply, status_code=status)

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request):
        limit(creates_by_address, request, "joins")
        body = await read_model(request, models.Join, models.MAX_BODY_BYTES)
        return JSONResponse(await hub_of(request).join(game_id, body), status_code=201)

    @app.get("/api/games/{game_id}/picture")
    async def picture(game_id: str, request: Request, ply: int | None = None):
        table = await hub_of(request).table(game_id)
        ply = table.ply if ply is None else ply
        if not 0 <= ply <= table.ply:
            raise ApiError(422, f"ply {ply} is outside the game (0..{table.ply})")
        state = table.state_at(ply)
        try:
            drawn = await asyncio.get_running_loop().run_in_executor(None, state.picture)
        except NotImplementedError:
            raise ApiError(501, f"{table.game.name} has no picture yet") from None
        return JSONResponse(drawn)

    @app.get("/api/games/{game_id}/hint")
    async def get_hint(game_id: str, request: Request, ply: int | None = None,
                       level: str = "medium"):
        limit(moves_by_address, request, "hints")
        token = bearer_token(request.headers.get("authorization"))
        return await hub_of(request).hint(game_id, token, ply, level)

    @app.post("/api/records", status_code=201)
    async def upload(request: Request):
        limit(creates_by_address, request, "uploads")
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit()
                                   or int(length) > models.MAX_RECORD_BYTES):
            raise ApiError(400, "record too large: at most 1024 kB")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > models.MAX_RECORD_BYTES:
                raise ApiError(400, "record too large: at most 1024 kB")
        try:
            text = bytes(body).decode("utf-8")
            json.loads(text)
        except (UnicodeDecodeError, ValueError):
            raise ApiError(400, "the record is not JSON: send a game record file") from None
        hub = hub_of(request)
        return JSONResponse(await hub.upload(hub.upload_record(text)), status_code=201)

    async def _optional_body(request: Request, model: type[BaseModel]) -> Any:
        body = await request.body()
        if len(body) > models.MAX_BODY_BYTES:
            raise ApiError(400, "request body too large: at most 64 kB")
        if not body.strip():
            return model()
        return parse_model(body, model)

    # ----- live updates ---------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def socket(websocket: WebSocket, game_id: str):
        hub = hub_of(websocket)
        await websocket.accept()
        try:
            table = await hub.table(game_id)
        except ApiError as exc:
            await websocket.send_text(json.dumps(
                {"type": "error", "status": exc.status, "error": exc.message}))
            await websocket.close(code=4404)
            return
        default_token = websocket.query_params.get("token")
        sub = Subscriber()
        hub.subscribe(table, sub)
        sender = asyncio.create_task(_pump(websocket, sub))
        bucket = TokenBucket(settings.move_rate, max(10.0, 4 * settings.move_rate),
                             time.monotonic)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                reply = await _socket_message(hub, table.id, text, default_token, bucket,
                                              address(websocket), sub)
                if reply is not None:
                    sub.put(json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            table.subscribers.discard(sub)
            sender.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await sender

    async def _socket_hint(hub: Hub, game_id: str, data: dict, default_token: str | None,
                           sub: Subscriber, client: str) -> None:
        """Starts a hint whose progress and result go to this socket (the socket keeps
        reading meanwhile)."""
        try:
            ask = models.SocketHint.model_validate(data)
        except ValidationError as exc:
            raise ApiError(400, models.problem(exc, "message")) from None
        if not moves_by_address.allow(client):
            raise ApiError(429, "too many requests: wait a moment and retry")

        def report(found: dict) -> None:
            sub.put(json.dumps({"type": "hint", "hint": found}))

        async def run() -> None:
            try:
                report(await hub.hint(game_id, ask.token or default_token, ask.ply, ask.level,
                                      report))
            except ApiError as exc:
                sub.put(json.dumps({"type": "error", "status": exc.status,
                                    "error": exc.message}))

        hub.spawn(run())
        return None

    async def _socket_message(hub: Hub, game_id: str, text: str, default_token: str | None,
                              bucket: TokenBucket, client: str,
                              sub: Subscriber) -> dict | None:
        try:
            if len(text) > models.MAX_MOVE_BYTES:
                raise ApiError(400, "message too large: at most 64 kB")
            try:
                data = json.loads(text)
            except ValueError:
                raise ApiError(400, "message is not JSON: send a JSON object") from None
            if not isinstance(data, dict):
                raise ApiError(400, "message must be a JSON object")
            kind = data.get("type")
            if kind == "ping":
                return {"type": "pong"}
            if kind == "hint":
                return await _socket_hint(hub, game_id, data, default_token, sub, client)
            if kind != "move":
                raise ApiError(400, "unknown message type: expected 'move', 'hint' or 'ping'")
            if not bucket.allow() or not moves_by_address.allow(client):
                raise ApiError(429, "too many moves: wait a moment and retry")
            if "token" not in data and default_token is not None:
                data = {**data, "token": default_token}
            has_token = "token" in data
            try:
                move = models.SocketMove.model_validate(data if has_token
                                                        else {**data, "token": "-"})
            except ValidationError as exc:
                raise ApiError(400, models.problem(exc, "message")) from None
            if not has_token:
                raise ApiError(401, "no seat token: put 'token' in the message or "
                               "?token= on the socket's address")
            await hub.move(game_id, move.token, move)
            return None
        except ApiError as exc:
            return {"type": "error", "status": exc.status, "error": exc.message}

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

    # ----- pages ----------------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        path = settings.static / name
        if not path.is_file():
            raise ApiError(404, f"page {name} is not installed")
        return FileResponse(path, media_type="text/html")

    @app.get("/")
    async def index():
        return page("index.html")

    @app.get("/lobby")
    async def lobby_page():
        return page("lobby.html")

    @app.get("/g/{game_id}")
    async def game_page(game_id: str):
        return page("game.html")

    @app.get("/replay/{game_id}")
    async def replay_page(game_id: str):
        return page("replay.html")

    @app.get("/static/{name:path}")
    async def static(name: str):
        root = settings.static.resolve()
        path = (root / name).resolve()
        if root not in path.parents or not path.is_file():
            raise ApiError(404, "no such file")
        return FileResponse(path)

    return app
