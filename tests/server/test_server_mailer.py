"""Notification e-mail (``cathedral.server.mailer``): the ``--smtp`` URL, its repr without the
password, the address check, and real delivery to a local aiosmtpd server (plain, with AUTH,
and the failures a caller retries)."""

from __future__ import annotations

import email
import email.policy
import smtplib
import socket
from dataclasses import dataclass, field

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from cathedral.server.mailer import Mailer, SmtpUrl, valid_address

REFUSED = "nobody@example.org"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Inbox:
    """The handler and authenticator of the test server: what it received."""

    messages: list[tuple[str, list[str], email.message.EmailMessage]] = field(default_factory=list)
    logins: list[tuple[str, bytes, bytes]] = field(default_factory=list)
    accept_login: bool = True

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address == REFUSED:
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        # The wire's CRLF line ends, read back as Python's.
        content = envelope.content.replace(b"\r\n", b"\n")
        msg = email.message_from_bytes(content, policy=email.policy.default)
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), msg))
        return "250 Message accepted for delivery"

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        assert isinstance(auth_data, LoginPassword)
        self.logins.append((mechanism, auth_data.login, auth_data.password))
        # handled=False: aiosmtpd answers a refusal itself (535) rather than leave it to us.
        return AuthResult(success=self.accept_login, handled=False)


def serve(inbox: Inbox, **kwargs):
    # server_hostname skips aiosmtpd's lookup of this machine's name (slow on some hosts).
    controller = Controller(
        inbox, hostname="127.0.0.1", port=free_port(), server_hostname="localhost", **kwargs
    )
    controller.start()
    return controller


@pytest.fixture
def server():
    inbox = Inbox()
    controller = serve(inbox)
    yield inbox, controller.port
    controller.stop()


@pytest.fixture
def auth_server():
    inbox = Inbox()
    controller = serve(inbox, authenticator=inbox.authenticate, auth_require_tls=False)
    yield inbox, controller.port
    controller.stop()


# -- the URL ------------------------------------------------------------------------------


def test_parse_defaults():
    url = SmtpUrl.parse("smtp://mail.example.org")
    assert (url.host, url.port, url.tls, url.starttls) == ("mail.example.org", 25, False, False)
    assert (url.user, url.password, url.sender) == (None, None, "cathedral@mail.example.org")
    assert url.scheme == "smtp"


def test_parse_smtps_default_port_and_options():
    url = SmtpUrl.parse("smtps://relay.example.org?from=games%2Bbot@example.org")
    assert (url.port, url.tls, url.starttls) == (465, True, False)
    assert url.sender == "games+bot@example.org"
    url = SmtpUrl.parse("SMTP://relay.example.org:587/?starttls=1&from=a+b@example.org")
    assert (url.port, url.tls, url.starttls) == (587, False, True)
    assert url.sender == "a+b@example.org"  # '+' stays a plus, as in an address


def test_parse_percent_decodes_user_and_password():
    url = SmtpUrl.parse("smtp://me%40example.org:p%3Ass%2Fw%40rd%20x@h.example.org:2525")
    assert (url.user, url.password, url.port) == ("me@example.org", "p:ss/w@rd x", 2525)
    assert SmtpUrl.parse("smtp://me@h.example.org").password is None


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://h.example.org", "got scheme 'http'"),
        ("mail.example.org", "got scheme none"),
        ("smtp://", "expected a host name"),
        ("smtp://user:pw@:25", "expected a host name"),
        ("smtp://h.example.org:abc", "port to be a number from 1 to 65535"),
        ("smtp://h.example.org:0", "port to be a number from 1 to 65535"),
        ("smtp://h.example.org:70000", "port to be a number from 1 to 65535"),
        ("smtp://h.example.org/path", "expected nothing after the host and port"),
        ("smtp://h.example.org?start_tls=1", "got 'start_tls'"),
        ("smtp://h.example.org?starttls=maybe", "starttls= in the SMTP URL to be 1 or 0"),
        ("smtps://h.example.org?starttls=1", "starttls only with smtp://"),
        ("smtp://h.example.org?from=not-an-address", "from= in the SMTP URL"),
        ("smtp://[::1", "does not parse"),
    ],
)
def test_parse_refuses_with_one_sentence(url, words):
    with pytest.raises(ValueError, match=r"^expected ") as info:
        SmtpUrl.parse(url)
    text = str(info.value)
    assert words in text
    assert "\n" not in text and text.count(". ") == 0


def test_refusals_do_not_repeat_the_password():
    with pytest.raises(ValueError) as info:
        SmtpUrl.parse("smtp://me:hunter2@h.example.org:nope")
    assert "hunter2" not in str(info.value)


def test_repr_and_str_hide_the_password():
    url = SmtpUrl.parse("smtp://me:hunter2@h.example.org?starttls=1")
    for text in (repr(url), str(url), repr(Mailer(url)), f"{url}", str([url])):
        assert "hunter2" not in text
        assert "***" in text
    assert str(url) == "smtp://me:***@h.example.org:25?from=cathedral@h.example.org&starttls=1"
    assert "password=None" in repr(SmtpUrl.parse("smtp://h.example.org"))
    # What str shows parses back to the same settings, the password aside.
    again = SmtpUrl.parse(str(url))
    assert (again.host, again.port, again.user, again.sender, again.starttls) == (
        url.host,
        url.port,
        url.user,
        url.sender,
        url.starttls,
    )


