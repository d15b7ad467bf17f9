"""A local SMTP server for the tests (aiosmtpd on 127.0.0.1 and a free port) that keeps
every message it receives, parsed."""

from __future__ import annotations

import email
import email.policy
import socket

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SmtpSink:
    """``with SmtpSink() as sink``: ``sink.url`` for ``--smtp``, ``sink.messages`` received."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.port = free_port()
        self.url = f"smtp://127.0.0.1:{self.port}?from=cathedral@example.org"
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content,
                                                      policy=email.policy.default))
        return "250 OK"

    def __enter__(self) -> SmtpSink:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()
