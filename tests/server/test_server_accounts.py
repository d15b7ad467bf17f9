"""Accounts in process (FastAPI's TestClient on a SQLite file): signing up and in, sessions,
rated games and their Glicko-2 changes, challenges and pairing, correspondence clocks and
their notifications, claiming a seat, deleting an account. The attacks on accounts (CSRF,
fixation, guessing, enumeration) are in test_server_account_security.py."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import cathedral
from cathedral.server import glicko
from cathedral.server.app import create_app
from cathedral.server.models import GameView
from cathedral.server.settings import Settings

sys.path.insert(0, str(Path(__file__).parent))  # the tests run with --import-mode=importlib

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class FakeTime:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def serve(db: str, **options) -> TestClient:
    settings = options.pop("settings", {})
    return TestClient(create_app(Settings(db=db, workers=1, **settings), **options))


class Person:
    """One browser: its own cookies, its CSRF token; its requests run on the server's event
    loop (``client``'s), as they would on a real server."""

    def __init__(self, client: TestClient, name: str,
                 password: str = "correct horse battery") -> None:
        self.http = TestClient(client.app)
        self.http.portal = client.portal
        self.name = name
        answer = self.http.post("/api/account/signup", json={"name": name,
                                                             "password": password})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["account"]["csrf"]

    def post(self, path: str, body=None, token: str | None = None, **kwargs):
        headers = {"X-CSRF-Token": self.csrf}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.post(path, json=body, headers=headers, **kwargs)

    def get(self, path: str):
        return self.http.get(path)


def secret(url: str) -> str:
    return url.split("#", 1)[1]


def wait_until(check, patience: float = 30.0):
    """A bounded wait for a background task (a rating, a notification)."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def ratings_after_game(a: Person, b: Person, client) -> tuple[str, dict]:
    """a challenges, b accepts, the first seat resigns: returns the game and its view."""
    challenge = a.post("/api/challenges", {"game": "classic", "rated": True})
    assert challenge.status_code == 201, challenge.text
    accepted = b.post(f"/api/challenges/{challenge.json()['id']}/accept")
    assert accepted.status_code == 201, accepted.text
    game_id = accepted.json()["game_id"]
    view = client.get(f"/api/games/{game_id}").json()
    loser = a if view["names"][0] == a.name else b
    mine = a.get(f"/api/challenges/{challenge.json()['id']}").json()["url"]
    token = secret(mine) if loser is a else secret(accepted.json()["url"])
    assert loser.post(f"/api/games/{game_id}/resign", token=token).status_code == 200
    view = wait_until(lambda: (v := client.get(f"/api/games/{game_id}").json())
                      ["rating_changes"] and v)
    return game_id, view


# ----- accounts -----------------------------------------------------------------------------


def test_sign_up_sign_out_and_sign_in_with_a_password(db):
    with serve(db) as client:
        alice = Person(client, "Alice")
        me = alice.get("/api/me").json()["account"]
        assert me["name"] == "Alice" and me["password"] is True and me["passkeys"] == 0
        assert alice.post("/api/account/signout").status_code == 204
        assert alice.get("/api/me").json() == {"account": None}
        back = alice.http.post("/api/account/signin", json={"name": "alice",
                                                            "password": "correct horse battery"})
        assert back.status_code == 200 and back.json()["account"]["name"] == "Alice"
        assert alice.get("/api/me").json()["account"]["name"] == "Alice"


def test_names_are_unique_without_regard_to_case_and_checked(db):
    with serve(db) as client:
        Person(client, "Bob")
        again = client.post("/api/account/signup", json={"name": "BOB", "password": "x" * 8})
        assert again.status_code == 409 and "taken" in again.json()["error"]
        for name in ("ab", "with space", "x" * 21, "<script>"):
            bad = client.post("/api/account/signup", json={"name": name, "password": "x" * 8})
            assert bad.status_code == 422 and "3 to 20" in bad.json()["error"]
        short = client.post("/api/account/signup", json={"name": "carol", "password": "short"})
        assert short.status_code == 422 and "8 characters" in short.json()["error"]


def test_the_session_cookie_is_httponly_samesite_and_secure_over_https(db):
    with serve(db) as client:
        answer = client.post("/api/account/signup", json={"name": "dora", "password": "x" * 8})
        cookie = answer.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    with serve(db, settings={"public_url": "https://cathedral.example"}) as client:
        answer = client.post("/api/account/signin", json={"name": "dora", "password": "x" * 8})
        assert "; secure" in answer.headers["set-cookie"].lower()


def test_the_password_is_stored_as_an_argon2id_hash(db):
    with serve(db) as client:
        Person(client, "erin", "my secret words")
        account = client.app.state.hub.accounts.by_name("erin")
        assert account.password_hash.startswith("$argon2id$")
        assert "my secret words" not in account.password_hash


def test_settings_change_the_email_address_and_the_notification_switches(db):
    with serve(db) as client:
        fay = Person(client, "fay")
        answer = fay.post("/api/account/settings", {"email": "fay@example.org",
                                                     "notify": {"browser": False}})
        assert answer.status_code == 200
        account = answer.json()["account"]
        assert account["email"] == "fay@example.org"
        assert account["notify"] == {"page": True, "browser": False, "email": True}
        bad = fay.post("/api/account/settings", {"email": "not an address"})
        assert bad.status_code == 422
        assert fay.get("/api/me").json()["account"]["email"] == "fay@example.org"


# ----- rated games ----------------------------------------------------------------------------


def test_a_rated_game_between_two_accounts_changes_both_ratings_as_glicko2_says(db):
    with serve(db) as client:
        a, b = Person(client, "gina"), Person(client, "hank")
        game_id, view = ratings_after_game(a, b, client)
        GameView.model_validate(view)
        assert view["rated"] is True
        winner = view["returns"].index(1.0)
        new = glicko.Rating()
        expected_win = glicko.rate(new, [(new, 1.0)])
        expected_loss = glicko.rate(new, [(new, 0.0)])
        for seat, change in enumerate(view["rating_changes"]):
            want = expected_win if seat == winner else expected_loss
            assert change["before"] == 1500.0
            assert change["after"] == pytest.approx(want.rating, abs=0.05)
        page = a.get(f"/api/players/{a.name}").json()
        entry = page["ratings"]["classic"]
        assert entry["games"] == 1 and len(entry["history"]) == 1
        assert entry["history"][0]["game_id"] == game_id
        assert page["games"][0]["id"] == game_id and page["games"][0]["rated"] is True
        assert page["games"][0]["result"] in ("win", "loss")


def test_a_rated_game_against_a_computer_uses_the_levels_fixed_rating(db):
    with serve(db) as client:
        ivy = Person(client, "ivy")
        table = ivy.post("/api/games", {"game": "classic", "seats": ["human", "easy"],
                                        "rated": True})
        assert table.status_code == 201, table.text
        game_id, token = table.json()["id"], table.json()["seats"][0]["token"]
        assert ivy.post(f"/api/games/{game_id}/resign", token=token).status_code == 200
        view = wait_until(lambda: (v := client.get(f"/api/games/{game_id}").json())
                          ["rating_changes"] and v)
        easy = glicko.computer_rating("classic", "easy")
        want = glicko.rate(glicko.Rating(), [(easy, 0.0)])
        assert view["rating_changes"][0]["after"] == pytest.approx(want.rating, abs=0.05)
        assert view["rating_changes"][1] is None  # the computer's rating never moves


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "classic", "seats": ["human", "human"], "rated": True}, "open seats"),
    ({"game": "classic", "seats": ["human", "easy"], "rated": True,
      "params": {"opening": "lehmann"}}, "not rated"),
    ({"game": "classic", "seats": ["human", "greedy"], "rated": True}, "no rating"),
])
def test_a_rated_table_refuses_what_cannot_be_rated(db, body, words):
    with serve(db) as client:
        jack = Person(client, "jack")
        answer = jack.post("/api/games", body)
        assert answer.status_code == 422 and words in answer.json()["error"], answer.text


def test_a_rated_table_needs_an_account_and_its_open_seats_are_for_accounts(db):
    with serve(db) as client:
        anonymous = client.post("/api/games", json={"game": "classic", "rated": True,
                                                    "seats": ["human", "easy"]})
        assert anonymous.status_code == 401
        kim = Person(client, "kim")
        table = kim.post("/api/games", {"game": "classic", "seats": ["human", "human"],
                                        "rated": True, "public": True}).json()
        refused = client.post(f"/api/games/{table['id']}/join", json={"player": 1})
        assert refused.status_code == 401
        lee = Person(client, "lee")
        joined = lee.post(f"/api/games/{table['id']}/join", {"player": 1})
        assert joined.status_code == 201
        view = client.get(f"/api/games/{table['id']}").json()
        assert view["names"] == ["kim", "lee"] and view["rated"] is True


def test_no_take_back_and_no_hint_in_a_rated_game(db):
    with serve(db) as client:
        mo = Person(client, "moe")
        table = mo.post("/api/games", {"game": "classic", "seats": ["human", "random"],
                                       "rated": True}).json()
        game_id, token = table["id"], table["seats"][0]["token"]
        view = client.get(f"/api/games/{game_id}").json()
        state = cathedral.load("classic").state_from_json(view["state"])
        move = state.action_to_string(state.legal_actions()[0])
        assert mo.post(f"/api/games/{game_id}/moves", {"ply": 0, "move": move},
                       token=token).status_code == 200
        assert mo.post(f"/api/games/{game_id}/takeback", token=token).status_code == 409
        assert client.get(f"/api/games/{game_id}").json()["takeback"] is False
        hint = client.get(f"/api/games/{game_id}/hint?level=easy",
                          headers={"Authorization": f"Bearer {token}"})
        assert hint.status_code == 403 and "rated" in hint.json()["error"]


def test_rating_updates_never_hold_up_the_answer_to_a_move(db):
    with serve(db) as client:
        a, b = Person(client, "nia"), Person(client, "otto")
        accounts = client.app.state.hub.accounts
        release = threading.Event()
        original = accounts.apply_rating

        def slow(*args, **kwargs):
            release.wait(30)
            return original(*args, **kwargs)

        accounts.apply_rating = slow
        challenge = a.post("/api/challenges", {"game": "classic", "rated": True}).json()
        accepted = b.post(f"/api/challenges/{challenge['id']}/accept").json()
        game_id = accepted["game_id"]
        answer = b.post(f"/api/games/{game_id}/resign", token=secret(accepted["url"]))
        assert answer.status_code == 200  # answered while the rating waits
        assert answer.json()["status"] == "finished" and answer.json()["rating_changes"] is None
        release.set()
        view = wait_until(lambda: (v := client.get(f"/api/games/{game_id}").json())
                          ["rating_changes"] and v)
        assert all(change is not None for change in view["rating_changes"])


def test_a_game_is_rated_once_even_when_asked_twice(db):
    with serve(db) as client:
        a, b = Person(client, "pia"), Person(client, "quin")
        game_id, _ = ratings_after_game(a, b, client)
        hub = client.app.state.hub
        client.portal.call(hub.rate, game_id)
        assert a.get("/api/players/pia").json()["ratings"]["classic"]["games"] == 1


def test_the_leaderboard_ranks_established_players_and_lists_the_computers(db):
    with serve(db) as client:
        board = client.get("/api/leaderboard?setting=red2").json()
        assert board["players"] == []
        levels = {c["level"]: c["rating"] for c in board["computers"]}
        assert levels == glicko.COMPUTER_RATINGS["red2"]
        assert client.get("/api/leaderboard?setting=chess").status_code == 422


# ----- challenges and pairing ---------------------------------------------------------------


def test_an_open_challenge_is_accepted_once(db):
    with serve(db) as client:
        a, b, c = (Person(client, n) for n in ("rae", "sam", "tia"))
        challenge = a.post("/api/challenges", {"game": "classic", "rated": False,
                                               "clock": {"initial_s": 600,
                                                         "increment_s": 5}}).json()
        assert challenge["status"] == "open" and challenge["by"]["name"] == "rae"
        listed = client.get("/api/challenges").json()["open"]
        assert [x["id"] for x in listed] == [challenge["id"]]
        assert a.post(f"/api/challenges/{challenge['id']}/accept").status_code == 409
        assert b.post(f"/api/challenges/{challenge['id']}/accept").status_code == 201
        late = c.post(f"/api/challenges/{challenge['id']}/accept")
        assert late.status_code == 409
        done = a.get(f"/api/challenges/{challenge['id']}").json()
        assert done["status"] == "accepted" and done["url"].startswith(f"/g/{done['game_id']}#")
        view = client.get(f"/api/games/{done['game_id']}").json()
        assert sorted(view["names"]) == ["rae", "sam"]
        assert view["clock"]["initial_s"] == 600 and view["rated"] is False
        assert [n["kind"] for n in wait_until(
            lambda: a.get("/api/me/notifications").json()["notifications"])] == ["accepted"]


def test_a_direct_challenge_notifies_its_player_who_may_decline(db):
    with serve(db) as client:
        a, b = Person(client, "uma"), Person(client, "vic")
        challenge = a.post("/api/challenges", {"game": "allmer", "params": {"players": 2},
                                               "to": "VIC"})
        assert challenge.status_code == 201 and challenge.json()["to"] == "vic"
        notes = wait_until(lambda: b.get("/api/me/notifications").json()["notifications"])
        assert notes[0]["kind"] == "challenge" and "uma" in notes[0]["text"]
        assert client.get("/api/challenges").json()["open"] == []  # not open to all
        assert [x["id"] for x in b.get("/api/challenges").json()["to_me"]] == [
            challenge.json()["id"]]
        assert b.http.delete(f"/api/challenges/{challenge.json()['id']}",
                             headers={"X-CSRF-Token": b.csrf}).status_code == 204
        assert a.get(f"/api/challenges/{challenge.json()['id']}").json()["status"] == "declined"
        nobody = a.post("/api/challenges", {"game": "classic", "to": "nobody"})
        assert nobody.status_code == 404
        four = a.post("/api/challenges", {"game": "red", "params": {"players": 4}})
        assert four.status_code == 422 and "two players" in four.json()["error"]


def test_quick_pairing_joins_a_seek_within_both_ranges(db):
    with serve(db) as client:
        a, b = Person(client, "wes"), Person(client, "xia")
        first = a.post("/api/pairing", {"game": "classic", "range": 100})
        assert first.status_code == 201 and first.json()["range"] == [1400.0, 1600.0]
        second = b.post("/api/pairing", {"game": "classic", "range": 100})
        assert second.status_code == 200, second.text
        game_id = second.json()["game_id"]
        seek = a.get(f"/api/challenges/{first.json()['id']}").json()
        assert seek["status"] == "accepted" and seek["game_id"] == game_id
        view = client.get(f"/api/games/{game_id}").json()
        assert view["rated"] is True and sorted(view["names"]) == ["wes", "xia"]


# ----- correspondence -----------------------------------------------------------------------


def test_a_correspondence_clock_gives_every_move_its_days_and_tells_the_next_player(db):
    fake = FakeTime()
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        a, b = Person(client, "yan"), Person(client, "zoe")
        challenge = a.post("/api/challenges", {"game": "classic",
                                               "clock": {"days_per_move": 2}}).json()
        accepted = b.post(f"/api/challenges/{challenge['id']}/accept").json()
        game_id = accepted["game_id"]
        urls = {"zoe": accepted["url"], "yan": a.get(
            f"/api/challenges/{challenge['id']}").json()["url"]}
        view = client.get(f"/api/games/{game_id}").json()
        assert view["clock"]["per_move"] is True and view["clock"]["initial_s"] == 2 * 86400
        first, second = view["names"]
        people = {"yan": a, "zoe": b}
        mover = people[first]
        token = secret(urls[first])
        assert client.get(f"/api/games/{game_id}/seat",
                          headers={"Authorization": f"Bearer {token}"}).status_code == 200
        other = secret(urls[second])
        client.get(f"/api/games/{game_id}/seat", headers={"Authorization": f"Bearer {other}"})
        fake.t += 86400  # a day to think
        state = cathedral.load("classic").state_from_json(view["state"])
        move = state.action_to_string(state.legal_actions()[0])
        assert mover.post(f"/api/games/{game_id}/moves", {"ply": 0, "move": move},
                          token=token).status_code == 200
        view = client.get(f"/api/games/{game_id}").json()
        assert view["clock"]["remaining_s"][0] == 2 * 86400  # the whole time again
        waiting = people[second]
        note = wait_until(lambda: [n for n in waiting.get("/api/me/notifications").json()
                                   ["notifications"] if n["kind"] == "turn"])
        assert first in note[0]["text"] and game_id in note[0]["url"]
        mine = waiting.get("/api/me/games").json()["games"]
        assert mine[0]["id"] == game_id and mine[0]["your_turn"] is True
        fake.t += 2 * 86400 + 1
        assert client.portal.call(client.app.state.hub.check_clock, game_id) is True
        view = client.get(f"/api/games/{game_id}").json()
        assert view["status"] == "finished" and view["result"]["timeout"] is True


def test_notifications_are_emailed_once_through_the_smtp_server(db):
    from smtp_sink import SmtpSink

    with SmtpSink() as sink, serve(db, settings={"smtp": sink.url}) as client:
        a, b = Person(client, "abe"), Person(client, "bea")
        b.post("/api/account/settings", {"email": "bea@example.org"})
        a.post("/api/challenges", {"game": "classic", "to": "bea"})
        mail = wait_until(lambda: sink.messages)
        assert mail[0]["To"] == "bea@example.org" and "abe challenges you" in mail[0]["Subject"]
        time.sleep(1.5)  # another round of the sender finds nothing more to send
        assert len(sink.messages) == 1
        b.post("/api/account/settings", {"notify": {"email": False}})
        a.post("/api/challenges", {"game": "classic", "to": "bea"})
        wait_until(lambda: len(b.get("/api/me/notifications").json()["notifications"]) == 2)
        time.sleep(1.5)
        assert len(sink.messages) == 1  # switched off


def test_notifications_are_read_up_to_an_id(db):
    with serve(db) as client:
        a, b = Person(client, "cyd"), Person(client, "dee")
        a.post("/api/challenges", {"game": "classic", "to": "dee"})
        a.post("/api/challenges", {"game": "classic", "to": "dee"})
        notes = wait_until(lambda: len(n := b.get("/api/me/notifications").json()
                                       ["notifications"]) == 2 and n)
        assert b.get("/api/me/notifications").json()["unread"] == 2
        assert b.post("/api/me/notifications/read", {"up_to": notes[0]["id"]}).status_code == 204
        answer = b.get(f"/api/me/notifications?after={notes[0]['id']}").json()
        assert answer["unread"] == 1 and [n["id"] for n in answer["notifications"]] == [
            notes[1]["id"]]


# ----- seats --------------------------------------------------------------------------------


def test_an_anonymous_seat_is_claimed_by_signing_in_during_the_game(db):
    with serve(db) as client:
        table = client.post("/api/games", json={"game": "classic",
                                                "seats": ["human", "human"]}).json()
        game_id, old = table["id"], table["seats"][1]["token"]
        eve = Person(client, "eve")
        claimed = eve.post(f"/api/games/{game_id}/claim", token=old)
        assert claimed.status_code == 200 and claimed.json()["player"] == 1
        assert client.get(f"/api/games/{game_id}").json()["names"] == [None, "eve"]
        new = claimed.json()["token"]
        assert client.get(f"/api/games/{game_id}/seat",
                          headers={"Authorization": f"Bearer {old}"}).status_code == 401
        assert client.get(f"/api/games/{game_id}/seat",
                          headers={"Authorization": f"Bearer {new}"}).json() == {"player": 1}
        games = eve.get("/api/me/games").json()["games"]
        assert games[0]["id"] == game_id and secret(games[0]["url"]) == new
        again = eve.post(f"/api/games/{game_id}/claim", token=new)
        assert again.status_code == 409


def test_signed_in_the_first_human_seat_is_the_accounts_and_a_link_opens_it(db):
    with serve(db) as client:
        fin = Person(client, "fin")
        table = fin.post("/api/games", {"game": "classic", "seats": ["human", "human"]}).json()
        view = client.get(f"/api/games/{table['id']}").json()
        assert view["names"] == ["fin", None] and view["rated"] is False
        mine = fin.get("/api/me/games").json()["games"]
        assert secret(mine[0]["url"]) == table["seats"][0]["token"]
        assert mine[0]["your_turn"] is True


def test_a_record_names_the_accounts(db):
    with serve(db) as client:
        gus = Person(client, "gus")
        table = gus.post("/api/games", {"game": "classic", "seats": ["human", "easy"]}).json()
        record = client.get(f"/api/games/{table['id']}/record").json()
        assert record["players"] == ["gus", "easy"]
        records = client.get("/api/players/gus/records")
        assert records.status_code == 200 and records.json() == []  # none finished yet
        assert "attachment" in records.headers["content-disposition"]


# ----- the migration --------------------------------------------------------------------------


def test_the_accounts_migration_keeps_every_existing_game(tmp_path):
    """A database as the server before accounts left it (revision 0003), with a game under
    way: after the upgrade the game reads the same and goes on, anonymous and unrated."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from cathedral.server.storage import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
    game = cathedral.load("classic")
    state = game.new_initial_state()
    rows = []
    for ply in range(2):
        action = state.legal_actions()[0]
        rows.append(("old1", 0, ply, action, state.current_player(),
                     state.action_to_string(action), None, 1.0, None))
        state.apply_action(action)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO games (id, game, params, rules_version, seed, status, ply, generation,"
            " result, clock, read_only, public, rematch_of, rematch, created, updated, revision,"
            " turns) VALUES ('old1', 'classic', '{\"opening\": \"standard\"}', 1, 'seed', "
            "'playing', 2, 0, NULL, NULL, 0, 1, NULL, NULL, 1.0, 1.0, 3, 2)")
        conn.exec_driver_sql(
            "INSERT INTO seats (game_id, player, kind, token_hash, open, arrived) VALUES "
            "('old1', 0, 'human', 'h0', 0, 1), ('old1', 1, 'human', 'h1', 0, 1)")
        conn.exec_driver_sql(
            "INSERT INTO actions (game_id, generation, ply, action, player, notation, clock, at,"
            " info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows[0])
        conn.exec_driver_sql(
            "INSERT INTO actions (game_id, generation, ply, action, player, notation, clock, at,"
            " info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows[1])
    engine.dispose()
    with serve(url) as client:  # migrates on start
        view = client.get("/api/games/old1").json()
        assert view["ply"] == 2 and view["history"] == [r[5] for r in rows]
        assert view["names"] == [None, None] and view["rated"] is False
        assert view["seats"] == ["human", "human"] and view["public"] is True
        assert client.get("/api/games/old1/record").json()["players"] == ["human", "human"]
        stored = client.app.state.hub.storage.load("old1")
        assert [s.token_hash for s in stored.seats] == ["h0", "h1"]
        assert stored.revision == 3 and stored.rated is False


def test_a_multiplayer_game_is_rated_by_pairwise_results_by_finishing_place(db):
    with serve(db) as client:
        a, b = Person(client, "ann"), Person(client, "ben")
        table = a.post("/api/games", {"game": "red", "params": {"players": 3}, "rated": True,
                                      "public": True, "seats": ["human", "human", "easy"]})
        assert table.status_code == 201, table.text
        game_id = table.json()["id"]
        joined = b.post(f"/api/games/{game_id}/join", {"player": 1}).json()
        assert b.post(f"/api/games/{game_id}/resign", token=joined["token"]).status_code == 200
        view = wait_until(lambda: (v := client.get(f"/api/games/{game_id}").json())
                          ["rating_changes"] and v)
        assert view["names"] == ["ann", "ben", None]
        easy = glicko.computer_rating("red3", "easy")
        want = glicko.rate_game([glicko.Rating(), glicko.Rating(), easy], view["returns"],
                                [False, False, True])
        for seat in (0, 1):
            assert view["rating_changes"][seat]["after"] == pytest.approx(want[seat].rating,
                                                                          abs=0.05)
        assert view["rating_changes"][2] is None
        assert view["returns"][1] == min(view["returns"])  # the resigner placed last
        assert a.get("/api/players/ann").json()["ratings"]["red3"]["games"] == 1


def test_a_puzzle_counts_once_against_the_accounts_puzzle_rating(db):
    from cathedral.server.auth import Signed

    with serve(db) as client:
        Person(client, "solver")
        hub = client.app.state.hub
        who = Signed(hub.accounts.by_name("solver"), "csrf", "session")
        first = client.portal.call(hub.puzzle_tried, who, "classic-0001", 1600.0, True)
        want = glicko.rate(glicko.Rating(), [(glicko.Rating(1600.0, glicko.COMPUTER_RD), 1.0)])
        assert first["rating"] == pytest.approx(want.rating) and first["before"] is None
        assert client.portal.call(hub.puzzle_tried, who, "classic-0001", 1600.0, False) is None
        assert hub.accounts.puzzle_rating(who.account.id)["tried"] == 1
        assert hub.accounts.puzzle_tried(who.account.id) == {"classic-0001": True}


def test_a_rated_rematch_stays_rated_and_each_account_keeps_its_seat(db):
    with serve(db) as client:
        a, b = Person(client, "rem_a"), Person(client, "rem_b")
        game_id, view = ratings_after_game(a, b, client)
        first = a.get("/api/me/games").json()["games"][0]
        again = a.post(f"/api/games/{game_id}/rematch", token=secret(first["url"]))
        assert again.status_code == 201, again.text
        new = client.get(f"/api/games/{again.json()['id']}").json()
        assert new["rated"] is True and new["names"] == list(reversed(view["names"]))
        mine = next(s for s in again.json()["seats"] if "token" in s)
        assert client.get(f"/api/games/{new['id']}/seat", headers={
            "Authorization": f"Bearer {mine['token']}"}).json()["player"] == new["names"].index(
            "rem_a")
        same = a.post(f"/api/games/{game_id}/rematch", token=secret(first["url"]))
        assert same.status_code == 200 and same.json()["id"] == new["id"]