# -- addresses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["ann@example.org", "a.b+tag@mail.example.co.uk", "x@y.z", "Ünï@exämple.de", "1@2.3"],
)
def test_valid_addresses(text):
    assert valid_address(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ann",
        "ann@",
        "@example.org",
        "ann@localhost",
        "ann@@example.org",
        "ann@b@example.org",
        "ann smith@example.org",
        "ann@example.org ",
        "ann@example.org\r\nBcc: x@y.z",
        "ann\x00@example.org",
        "ann\x7f@example.org",
        "ann@.example.org",
        "ann@example.org.",
        "ann@example..org",
        "a" * 250 + "@b.cd",
    ],
)
def test_invalid_addresses(text):
    assert not valid_address(text)


def test_address_length_limit():
    assert valid_address("a" * 249 + "@b.cd")  # 254 characters
    assert not valid_address("a" * 250 + "@b.cd")


# -- sending ------------------------------------------------------------------------------


def test_message_arrives(server):
    inbox, port = server
    url = SmtpUrl.parse(f"smtp://127.0.0.1:{port}?from=games@example.org")
    Mailer(url, timeout_s=2).send("ann@example.org", "Your turn in game 42", "Move when ready.\n")
    [(mail_from, rcpt_tos, msg)] = inbox.messages
    assert (mail_from, rcpt_tos) == ("games@example.org", ["ann@example.org"])
    assert msg["From"] == "games@example.org"
    assert msg["To"] == "ann@example.org"
    assert msg["Subject"] == "Your turn in game 42"
    assert msg.get_content() == "Move when ready.\n"
    assert msg["Date"] and email.utils.parsedate_to_datetime(msg["Date"])
    assert msg["Message-ID"].endswith("@example.org>")


def test_non_ascii_subject_and_body_arrive(server):
    inbox, port = server
    url = SmtpUrl.parse(f"smtp://127.0.0.1:{port}")
    Mailer(url, timeout_s=2).send("ann@example.org", "Zug für Jörg ♜", "Kathedrale gesetzt ✓\n")
    [(mail_from, _, msg)] = inbox.messages
    assert mail_from == "cathedral@127.0.0.1"
    assert msg["Subject"] == "Zug für Jörg ♜"
    assert msg.get_content() == "Kathedrale gesetzt ✓\n"


def test_auth_sends_the_decoded_credentials(auth_server):
    inbox, port = auth_server
    url = SmtpUrl.parse(f"smtp://me%40example.org:s%3Acret@127.0.0.1:{port}")
    Mailer(url, timeout_s=2).send("ann@example.org", "hello", "body")
    [(mechanism, login, password)] = inbox.logins
    assert mechanism in ("PLAIN", "LOGIN")
    assert (login, password) == (b"me@example.org", b"s:cret")
    assert len(inbox.messages) == 1


def test_refused_login_raises_without_the_password(auth_server):
    inbox, port = auth_server
    inbox.accept_login = False
    url = SmtpUrl.parse(f"smtp://me:hunter2@127.0.0.1:{port}")
    with pytest.raises(smtplib.SMTPAuthenticationError) as info:
        Mailer(url, timeout_s=2).send("ann@example.org", "hello", "body")
    assert "hunter2" not in str(info.value) and "hunter2" not in repr(info.value)
    assert inbox.messages == []


def test_refused_recipient_raises(server):
    inbox, port = server
    url = SmtpUrl.parse(f"smtp://127.0.0.1:{port}")
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        Mailer(url, timeout_s=2).send(REFUSED, "hello", "body")
    assert inbox.messages == []


def test_starttls_the_server_lacks_raises(server):
    _, port = server
    url = SmtpUrl.parse(f"smtp://127.0.0.1:{port}?starttls=1")
    with pytest.raises(smtplib.SMTPNotSupportedError):
        Mailer(url, timeout_s=2).send("ann@example.org", "hello", "body")


def test_closed_port_raises():
    url = SmtpUrl.parse(f"smtp://127.0.0.1:{free_port()}")
    with pytest.raises(OSError):
        Mailer(url, timeout_s=0.5).send("ann@example.org", "hello", "body")


def test_silent_server_times_out():
    # Listens but never greets: the timeout, not the server, ends the wait.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        url = SmtpUrl.parse(f"smtp://127.0.0.1:{listener.getsockname()[1]}")
        with pytest.raises(OSError):
            Mailer(url, timeout_s=0.2).send("ann@example.org", "hello", "body")


@pytest.mark.parametrize(
    ("to", "subject"),
    [("not an address", "hello"), ("ann@example.org", "hello\r\nBcc: eve@example.org")],
)
def test_bad_message_is_refused_before_connecting(to, subject):
    # The port is closed, so an attempt would raise OSError: ValueError means none was made.
    url = SmtpUrl.parse(f"smtp://127.0.0.1:{free_port()}")
    with pytest.raises(ValueError):
        Mailer(url, timeout_s=0.5).send(to, subject, "body")
