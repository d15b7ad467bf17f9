"""uvicorn's HTTP protocol with a deadline for a request's head.

uvicorn closes a keep-alive connection that stays idle, but a connection that sends half a
request line, or headers one byte a minute, is held forever: a few hundred of them and the
server runs out of sockets. Here a request's head (request line and headers) must be
complete within ``timeout_s`` of the connection or of its first byte; otherwise the server
answers 408 and closes the connection. The body has its own deadline (``BodyGate``).
"""

from __future__ import annotations

from asyncio import TimerHandle

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

REQUEST_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                   b"connection: close\r\ncontent-length: 58\r\n\r\n"
                   b'{"error": "request head incomplete: send it in one piece"}')


def with_head_timeout(timeout_s: float) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol, closing requests whose head takes over ``timeout_s``."""

    class HeadTimeoutProtocol(HttpToolsProtocol):
        _head_timer: TimerHandle | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(timeout_s, self._expired)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _expired(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.write(REQUEST_TIMEOUT)
                self.transport.close()

    return HeadTimeoutProtocol
