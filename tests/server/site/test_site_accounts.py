"""Accounts on a site of two ``cathedral serve --redis`` processes (one PostgreSQL, one
Redis, one local SMTP server): a session made on one process is valid on the other; a
correspondence game played across both tells each turn once, e-mails it once and is rated
once, whichever process hears of what."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
import pytest
from services import Server

sys.path.insert(0, str(Path(__file__).parent.parent))

from smtp_sink import SmtpSink

import cathedral

PATIENCE_S = 60.0


def wait_until(check, patience: float = PATIENCE_S):
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


class Browser:
    """One person's browser on one process: cookies and the CSRF token."""

    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.csrf = ""

    def on(self, server: Server) -> Browser:
        """The same browser (its cookies) talking to another process."""
        other = Browser(server)
        other.http.cookies = self.http.cookies
        other.csrf = self.csrf
        return other

    def post(self, path: str, body=None, token: str | None = None) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.post(path, json=body, headers=headers)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)


@pytest.fixture
def smtp_site(site_postgres, redis_server, tmp_path):
    with SmtpSink() as sink:
        db = site_postgres.new_database()
        servers = [Server(db, tmp_path / name, extra=[
            "--redis", redis_server.url, "--workers", "1", "--smtp", sink.url,
            "--rate-limit", "off"]).start() for name in ("a", "b")]
        try:
            yield servers, sink
        finally:
            for server in servers:
                server.stop()


def test_accounts_work_across_processes_and_each_notification_rating_and_mail_is_once(
        smtp_site):
    (a, b), sink = smtp_site
    alice = Browser(a)
    signed = alice.http.post("/api/account/signup", json={"name": "alice", "password": "x" * 8})
    assert signed.status_code == 201
    alice.csrf = signed.json()["account"]["csrf"]
    assert alice.on(b).get("/api/me").json()["account"]["name"] == "alice"  # one session
    bob = Browser(b)
    bob.csrf = bob.http.post("/api/account/signup", json={"name": "bob", "password": "y" * 8}
                             ).json()["account"]["csrf"]
    for person, address in ((alice, "alice@example.org"), (bob, "bob@example.org")):
        assert person.post("/api/account/settings", {"email": address}).status_code == 200

    challenge = alice.post("/api/challenges", {"game": "classic", "rated": True,
                                               "clock": {"days_per_move": 1}}).json()
    accepted = bob.post(f"/api/challenges/{challenge['id']}/accept")  # on the other process
    assert accepted.status_code == 201, accepted.text
    game_id = accepted.json()["game_id"]
    urls = {"bob": accepted.json()["url"],
            "alice": alice.on(a).get(f"/api/challenges/{challenge['id']}").json()["url"]}
    view = alice.get(f"/api/games/{game_id}").json()
    told_at_start = view["names"][0] == "alice"  # the accepter needs no word that it began
    people = {"alice": alice, "bob": bob.on(a)}  # every move through process a
    state = cathedral.load("classic").state_from_json(view["state"])
    for ply in range(4):
        mover = view["names"][state.current_player()]
        action = state.legal_actions()[0]
        moved = people[mover].post(f"/api/games/{game_id}/moves",
                                   {"ply": ply, "move": state.action_to_string(action)},
                                   token=urls[mover].split("#", 1)[1])
        assert moved.status_code == 200, moved.text
        state.apply_action(action)
        view = moved.json()
    loser = view["names"][state.current_player()]
    resigned = people[loser].on(b).post(f"/api/games/{game_id}/resign",
                                        token=urls[loser].split("#", 1)[1])
    assert resigned.status_code == 200

    rated = wait_until(lambda: (v := alice.on(b).get(f"/api/games/{game_id}").json())
                       ["rating_changes"] and v)
    assert all(change is not None for change in rated["rating_changes"])
    for server in (a, b):
        for name in ("alice", "bob"):
            page = httpx.get(f"{server.url}/api/players/{name}").json()
            assert page["ratings"]["classic"]["games"] == 1  # rated once
    turns = {}
    for name, person in (("alice", alice), ("bob", bob)):
        for server in (a, b):
            notes = person.on(server).get("/api/me/notifications").json()["notifications"]
            turns[name, server.port] = [n for n in notes if n["kind"] == "turn"]
    for name in ("alice", "bob"):
        assert len(turns[name, a.port]) == len(turns[name, b.port])
    total = len(turns["alice", a.port]) + len(turns["bob", a.port])
    assert total == 4 + told_at_start  # once a turn: each move tells the next player
    expected = total + 1  # the "accepted" notification to alice
    wait_until(lambda: len(sink.messages) >= expected)
    time.sleep(3)  # both processes' senders look again: nothing more goes out
    assert len(sink.messages) == expected
    assert sorted(m["To"] for m in sink.messages).count("alice@example.org") == \
        len(turns["alice", a.port]) + 1
