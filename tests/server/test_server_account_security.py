"""Attacks on accounts, in process: forged writes (CSRF), planted sessions (fixation),
password guessing (the sign-in limit), names found out from failed sign-ins (enumeration),
and a deleted account's name looked for in every answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests run with --import-mode=importlib

from test_server_accounts import Person, secret, serve, wait_until

from cathedral.server import auth
from cathedral.server.auth import SignInLimits
from cathedral.server.errors import TooMany

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


# ----- CSRF ---------------------------------------------------------------------------------


CSRF_WRITES = [
    ("POST", "/api/account/settings", {"email": "forged@example.org"}),
    ("POST", "/api/account/signout", None),
    ("POST", "/api/account/delete", {"name": "Victim_1"}),
    ("POST", "/api/games", {"game": "classic", "seats": ["human", "easy"]}),
    ("POST", "/api/challenges", {"game": "classic"}),
    ("POST", "/api/pairing", {"game": "classic"}),
    ("POST", "/api/me/notifications/read", {"up_to": 10}),
    ("POST", "/api/account/passkey/options", {"purpose": "add"}),
]


@pytest.mark.parametrize("header", [None, "wrong-token"])
def test_csrf_a_cookie_write_without_the_sessions_token_is_refused_and_changes_nothing(
        db, header):
    with serve(db) as client:
        victim = Person(client, "Victim_1")
        before = victim.get("/api/me").json()["account"]
        headers = {} if header is None else {"X-CSRF-Token": header}
        for method, path, body in CSRF_WRITES:
            answer = victim.http.request(method, path, json=body, headers=headers)
            assert answer.status_code == 403, (path, answer.text)
            assert "X-CSRF-Token" in answer.json()["error"]
        assert victim.get("/api/me").json()["account"] == before  # still signed in, unchanged
        assert client.get("/api/lobby").json()["open"] == []
        assert client.get("/api/challenges").json()["open"] == []
        assert victim.get("/api/me/games").json()["games"] == []


def test_csrf_accepting_a_challenge_joining_and_claiming_need_the_token_too(db):
    with serve(db) as client:
        host, victim = Person(client, "host_1"), Person(client, "victim_2")
        challenge = host.post("/api/challenges", {"game": "classic"}).json()
        forged = victim.http.post(f"/api/challenges/{challenge['id']}/accept")
        assert forged.status_code == 403
        assert client.get(f"/api/challenges/{challenge['id']}").json()["status"] == "open"
        table = client.post("/api/games", json={"game": "classic", "public": True,
                                                "seats": ["human", "human"]}).json()
        assert victim.http.post(f"/api/games/{table['id']}/join",
                                json={"player": 1}).status_code == 403
        token = table["seats"][0]["token"]
        claimed = victim.http.post(f"/api/games/{table['id']}/claim",
                                   headers={"Authorization": f"Bearer {token}"})
        assert claimed.status_code == 403
        view = client.get(f"/api/games/{table['id']}").json()
        assert view["names"] == [None, None] and view["open_seats"] == [1]


def test_sign_in_and_sign_up_from_another_sites_page_are_refused(db):
    with serve(db) as client:
        evil = {"Origin": "https://evil.example"}
        up = client.post("/api/account/signup", json={"name": "planted", "password": "x" * 8},
                         headers=evil)
        assert up.status_code == 403 and "another site" in up.json()["error"]
        assert client.get("/api/players/planted").status_code == 404
        own = {"Origin": "http://testserver"}
        assert client.post("/api/account/signup", json={"name": "own_site", "password": "x" * 8},
                           headers=own).status_code == 201


# ----- session fixation -----------------------------------------------------------------------


def _session_of(answer) -> str:
    """The session a sign-in's ``Set-Cookie`` issued."""
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(auth.COOKIE + "=")
    return cookie.split(";", 1)[0].split("=", 1)[1]


def _with(session: str) -> dict:
    return {"Cookie": f"{auth.COOKIE}={session}"}


def test_session_fixation_a_planted_session_id_is_never_the_one_signed_in(db):
    with serve(db) as client:
        Person(client, "fixed_1")
        answer = client.post("/api/account/signin", headers=_with("attacker-chosen-value"),
                             json={"name": "fixed_1", "password": "correct horse battery"})
        assert answer.status_code == 200
        issued = _session_of(answer)
        assert issued != "attacker-chosen-value"
        assert client.get("/api/me", headers=_with(issued)).json()["account"]["name"] == "fixed_1"
        planted = client.get("/api/me", headers=_with("attacker-chosen-value")).json()
        assert planted == {"account": None}


