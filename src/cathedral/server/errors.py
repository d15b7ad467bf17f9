"""The server's refusals: what the tables and the request checks raise, and the one place
each becomes an HTTP status.

The tables know nothing of HTTP: they raise ``NotFound``, ``Conflict``, ``Forbidden``,
``Invalid`` or ``Unauthorized`` with one sentence a person can act on. ``status`` maps a
refusal to its HTTP status for the routes' error handler and for a socket's error message,
so both always agree.
"""

from __future__ import annotations


class Refused(Exception):
    """A request the server refuses; ``message`` is the error body's one sentence."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class Malformed(Refused):
    """The request itself is unreadable: not JSON, the wrong shape, too large or too deep."""


class Unauthorized(Refused):
    """No seat secret, or one that opens no seat of this game."""


class Forbidden(Refused):
    """A valid secret, but this seat may not do this now."""


class NotFound(Refused):
    """No such game (or page)."""


class TooSlow(Refused):
    """The request's body did not arrive in time."""


class Conflict(Refused):
    """The game is not where the request thought it was (another ply, already over)."""


class Invalid(Refused):
    """Readable but refused by the rules or by the server's limits: an illegal move, an
    unknown game, a parameter out of range."""


class TooMany(Refused):
    """Too many requests from one address (or one socket): wait ``retry_after`` seconds."""


class Unsupported(Refused):
    """Something a game does not offer (a picture, say)."""


class Unavailable(Refused):
    """The server could not do it this time (a worker failed): try again."""


_STATUS: dict[type[Refused], int] = {
    Malformed: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    TooSlow: 408,
    Conflict: 409,
    Invalid: 422,
    TooMany: 429,
    Unsupported: 501,
    Unavailable: 503,
}


def status(refusal: Refused) -> int:
    """The HTTP status of a refusal (400 for a bare ``Refused``)."""
    for kind in type(refusal).__mro__:
        if kind in _STATUS:
            return _STATUS[kind]
    return 400


def headers(refusal: Refused) -> dict[str, str]:
    """The HTTP headers a refusal carries (``Retry-After`` for ``TooMany``)."""
    if refusal.retry_after is None:
        return {}
    return {"Retry-After": str(max(1, round(refusal.retry_after)))}
