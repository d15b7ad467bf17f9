"""Seat tokens and rate limits.

A seat token is 192 random bits (``secrets``), shown once and stored only as its SHA-256;
a presented token is hashed and compared with ``hmac.compare_digest``. A plain hash is enough
for secrets this long (nobody can guess one to look it up), and it keeps a move's check cheap.

Rate limits are token buckets: ``rate`` requests per second on average, bursts of ``burst``;
a rate of 0 switches the limit off (the load benchmark does that).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable

TOKEN_BYTES = 24


def new_token() -> str:
    """Returns a fresh secret: 192 random bits, URL-safe text."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """Returns the stored form of a token (hex SHA-256)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_token(token: str, hashes: Iterable[tuple[int, str | None]]) -> int | None:
    """Returns the player whose stored hash matches ``token``, or ``None``; every candidate is
    compared in constant time, so the answer's timing says nothing about the hashes."""
    presented = hash_token(token)
    found = None
    for player, stored in hashes:
        if stored is not None and hmac.compare_digest(presented, stored):
            found = player
    return found


def bearer_token(header: str | None) -> str | None:
    """Returns the token of an ``Authorization: Bearer <token>`` header, or ``None``."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


class TokenBucket:
    """One bucket: ``allow()`` takes a token if there is one."""

    __slots__ = ("burst", "clock", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.level = burst
        self.stamp = clock()

    def allow(self, cost: float = 1.0) -> bool:
        """Takes ``cost`` tokens if there are as many (a request is 1, an upload its bytes)."""
        if self.rate <= 0:
            return True
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= cost:
            self.level -= cost
            return True
        return False

    def retry_after(self, cost: float = 1.0) -> float:
        """Seconds until a request of ``cost`` would be allowed."""
        return 0.0 if self.rate <= 0 else max(0.0, (cost - self.level) / self.rate)


class RateLimiter:
    """A bucket per key (a client address), the least recently used forgotten past
    ``max_keys``."""

    def __init__(self, rate: float, burst: float | None = None, *, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst if burst is not None else max(10.0, 4 * rate)
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def bucket(self, key: str) -> TokenBucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
            if len(self.buckets) > self.max_keys:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket

    def allow(self, key: str, cost: float = 1.0) -> bool:
        """Returns whether ``key`` may make one more request (of ``cost``) now, and counts
        it."""
        return True if self.rate <= 0 else self.bucket(key).allow(cost)