def test_session_fixation_signing_in_ends_the_session_the_browser_presented(db):
    with serve(db) as client:
        Person(client, "alice_2")
        mallory = client.post("/api/account/signup", json={"name": "mallory",
                                                           "password": "x" * 8})
        known = _session_of(mallory)  # a live session the attacker knows
        answer = client.post("/api/account/signin", headers=_with(known),  # planted
                             json={"name": "alice_2", "password": "correct horse battery"})
        issued = _session_of(answer)
        assert issued != known
        assert client.get("/api/me", headers=_with(issued)).json()["account"]["name"] == "alice_2"
        assert client.get("/api/me", headers=_with(known)).json() == {"account": None}


def test_signing_out_ends_the_session_on_the_server(db):
    with serve(db) as client:
        answer = client.post("/api/account/signup", json={"name": "leaver", "password": "x" * 8})
        session, csrf = _session_of(answer), answer.json()["account"]["csrf"]
        out = client.post("/api/account/signout", headers={**_with(session), "X-CSRF-Token": csrf})
        assert out.status_code == 204
        assert client.get("/api/me", headers=_with(session)).json() == {"account": None}


# ----- guessing and enumeration -------------------------------------------------------------


def test_the_sign_in_rate_limit_stops_guessing_even_the_right_password(db):
    with serve(db, settings={"signin_rate": 10.0}) as client:
        Person(client, "guarded")
        statuses = [client.post("/api/account/signin",
                                json={"name": "guarded", "password": f"guess {i}"}).status_code
                    for i in range(9)]
        assert statuses == [401] * 9  # the sign-up was the burst's tenth
        right = client.post("/api/account/signin", json={"name": "guarded",
                                                         "password": "correct horse battery"})
        assert right.status_code == 429 and "Retry-After" in right.headers
        other = client.post("/api/account/signin", json={"name": "someone", "password": "x"})
        assert other.status_code == 429  # the address is limited, whatever the name


def test_the_sign_in_limit_counts_each_name_across_addresses():
    now = [0.0]
    limits = SignInLimits(per_minute=6, burst=3)
    for bucket in (limits.addresses, limits.names):
        bucket.clock = lambda: now[0]
    for i in range(3):
        limits.check(f"10.0.0.{i}", "target")
    with pytest.raises(TooMany):
        limits.check("10.0.0.99", "Target")  # a new address, the same name
    now[0] += 10.0  # one attempt a ten seconds comes back
    limits.check("10.0.0.100", "target")


def test_no_username_enumeration_a_failed_sign_in_reads_the_same_for_any_name(db, monkeypatch):
    with serve(db) as client:
        Person(client, "existing")
        verified = []

        class Counting:
            def verify(self, stored, password):
                verified.append(stored)
                return real.verify(stored, password)

        real = auth._hasher
        monkeypatch.setattr(auth, "_hasher", Counting())
        wrong = client.post("/api/account/signin", json={"name": "existing", "password": "no"})
        unknown = client.post("/api/account/signin", json={"name": "nobody_x", "password": "no"})
        odd = client.post("/api/account/signin", json={"name": "not a name!", "password": "no"})
        assert wrong.status_code == unknown.status_code == odd.status_code == 401
        assert wrong.json() == unknown.json() == odd.json() == {"error": auth.WRONG}
        assert len(verified) == 3  # an argon2 verification each: the same work, the same time
        assert verified[1] == verified[2] == auth._DUMMY


def test_a_passkey_sign_in_with_an_unknown_credential_says_only_not_accepted(db):
    with serve(db) as client:
        options = client.post("/api/account/passkey/options", json={"purpose": "signin"})
        assert options.status_code == 200
        assert "allowCredentials" not in options.json()["options"] or \
            options.json()["options"]["allowCredentials"] == []
        answer = client.post("/api/account/passkey/signin", json={
            "ticket": options.json()["ticket"],
            "credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
                           "response": {}}})
        assert answer.status_code == 401 and answer.json() == {"error": "passkey not accepted"}
        again = client.post("/api/account/passkey/signin", json={
            "ticket": options.json()["ticket"], "credential": {"id": "AAAA"}})
        assert again.status_code == 401  # a ticket answers once


# ----- deleting an account ------------------------------------------------------------------


def _everything(client, other: Person, game_ids: list[str]) -> list[str]:
    """Every answer a visitor or another player can get that could carry a name."""
    texts = []
    for game_id in game_ids:
        texts.append(client.get(f"/api/games/{game_id}").text)
        texts.append(client.get(f"/api/games/{game_id}/record").text)
        with client.websocket_connect(f"/ws/games/{game_id}") as socket:
            texts.append(json.dumps(socket.receive_json()))
    texts += [client.get(path).text for path in ("/api/lobby", "/api/challenges")]
    texts += [client.get(f"/api/leaderboard?setting={s}").text
              for s in ("classic", "allmer2", "allmer4", "red2", "red3", "red4")]
    texts += [other.get(path).text for path in (
        "/api/me/games", "/api/me/notifications", "/api/challenges", "/api/players/kept_1",
        "/api/players/kept_1/records")]
    for page in ("/", "/lobby", "/me", "/leaderboard", "/@/Zelda_Q7", f"/g/{game_ids[0]}"):
        texts.append(client.get(page).text)
    return texts


