"""Notification e-mail: the ``--smtp URL`` setting (``SmtpUrl``), the one plain message a
notification becomes and its delivery to that relay (``Mailer``), and the check on an address
a person types into their settings (``valid_address``).

A URL is ``smtp://[user[:password]@]host[:port][?from=addr&starttls=1]`` (port 25, STARTTLS
only when asked) or ``smtps://...`` (TLS from the first byte, port 465). Sending is
synchronous and raises ``smtplib.SMTPException`` or ``OSError`` on any failure: the server
calls it from a thread and tries again later. The password shows in no repr, string or
error text, since settings and errors get logged.
"""

from __future__ import annotations

import email.utils
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import quote, unquote, urlsplit

DEFAULT_PORTS = {"smtp": 25, "smtps": 465}
_FORM = "smtp://[user[:password]@]host[:port][?from=addr&starttls=1] or smtps://..."
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
#: RFC 5321's limit on a forward path, which is what an address has to fit in.
MAX_ADDRESS = 254


def valid_address(text: str) -> bool:
    """Whether ``text`` looks like an e-mail address a person typed: one ``@`` with something
    before it, a domain of dot-separated non-empty labels, no spaces or control characters,
    at most 254 characters. Deliverability is the mail server's business, not this check's."""
    if not text or len(text) > MAX_ADDRESS or text.count("@") != 1:
        return False
    # Spaces and control characters are what would let an address smuggle in a header.
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text):
        return False
    local, domain = text.split("@")
    labels = domain.split(".")
    return bool(local) and len(labels) >= 2 and all(labels)


@dataclass(frozen=True, repr=False)
class SmtpUrl:
    """Where and how to send mail, parsed from the ``--smtp`` URL by ``parse``."""

    host: str
    port: int
    tls: bool = False  # implicit TLS (smtps)
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    sender: str = ""

    @classmethod
    def parse(cls, url: str) -> SmtpUrl:
        """Reads ``url``; a ``ValueError`` says what was expected. Its messages never repeat
        the URL, which may hold the password."""
        try:
            parts = urlsplit(url.strip())
        except ValueError:
            raise ValueError(
                f"expected an SMTP URL like {_FORM}, got one that does not parse"
            ) from None
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS:
            shown = repr(scheme) if scheme else "none"
            raise ValueError(f"expected an SMTP URL like {_FORM}, got scheme {shown}")
        host = parts.hostname
        if not host:
            raise ValueError(f"expected a host name in the SMTP URL, like {_FORM}")
        try:
            port = parts.port
        except ValueError:
            port = 0
        else:
            port = DEFAULT_PORTS[scheme] if port is None else port
        if not 0 < port < 65536:
            raise ValueError("expected the SMTP URL's port to be a number from 1 to 65535")
        if parts.path not in ("", "/") or parts.fragment:
            raise ValueError(
                f"expected nothing after the host and port but ?from=addr and "
                f"&starttls=1 in the SMTP URL, like {_FORM}"
            )
        options: dict[str, str] = {}
        for pair in filter(None, parts.query.split("&")):
            # Not parse_qsl: it reads '+' as a space, and '+' is common in addresses.
            key, _, value = (unquote(half) for half in pair.partition("="))
            if key not in ("from", "starttls") or key in options:
                raise ValueError(
                    f"expected the SMTP URL's options to be from= and starttls= "
                    f"once each, got {key!r}"
                )
            options[key] = value
        flag = options.get("starttls", "").lower()
        if flag not in _TRUE | _FALSE:
            raise ValueError("expected starttls= in the SMTP URL to be 1 or 0")
        starttls = flag in _TRUE
        if starttls and scheme == "smtps":
            raise ValueError(
                "expected starttls only with smtp://, as smtps:// is encrypted from the start"
            )
        sender = options.get("from") or f"cathedral@{host}"
        if not valid_address(sender):
            raise ValueError("expected from= in the SMTP URL to be an e-mail address")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password is not None else None
        return cls(
            host=host,
            port=port,
            tls=scheme == "smtps",
            starttls=starttls,
            user=user,
            password=password,
            sender=sender,
        )

    @property
    def scheme(self) -> str:
        return "smtps" if self.tls else "smtp"

    def __str__(self) -> str:
        auth = ""
        if self.user is not None:
            auth = quote(self.user, safe="")
            if self.password is not None:
                auth += ":***"
            auth += "@"
        host = f"[{self.host}]" if ":" in self.host else self.host
        query = f"?from={quote(self.sender, safe='@')}"
        if self.starttls:
            query += "&starttls=1"
        return f"{self.scheme}://{auth}{host}:{self.port}{query}"

    def __repr__(self) -> str:
        password = None if self.password is None else "***"
        return (
            f"SmtpUrl(host={self.host!r}, port={self.port!r}, tls={self.tls!r}, "
            f"starttls={self.starttls!r}, user={self.user!r}, password={password!r}, "
            f"sender={self.sender!r})"
        )


class Mailer:
    """Sends one plain-text message per call through the relay at ``url``, on a fresh
    connection each time (notifications are rare; a kept connection would only go stale)."""

    def __init__(self, url: SmtpUrl, timeout_s: float = 10.0) -> None:
        self.url = url
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"Mailer({self.url!r}, timeout_s={self.timeout_s!r})"

    def message(self, to: str, subject: str, text: str) -> EmailMessage:
        """The message ``send`` sends; a ``ValueError`` for an address or a header that
        could not be sent (a line break in the subject would forge headers)."""
        if not valid_address(to):
            raise ValueError("expected an e-mail address to send to")
        msg = EmailMessage()
        msg["From"] = self.url.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = email.utils.formatdate(localtime=True)
        # Given a domain, make_msgid skips its lookup of this machine's name, which can stall.
        msg["Message-ID"] = email.utils.make_msgid(domain=self.url.sender.rpartition("@")[2])
        msg.set_content(text)
        return msg

    def send(self, to: str, subject: str, text: str) -> None:
        """Delivers one message or raises ``smtplib.SMTPException`` / ``OSError`` (retry
        later) or ``ValueError`` (do not: the message itself is wrong)."""
        msg = self.message(to, subject, text)
        url = self.url
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if url.tls:
            smtp = smtplib.SMTP_SSL(url.host, url.port, timeout=self.timeout_s, context=context)
        else:
            smtp = smtplib.SMTP(url.host, url.port, timeout=self.timeout_s)
        with smtp:
            if url.starttls:
                smtp.starttls(context=context)
            if url.user is not None:
                # smtplib's errors carry the server's reply, never the credentials sent.
                smtp.login(url.user, url.password or "")
            smtp.send_message(msg)
