"""The routes' dependencies: the hub, the client's address, the seat secret, a checked game
id and the rate limits, each an ``Annotated[..., Depends(...)]`` a route names in its
signature.

The seat secret never refuses by itself: server-api.md checks a malformed body (400) before a
missing secret (401), so ``Token`` only reads the header and the hub decides. Every
dependency is ``async``: FastAPI runs a plain function in a thread, a hop that costs more
than the work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Path
from starlette.requests import HTTPConnection

from cathedral.server.errors import TooMany
from cathedral.server.hub import Hub
from cathedral.server.inputs import checked_game_id
from cathedral.server.security import RateLimiter, bearer_token
from cathedral.server.settings import Settings


async def get_hub(connection: HTTPConnection) -> Hub:
    return connection.app.state.hub


async def get_settings(connection: HTTPConnection) -> Settings:
    return connection.app.state.settings


def client_address(connection: HTTPConnection) -> str:
    """The client's address (a proxy's ``X-Forwarded-For`` where uvicorn trusts it)."""
    return connection.client.host if connection.client else "?"


async def address(connection: HTTPConnection) -> str:
    return client_address(connection)


async def seat_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    return bearer_token(authorization)


async def game_id(game_id: Annotated[str, Path(description="a game's id, as its links give it")],
            ) -> str:
    return checked_game_id(game_id)


HubDep = Annotated[Hub, Depends(get_hub)]
Address = Annotated[str, Depends(address)]
Token = Annotated[str | None, Depends(seat_token)]
GameId = Annotated[str, Depends(game_id)]


@dataclass
class Limits:
    """One rate limiter per kind of request, keyed by the client's address."""

    moves: RateLimiter
    creates: RateLimiter
    reads: RateLimiter
    uploads: RateLimiter  # bytes

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        upload = settings.rate("upload_rate")
        return cls(moves=RateLimiter(settings.rate("move_rate")),
                   creates=RateLimiter(settings.rate("create_rate")),
                   reads=RateLimiter(settings.rate("read_rate")),
                   uploads=RateLimiter(upload, burst=600 * upload))

    def check(self, name: str, key: str, what: str, cost: float = 1.0) -> None:
        """Counts one request (``cost`` units) of ``key``; ``TooMany`` if over its rate."""
        limiter: RateLimiter = getattr(self, name)
        if limiter.enabled and not limiter.allow(key, cost):
            wait = limiter.bucket(key).retry_after(cost)
            raise TooMany(f"too many {what} from your address: wait a moment and retry",
                          retry_after=wait)


def limit(name: str, what: str):
    """A dependency counting one request of the client against ``Limits.<name>``."""

    async def check(connection: HTTPConnection) -> None:
        connection.app.state.limits.check(name, client_address(connection), what)

    return Depends(check)
