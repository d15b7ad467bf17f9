"""Many servers, one site: the Redis channel every process publishes its changes on.

With ``--redis``, each change a process makes to a game (a move, a computer move, the chance
outcomes after it, a clock event, the end, a take-back, a join, a rematch link) is announced on
one Redis pub/sub channel as ``<process> <game id>``. Every other process that has the game
cached (or is loading it) reloads it from the database (the one source of truth; the message
carries no state, so a lost or reordered message costs only a reload) and pushes the new view
to its own sockets.
When the subscription breaks (Redis restarted), the listener reconnects and then reloads every
cached game and re-sends its view: changes published meanwhile were lost, the database was not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING

from cathedral.server.logs import event

if TYPE_CHECKING:
    from cathedral.server.hub import Hub

log = logging.getLogger("cathedral.server")

CHANNEL = "cathedral:games"
RETRY_S = 0.5  # between attempts to reach Redis again


class SiteBus:
    """The publishing and listening half of one process on the site's Redis."""

    def __init__(self, url: str, hub: Hub) -> None:
        import redis.asyncio

        self.url = url
        self.hub = hub
        self.origin = secrets.token_hex(6)  # this process: its own messages are skipped
        self.redis = redis.asyncio.from_url(url, socket_connect_timeout=2,
                                            health_check_interval=5)
        self._refreshing: dict[str, bool] = {}  # game id -> another change came meanwhile
        self.connected = asyncio.Event()

    async def start(self) -> None:
        self.hub.spawn(self._listen())

    async def close(self) -> None:
        await self.redis.aclose()

    def publish(self, game_id: str) -> None:
        """Announces a change of ``game_id`` (in the background: a move never waits for it)."""
        self.hub.spawn(self._publish(game_id))

    async def _publish(self, game_id: str) -> None:
        try:
            await self.redis.publish(CHANNEL, f"{self.origin} {game_id}")
        except Exception as exc:  # Redis down: the others resync when it is back
            log.warning("could not publish a change of game %s: %s", game_id, exc)

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(CHANNEL)
                self.connected.set()
                if not first:
                    event("redis_resync", games=len(self.hub.tables))
                    for game_id in list(self.hub.tables):
                        self.changed(game_id, resend=True)
                first = False
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    data = message["data"]
                    text = data.decode() if isinstance(data, bytes) else str(data)
                    origin, _, game_id = text.partition(" ")
                    if origin != self.origin and game_id:
                        self.changed(game_id)
                raise ConnectionError("subscription ended")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected.is_set():
                    log.warning("lost the Redis subscription (%s); retrying", exc)
                self.connected.clear()
                await asyncio.sleep(RETRY_S)
            finally:
                with contextlib.suppress(Exception):  # a broken one closes badly; it is gone
                    await pubsub.aclose()

    def changed(self, game_id: str, resend: bool = False) -> None:
        """Reloads a cached game (at most one reload at a time per game, then once more if
        another change came meanwhile). A game being loaded is looked at again once loaded:
        its load may have read the database before this change."""
        if game_id not in self.hub.tables:
            pending = self.hub.loading(game_id)
            if pending is not None:
                self.hub.spawn(self._after_load(pending, game_id, resend))
            return
        if game_id in self._refreshing:
            self._refreshing[game_id] = True
            return
        self._refreshing[game_id] = False
        self.hub.spawn(self._refresh(game_id, resend))

    async def _after_load(self, pending: asyncio.Future, game_id: str, resend: bool) -> None:
        with contextlib.suppress(Exception):  # a load that failed cached nothing to refresh
            await asyncio.shield(pending)
        self.changed(game_id, resend)

    async def _refresh(self, game_id: str, resend: bool) -> None:
        try:
            while True:
                try:
                    await self.hub.refresh(game_id, resend=resend)
                except Exception:
                    log.exception("could not reload game %s", game_id)
                if not self._refreshing.get(game_id):
                    return
                self._refreshing[game_id] = False
        finally:
            self._refreshing.pop(game_id, None)