def test_a_deleted_accounts_name_is_gone_from_every_page_and_api_answer(db):
    with serve(db) as client:
        zelda, kept = Person(client, "Zelda_Q7"), Person(client, "kept_1")
        zelda.post("/api/account/settings", {"email": "zelda@example.org"})
        # a finished rated game between them, an unfinished public one, challenges both ways
        challenge = zelda.post("/api/challenges", {"game": "classic", "rated": True}).json()
        accepted = kept.post(f"/api/challenges/{challenge['id']}/accept").json()
        finished = accepted["game_id"]
        kept.post(f"/api/games/{finished}/resign", token=secret(accepted["url"]))
        wait_until(lambda: client.get(f"/api/games/{finished}").json()["rating_changes"])
        table = zelda.post("/api/games", {"game": "classic", "seats": ["human", "human"],
                                          "public": True}).json()
        kept.post(f"/api/games/{table['id']}/join", {"player": 1})
        zelda.post("/api/challenges", {"game": "classic", "to": "kept_1"})
        zelda.post("/api/challenges", {"game": "classic"})
        wait_until(lambda: kept.get("/api/me/notifications").json()["notifications"])
        before = _everything(client, kept, [finished, table["id"]])
        assert any("Zelda_Q7" in text for text in before)

        confirm = zelda.post("/api/account/delete", {"name": "Zelda_Q7"})
        assert confirm.status_code == 204
        after = _everything(client, kept, [finished, table["id"]])
        for text in after:
            assert "zelda" not in text.lower(), text[:300]
        view = client.get(f"/api/games/{finished}").json()
        assert "deleted player" in view["names"] and "kept_1" in view["names"]
        assert client.get("/api/players/Zelda_Q7").status_code == 404
        assert client.get("/api/players/Zelda_Q7/records").status_code == 404
        assert kept.get("/api/players/kept_1").json()["games"]  # the games stay
        back = client.post("/api/account/signin", json={"name": "Zelda_Q7",
                                                         "password": "correct horse battery"})
        assert back.status_code == 401
        assert zelda.get("/api/me").json() == {"account": None}
        # nothing personal is left in the database
        with client.app.state.hub.storage.engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "SELECT name, name_key, password_hash, email FROM accounts WHERE deleted").all()
        assert rows == [(None, None, None, None)]
        again = Person(client, "zelda_q7")  # the name is free again
        assert again.get("/api/players/zelda_q7").json()["games"] == []


def test_deleting_needs_the_own_name_typed(db):
    with serve(db) as client:
        person = Person(client, "careful")
        answer = person.post("/api/account/delete", {"name": "someone"})
        assert answer.status_code == 422
        assert person.get("/api/me").json()["account"]["name"] == "careful"


def test_a_burst_of_password_hashes_never_queues_in_front_of_the_database(db, monkeypatch):
    """Hashes run in threads of their own: with every hashing thread held, a request that
    needs the database is still answered (before the hashes are let go)."""
    import threading

    real = auth._hasher
    release = threading.Event()
    busy = threading.Semaphore(0)

    class Held:
        def hash(self, password):
            busy.release()
            release.wait(60)
            return real.hash(password)

        def verify(self, stored, password):
            return real.verify(stored, password)

    monkeypatch.setattr(auth, "_hasher", Held())
    with serve(db) as client:
        burst = [threading.Thread(target=client.post, args=("/api/account/signup",),
                                  kwargs={"json": {"name": f"burst{i}", "password": "x" * 8}})
                 for i in range(6)]
        for thread in burst:
            thread.start()
        busy.acquire()
        busy.acquire()  # both hashing threads are held
        seen: dict = {}

        def ask() -> None:
            seen["status"] = client.get("/api/challenges").status_code
            seen["held"] = not release.is_set()

        asking = threading.Thread(target=ask)
        asking.start()
        asking.join(20)  # a hang guard: the answer needs no hash
        release.set()
        asking.join(60)
        assert seen == {"status": 200, "held": True}  # answered while every hash was held
        for thread in burst:
            thread.join(60)
        assert client.get("/api/players/burst5").status_code == 200


def test_passwords_and_session_secrets_are_never_logged(db, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    with serve(db) as client:
        up = client.post("/api/account/signup", json={"name": "quiet_1",
                                                      "password": "Pass-Phrase-7731"})
        client.post("/api/account/signin", json={"name": "quiet_1", "password": "wrong-1234x"})
        client.post("/api/account/signin", json={"name": "quiet_1",
                                                 "password": "Pass-Phrase-7731"})
        secrets = [_session_of(up), up.json()["account"]["csrf"]]
    logged = caplog.text
    assert "signup" in logged  # the events are logged...
    for secret_text in ("Pass-Phrase-7731", "wrong-1234x", *secrets):
        assert secret_text not in logged  # ...never what would open an account
