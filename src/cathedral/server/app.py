"""The FastAPI application: the hub on start, the routers, and the one place refusals
become HTTP answers.

Every refusal is ``{"error": "<one sentence>"}``: the hub's domain errors (``errors``),
FastAPI's validation errors (400, the field named) and unknown routes alike; an unexpected
error is a 500 that ``middleware.Observe`` answers with the same headers as any other.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

import cathedral
from cathedral.server import models
from cathedral.server.auth import SignInLimits
from cathedral.server.deps import Limits
from cathedral.server.errors import Refused
from cathedral.server.hub import Hub
from cathedral.server.middleware import BodyGate, Observe, refusal
from cathedral.server.routes import (
    account,
    analysis,
    challenges,
    games,
    learn,
    live,
    lobby,
    pages,
    people,
    records,
)
from cathedral.server.settings import Settings
from cathedral.server.storage import Storage
from cathedral.server.thinking import Pool

log = logging.getLogger("cathedral.server")


def default_workers() -> int:
    import os

    return max(1, os.cpu_count() or 2)


def _documented(schema: dict) -> dict:
    """FastAPI's OpenAPI, told the truth: a request that fails validation is a 400 with an
    error body (not FastAPI's 422 shape), and the record an upload sends (read raw, in a
    worker) has its schema."""
    schemas = schema["components"]["schemas"]
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    schemas["RecordBody"] = models.RecordBody.model_json_schema(
        ref_template="#/components/schemas/{model}")
    error = {"description": "Refused", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    for operations in schema["paths"].values():
        for operation in operations.values():
            responses = operation.get("responses", {})
            if "HTTPValidationError" in str(responses.get("422", "")):
                del responses["422"]  # FastAPI's own, for routes that never answer 422
            responses.setdefault("400", error)
    return schema


def create_app(settings: Settings, *, now: Callable[[], float] = time.monotonic,
               wall: Callable[[], float] = time.time, clock_timers: bool = True) -> FastAPI:
    """Returns the application; the database is migrated and the games resumed on start.
    ``now`` and ``wall`` are the clocks (monotonic and wall time) and ``clock_timers``
    whether flags fall by themselves: tests fake time with them."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        storage = Storage(settings.db)
        await asyncio.get_running_loop().run_in_executor(None, storage.migrate)
        search = Pool("search", settings.workers or default_workers())
        quick = Pool("quick", 1, preempt=False)
        hub = Hub(storage, search, quick, now=now, wall=wall, clock_timers=clock_timers,
                  max_tables=settings.max_tables, warm=settings.warm_workers)
        app.state.hub = hub
        hub.public_url = settings.public_url
        if settings.smtp:
            from cathedral.server.mailer import Mailer, SmtpUrl

            hub.mailer = Mailer(SmtpUrl.parse(settings.smtp))
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
            storage.close()
            # uvicorn ends the process with the signal it caught: no exit hooks run after.
            for handler in log.handlers:
                handler.flush()

    app = FastAPI(title="cathedral", version=cathedral.__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url="/api/openapi.json",
                  description="Tables for three games named Cathedral: see "
                  "docs/server-api.md. Every refusal is {\"error\": \"<one sentence>\"}.")
    app.add_middleware(BodyGate, timeout_s=settings.body_timeout_s)
    app.add_middleware(Observe)
    app.state.settings = settings
    app.state.limits = Limits.of(settings)
    app.state.signin = SignInLimits(settings.rate("signin_rate"))
    app.state.caches = {}
    for router in (games.router, records.router, analysis.router, lobby.router, live.router,
                   account.router, challenges.router, people.router, learn.router,
                   pages.router):
        app.include_router(router)
    extra = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            app.openapi_schema = _documented(extra())
        return app.openapi_schema

    app.openapi = openapi

    @app.exception_handler(Refused)
    async def _refused(_request: Request, exc: Refused):
        return refusal(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError):
        return JSONResponse({"error": models.problem(list(exc.errors()))}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        texts = {404: "no such page or endpoint: check the address",
                 405: "method not allowed on this address"}
        message = texts.get(exc.status_code) or str(exc.detail)
        return JSONResponse({"error": message}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    return app
