"""Who a request comes from: passwords (argon2id), sessions in cookies, CSRF tokens, the
sign-in rate limit and passkeys (WebAuthn through the ``webauthn`` library).

A session is 192 random bits in the ``cathedral_session`` cookie (``HttpOnly``,
``SameSite=Lax``, ``Secure`` over HTTPS), stored only as its SHA-256 with a CSRF token of its
own; signing in always makes a new one and ends the one presented, so a session id planted
before sign-in is worth nothing after it. A write authorised by the cookie must carry the
CSRF token in ``X-CSRF-Token`` (``csrf_checked``): another site can make a browser send the
cookie, never read the token.
"""

from __future__ import annotations

import base64
import hmac
import re
import time
from dataclasses import dataclass
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from cathedral.server.accounts import Account
from cathedral.server.errors import Forbidden, TooMany, Unauthorized
from cathedral.server.security import RateLimiter, hash_token, new_token

COOKIE = "cathedral_session"
SESSION_S = 30 * 24 * 3600
TICKET_S = 300.0  # a passkey ceremony must finish within five minutes
NAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024  # argon2 reads any length; a megabyte of password is an attack
WRONG = "wrong name or password"

_hasher = PasswordHasher()  # argon2id, the library's current recommended cost
# Verified against when the name is unknown, so a miss costs what a wrong password does.
_DUMMY = _hasher.hash("not a password of anyone")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed in ``stored``; with nothing stored the same
    work is done and the answer is no."""
    try:
        return _hasher.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Signed:
    """A signed-in request: the account, its CSRF token and the session's stored hash."""

    account: Account
    csrf: str
    session_hash: str

    def view(self) -> dict:
        a = self.account
        return {"name": a.name, "csrf": self.csrf, "email": a.email, "notify": a.notify,
                "passkeys": a.passkeys, "password": a.password_hash is not None,
                "created": a.created}


async def signed(connection: HTTPConnection) -> Signed | None:
    """The session the request's cookie opens, or None (no cookie, unknown, expired)."""
    token = connection.cookies.get(COOKIE)
    if not token or len(token) > 100:
        return None
    cache = connection.scope.setdefault("state", {})
    if "signed" in cache:
        return cache["signed"]
    hub = connection.app.state.hub
    id_hash = hash_token(token)
    found = await hub.db(hub.accounts.session, id_hash, time.time())
    result = None if found is None else Signed(found[0], found[1], id_hash)
    cache["signed"] = result
    return result


def csrf_matches(request: HTTPConnection, who: Signed) -> bool:
    presented = request.headers.get("x-csrf-token", "")
    return hmac.compare_digest(presented.encode(), who.csrf.encode())


async def maybe_signed(request: Request) -> Signed | None:
    """A write that an account may make: signed in with the CSRF token, or anonymous. A
    session cookie without the right token is refused (403), never read as anonymous: a
    forged request must not quietly do something else."""
    who = await signed(request)
    if who is not None and not csrf_matches(request, who):
        raise Forbidden("missing or wrong X-CSRF-Token header: a signed-in write must send "
                        "the csrf token GET /api/me gives")
    return who


async def signed_in(request: Request) -> Signed:
    who = await signed(request)
    if who is None:
        raise Unauthorized("sign in first: this needs an account (POST /api/account/signin)")
    return who


async def csrf_checked(request: Request) -> Signed:
    """A signed-in write: the session and its CSRF token, else 401 or 403."""
    who = await signed_in(request)
    if not csrf_matches(request, who):
        raise Forbidden("missing or wrong X-CSRF-Token header: a signed-in write must send "
                        "the csrf token GET /api/me gives")
    return who


SignedIn = Annotated[Signed, Depends(signed_in)]
MaybeSigned = Annotated[Signed | None, Depends(signed)]
Writer = Annotated[Signed, Depends(csrf_checked)]
MaybeWriter = Annotated[Signed | None, Depends(maybe_signed)]


def same_site(request: Request) -> None:
    """Refuses a sign-up or sign-in posted from another site's page (its ``Origin``)."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin.rstrip("/") != site_origin(request):
        raise Forbidden("this request came from another site's page")


def site_origin(request: HTTPConnection) -> str:
    """The origin the browser sees (scheme and host, through a trusted proxy's headers)."""
    settings = request.app.state.settings
    if settings.public_url:
        return settings.public_url.rstrip("/")
    host = request.headers.get("host") or f"{request.url.hostname}:{request.url.port}"
    return f"{request.url.scheme}://{host}"


def rp_id(request: HTTPConnection) -> str:
    """The WebAuthn relying party: the site's host name (never an IP address in practice:
    browsers refuse those)."""
    settings = request.app.state.settings
    if settings.rp_id:
        return settings.rp_id
    origin = site_origin(request)
    host = origin.split("://", 1)[1]
    return host.rsplit(":", 1)[0] if not host.endswith("]") else host


class SignInLimits:
    """Sign-in attempts per address and per name (``rate`` a minute, bursts of ``burst``):
    guessing passwords is slow whether it spreads over names or over addresses."""

    def __init__(self, per_minute: float, burst: float = 10.0) -> None:
        rate = per_minute / 60.0
        self.addresses = RateLimiter(rate, burst)
        self.names = RateLimiter(rate, burst)

    def check(self, address: str, name: str | None) -> None:
        if not self.addresses.allow(address) or (
                name is not None and not self.names.allow(name.casefold())):
            bucket = self.addresses.bucket(address)
            raise TooMany("too many sign-in attempts: wait a minute and try again",
                          retry_after=max(1.0, bucket.retry_after()))


def new_session() -> tuple[str, str, str]:
    """A new session's secrets: (the cookie's token, its stored hash, the CSRF token)."""
    token = new_token()
    return token, hash_token(token), new_token()


def set_cookie(request: HTTPConnection, response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=SESSION_S, path="/", httponly=True,
                        samesite="lax", secure=secure(request))


def presented_hash(request: HTTPConnection) -> str | None:
    token = request.cookies.get(COOKIE)
    return hash_token(token) if token and len(token) <= 100 else None


def secure(request: HTTPConnection) -> bool:
    settings = request.app.state.settings
    if settings.secure_cookies is not None:
        return settings.secure_cookies
    return site_origin(request).startswith("https://")


def clear_session(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=secure(request))
