"""The server's tables in process: concurrency, restarts, take-backs, rematches, clocks
(on a fake clock: nothing sleeps), public seats, uploaded records and the lobby."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from fastapi.testclient import TestClient

import cathedral
from cathedral.server import errors
from cathedral.server.app import create_app
from cathedral.server.models import GameView, Move
from cathedral.server.security import hash_token
from cathedral.server.settings import Settings
from cathedral.server.storage import Storage, StoredAction, StoredGame, StoredSeat

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class FakeTime:
    """The server's clocks, moved by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def serve(db: str, *, now=None, wall=None, clock_timers=True, **settings) -> TestClient:
    clocks = {"now": now, "wall": wall} if now is not None else {}
    return TestClient(create_app(Settings(db=db, workers=1, **settings),
                                 clock_timers=clock_timers, **clocks))


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def create(client, game="classic", seats=("human", "human"), params=None, **extra):
    answer = client.post("/api/games", json={"game": game, "params": params or {},
                                             "seats": list(seats), **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def view_of(client, gid):
    view = client.get(f"/api/games/{gid}").json()
    GameView.model_validate(view)
    return view


def state_of(view):
    return cathedral.load(view["game"], **view["params"]).state_from_json(view["state"])


def wait_for(client, gid, check, patience=60.0):
    """Polls the view until ``check(view)`` (a hang guard, not a speed check)."""
    deadline = time.monotonic() + patience
    while True:
        view = view_of(client, gid)
        if check(view):
            return view
        assert time.monotonic() < deadline, f"game stuck: {view['ply']} {view['status']}"
        time.sleep(0.02)


def arrive(client, gid, *tokens):
    """The seats' pages open (they ask which seat their secret opens)."""
    for token in tokens:
        assert client.get(f"/api/games/{gid}/seat", headers=bearer(token)).status_code == 200


def play(client, gid, token, rng, view=None):
    view = view or view_of(client, gid)
    state = state_of(view)
    answer = client.post(f"/api/games/{gid}/moves", headers=bearer(token),
                         json={"ply": view["ply"], "action": rng.choice(state.legal_actions())})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_fifty_concurrent_identical_moves_are_applied_once(db):
    with serve(db) as client:
        table = create(client)
        gid, token = table["id"], table["seats"][0]["token"]
        hub = client.app.state.hub
        move = Move(ply=0, move="Cathedral e4 d5 e5 f5 e6 e7")

        async def fifty():
            async def one():
                try:
                    await hub.move(gid, token, move)
                    return 200
                except errors.Refused as exc:
                    return errors.status(exc)
            return await asyncio.gather(*(one() for _ in range(50)))

        statuses = client.portal.call(fifty)
        assert sorted(statuses) == [200] + [409] * 49
        assert view_of(client, gid)["ply"] == 1
    storage = Storage(db)
    assert len(storage.load(gid).actions) == 1


def test_the_log_refuses_a_second_action_at_a_ply(db):
    storage = Storage(db)
    storage.migrate()
    game = StoredGame(id="g1", game="classic", params={"opening": "standard"},
                      rules_version=1, seed="s", status="playing", generation=0, result=None,
                      clock=None, read_only=False, public=False, rematch_of=None, rematch=None,
                      created=0.0, updated=0.0, seats=[StoredSeat(0, "human", None),
                                                       StoredSeat(1, "human", None)])
    storage.create_game(game)
    storage.append("g1", 0, [StoredAction(0, 5, 0, "a", None, 1.0)], status="playing",
                   revision=0)
    from cathedral.server.storage import PlyTaken

    with pytest.raises(PlyTaken):  # the same ply again, even at the current revision
        storage.append("g1", 0, [StoredAction(0, 6, 0, "b", None, 2.0),
                                     StoredAction(1, 7, 1, "c", None, 2.0)],
                       status="playing", revision=1)
    with pytest.raises(PlyTaken):  # the next ply, from a copy that missed the first
        storage.append("g1", 0, [StoredAction(1, 7, 1, "c", None, 2.0)], status="playing",
                       revision=0)
    assert [a.action for a in storage.load("g1").actions] == [5]
    assert storage.revision("g1") == 1
    storage.close()


def test_migrations_create_the_schema_on_an_empty_database_and_rerun_cleanly(tmp_path):
    from sqlalchemy import inspect, text

    storage = Storage(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    storage.migrate()
    storage.migrate()
    names = set(inspect(storage.engine).get_table_names())
    assert {"games", "seats", "actions", "alembic_version"} <= names
    with storage.engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0005"
        mode = conn.execute(text("pragma journal_mode")).scalar()
    assert mode == "wal"
    storage.close()


def test_tokens_are_stored_only_hashed(db, tmp_path):
    with serve(db) as client:
        table = create(client)
        token = table["seats"][0]["token"]
    stored = Storage(db).load(table["id"])
    assert stored.seats[0].token_hash == hash_token(token) != token
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("games.sqlite3*"))
    assert token.encode() not in raw


def test_a_restart_rebuilds_every_game_and_makes_a_pending_computer_move(db):
    rng = random.Random(5)
    with serve(db) as client:
        table = create(client, game="allmer", seats=("human", "human"))
        gid, tokens = table["id"], [s["token"] for s in table["seats"]]
        view = None
        for ply in range(6):
            view = play(client, gid, tokens[ply % 2], rng, view)
    # A game whose computer was about to move when the server stopped.
    storage = Storage(db)
    state = cathedral.load("classic").new_initial_state()
    action = state.legal_actions()[0]
    storage.create_game(StoredGame(
        id="pending", game="classic", params={"opening": "standard"}, rules_version=1,
        seed="abc", status="playing", generation=0, result=None, clock=None,
        read_only=False, public=False, rematch_of=None, rematch=None, created=0.0,
        updated=0.0, seats=[StoredSeat(0, "human", hash_token("t")), StoredSeat(1, "easy", None)],
        actions=[StoredAction(0, action, 0, state.action_to_string(action), None, 0.0)]))
    storage.close()
    with serve(db) as client:
        again = view_of(client, gid)
        assert again["state"] == view["state"] and again["ply"] == 6
        assert play(client, gid, tokens[0], rng)["ply"] == 7
        resumed = wait_for(client, "pending", lambda v: v["ply"] >= 2)
        assert resumed["current_player"] == 0 and resumed["history"][0] == \
            state.action_to_string(action)


def test_takeback_against_the_computer_survives_a_restart(db):
    with serve(db) as client:
        table = create(client, seats=("human", "easy"))
        gid, token = table["id"], table["seats"][0]["token"]
        first = view_of(client, gid)
        assert first["takeback"] is False
        refused = client.post(f"/api/games/{gid}/takeback", headers=bearer(token))
        assert refused.status_code == 409
        rng = random.Random(1)
        play(client, gid, token, rng)
        after_reply = wait_for(client, gid, lambda v: v["ply"] == 2)
        assert after_reply["takeback"] is True
        play(client, gid, token, rng, after_reply)
        replied = wait_for(client, gid, lambda v: v["ply"] == 4)
        back = client.post(f"/api/games/{gid}/takeback", headers=bearer(token))
        assert back.status_code == 200, back.text
        assert back.json()["ply"] == 2 and back.json()["state"] == after_reply["state"]
        assert back.json()["history"] == replied["history"][:2]
        record = cathedral.Record.from_json(client.get(f"/api/games/{gid}/record").text)
        assert record.actions == replied["history"][:2]
        moved = play(client, gid, token, rng, back.json())
        assert moved["ply"] == 3
        settled = wait_for(client, gid, lambda v: v["ply"] == 4)
    with serve(db) as client:
        assert view_of(client, gid)["state"] == settled["state"]


def test_takeback_needs_all_opponents_computers_and_stops_at_chance(db):
    with serve(db) as client:
        both = create(client)
        play(client, both["id"], both["seats"][0]["token"], random.Random(1))
        refused = client.post(f"/api/games/{both['id']}/takeback",
                              headers=bearer(both["seats"][0]["token"]))
        assert refused.status_code == 403
        red = create(client, game="red", seats=("human", "easy"))
        gid, token = red["id"], red["seats"][0]["token"]
        rng = random.Random(2)
        # Play until a human move has a server-drawn chance outcome after it.
        for _ in range(200):
            view = wait_for(client, gid, lambda v: v["current_player"] == 0
                            or v["status"] == "finished")
            players = [e for e in client.app.state.hub.tables[gid].entries]
            mine = [i for i, e in enumerate(players) if e.player == 0]
            if mine and any(e.player == -1 for e in players[mine[-1]:]):
                break
            play(client, gid, token, rng, view)
        assert view["takeback"] is False
        answer = client.post(f"/api/games/{gid}/takeback", headers=bearer(token))
        assert answer.status_code == 409 and "chance" in answer.json()["error"]


def test_resign_then_rematch_with_seats_rotated_and_the_same_secrets(db):
    with serve(db) as client:
        table = create(client, seats=("human", "human"))
        gid = table["id"]
        light, dark = (s["token"] for s in table["seats"])
        early = client.post(f"/api/games/{gid}/rematch", headers=bearer(light))
        assert early.status_code == 409
        stale = client.post(f"/api/games/{gid}/resign", headers=bearer(dark), json={"ply": 3})
        assert stale.status_code == 409
        resigned = client.post(f"/api/games/{gid}/resign", headers=bearer(dark))
        assert resigned.status_code == 200
        view = resigned.json()
        assert view["status"] == "finished" and view["returns"] == [1.0, -1.0]
        assert view["result"]["resigned"] == 1 and view["current_player"] == -4
        record = cathedral.Record.from_json(client.get(f"/api/games/{gid}/record").text)
        assert record.result["resigned"] == 1 and record.result["returns"] == [1.0, -1.0]
        again = client.post(f"/api/games/{gid}/rematch", headers=bearer(light))
        assert again.status_code == 201, again.text
        new = again.json()
        assert new["seats"][1] == {"player": 1, "kind": "human", "token": light,
                                   "url": f"/g/{new['id']}#{light}"}
        assert "token" not in new["seats"][0]
        assert view_of(client, gid)["rematch"] == new["id"]
        assert view_of(client, new["id"])["rematch_of"] == gid
        # Dark moved first-colour now: its old secret opens seat 0 of the new game.
        moved = play(client, new["id"], dark, random.Random(1))
        assert moved["ply"] == 1
        refused = client.post(f"/api/games/{new['id']}/moves", headers=bearer(light),
                              json={"ply": 1, "move": "x"})
        assert refused.status_code == 422  # light's turn now, its move illegal
        twice = client.post(f"/api/games/{gid}/rematch", headers=bearer(dark))
        assert twice.status_code == 200 and twice.json()["id"] == new["id"]


def test_two_player_clock_runs_out_and_loses(db):
    fake = FakeTime()
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        table = create(client, seats=("human", "human"),
                       clock={"initial_s": 60, "increment_s": 2})
        gid = table["id"]
        light = table["seats"][0]["token"]
        arrive(client, gid, light, table["seats"][1]["token"])
        clock = view_of(client, gid)["clock"]
        assert clock["remaining_s"] == [60, 60] and clock["running"] == 0
        fake.t += 10
        view = play(client, gid, light, random.Random(1))
        assert view["clock"]["remaining_s"] == [52, 60] and view["clock"]["running"] == 1
        hub = client.app.state.hub
        fake.t += 59
        assert client.portal.call(hub.check_clock, gid) is False
        assert view_of(client, gid)["clock"]["remaining_s"] == [52, 1]
        with client.websocket_connect(f"/ws/games/{gid}") as watcher:
            watcher.receive_json()
            fake.t += 1.5
            assert client.portal.call(hub.check_clock, gid) is True
            final = watcher.receive_json()["view"]
            assert watcher.receive_json() == {"type": "clock", "event": "flag", "player": 1,
                                              "ply": 1}
        assert final["status"] == "finished" and final["returns"] == [1.0, -1.0]
        assert final["result"]["timeout"] is True and final["clock"]["running"] is None
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        assert view_of(client, gid)["status"] == "finished"


def test_four_player_clock_hands_the_seat_to_easy(db):
    fake = FakeTime()
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        table = create(client, game="allmer", params={"players": 4},
                       seats=("human",) * 4, clock={"initial_s": 5, "increment_s": 0})
        gid = table["id"]
        arrive(client, gid, *(seat["token"] for seat in table["seats"]))
        fake.t += 6
        assert client.portal.call(client.app.state.hub.check_clock, gid) is True
        view = wait_for(client, gid, lambda v: v["ply"] >= 1)
        assert view["seats"] == ["easy", "human", "human", "human"]
        assert view["status"] == "playing" and view["clock"]["running"] is not None
        refused = client.post(f"/api/games/{gid}/resign",
                              headers=bearer(table["seats"][0]["token"]))
        assert refused.status_code == 401  # the seat is no longer a person's


def test_clocks_resume_after_a_restart_from_the_stored_times(db):
    fake = FakeTime()
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        table = create(client, seats=("human", "human"), clock={"initial_s": 100})
        arrive(client, table["id"], *(seat["token"] for seat in table["seats"]))
        fake.t += 30
        play(client, table["id"], table["seats"][0]["token"], random.Random(1))
    fake.t += 1000  # the server was down: nobody's time
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        clock = view_of(client, table["id"])["clock"]
        assert clock["remaining_s"] == [70, 100] and clock["running"] == 1


def test_a_clock_waits_until_every_person_has_opened_their_link(db):
    fake = FakeTime()
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        table = create(client, seats=("human", "human"), clock={"initial_s": 600})
        gid, light, dark = table["id"], table["seats"][0]["token"], table["seats"][1]["token"]
        clock = view_of(client, gid)["clock"]
        assert clock["running"] is None and clock["waiting"] == [0, 1]
        arrive(client, gid, light)
        fake.t += 10  # light has opened the link, dark has not: nobody's time runs
        clock = view_of(client, gid)["clock"]
        assert clock["running"] is None and clock["waiting"] == [1]
        assert clock["remaining_s"] == [600, 600]
        arrive(client, gid, dark)
        fake.t += 10
        clock = view_of(client, gid)["clock"]
        assert clock["running"] == 0 and clock["waiting"] == []
        assert clock["remaining_s"] == [590, 600]
        # The rematch's clock waits for both again.
        client.post(f"/api/games/{gid}/resign", headers=bearer(light))
        new = client.post(f"/api/games/{gid}/rematch", headers=bearer(dark)).json()
        clock = view_of(client, new["id"])["clock"]
        assert clock["running"] is None and clock["waiting"] == [0, 1]


def test_a_clock_starts_at_the_first_move_if_that_comes_first(db):
    fake = FakeTime()
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        table = create(client, seats=("human", "human"), clock={"initial_s": 600})
        fake.t += 30  # nobody has opened a link: light's first move is not charged
        view = play(client, table["id"], table["seats"][0]["token"], random.Random(2))
        assert view["clock"]["running"] == 1 and view["clock"]["waiting"] == []
        assert view["clock"]["remaining_s"] == [600, 600]
        fake.t += 5
        assert view_of(client, table["id"])["clock"]["remaining_s"] == [600, 595]


def test_public_seats_lobby_and_join(db):
    with serve(db) as client:
        table = create(client, game="allmer", params={"players": 4},
                       seats=("human", "human", "easy", "human"), public=True)
        gid = table["id"]
        assert [s.get("open", False) for s in table["seats"]] == [False, True, False, True]
        assert "token" in table["seats"][0] and "token" not in table["seats"][1]
        lobby = client.get("/api/lobby").json()
        item = next(i for i in lobby["open"] if i["id"] == gid)
        assert item["open_seats"] == [1, 3] and item["players"][0] == "White"
        joined = client.post(f"/api/games/{gid}/join", json={"player": 1})
        assert joined.status_code == 201
        seat = joined.json()
        assert seat["player"] == 1 and seat["url"] == f"/g/{gid}#{seat['token']}"
        assert client.post(f"/api/games/{gid}/join", json={"player": 1}).status_code == 409
        assert client.post(f"/api/games/{gid}/join", json={"player": 2}).status_code == 409
        assert client.post(f"/api/games/{gid}/join", json={"player": 9}).status_code == 422
        assert client.post(f"/api/games/{gid}/join", json={"player": "1"}).status_code == 400
        assert view_of(client, gid)["open_seats"] == [3]
        client.post(f"/api/games/{gid}/join", json={"player": 3})
        lobby = client.get("/api/lobby").json()
        assert gid not in [i["id"] for i in lobby["open"]]
        assert gid in [i["id"] for i in lobby["playing"]]
        client.post(f"/api/games/{gid}/resign", headers=bearer(seat["token"]))
        assert gid in [i["id"] for i in client.get("/api/lobby").json()["finished"]]


def test_an_uploaded_record_becomes_a_read_only_game(db):
    game = cathedral.load("classic")
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    record = cathedral.Record.from_state(state, players=["Ann", "Bob"])
    with serve(db) as client:
        answer = client.post("/api/records", content=record.to_json())
        assert answer.status_code == 201, answer.text
        body = answer.json()
        assert body["watch_url"] == f"/g/{body['id']}"
        assert body["replay_url"] == f"/replay/{body['id']}"
        view = view_of(client, body["id"])
        assert view["read_only"] and view["status"] == "finished"
        assert view["state"] == state.to_json() and view["seats"] == ["Ann", "Bob"]
        assert view["returns"] == state.returns()
        again = cathedral.Record.from_json(client.get(f"/api/games/{body['id']}/record").text)
        assert again.actions == record.actions
        broken = json.loads(record.to_json())
        broken["actions"][3] = "Castle a1 a2 a3 b1 b3"
        refused = client.post("/api/records", content=json.dumps(broken))
        assert refused.status_code == 422 and "record action 4" in refused.json()["error"]
        assert client.post("/api/records", content="{").status_code == 400
        huge = client.post("/api/records", content=b" " * (1024 * 1024 + 1))
        assert huge.status_code == 400
        hint = client.get(f"/api/games/{body['id']}/hint?ply=3&level=easy")
        assert hint.status_code == 200, hint.text
        found = hint.json()
        assert found["level"] == "easy" and len(found["values"]) == 2
        assert found["move"] == found["pv"][0] and all(0 <= e <= 1 for e in found["expected"])


def test_hints_only_where_they_cannot_help_a_player_against_a_person(db):
    with serve(db) as client:
        people = create(client)
        answer = client.get(f"/api/games/{people['id']}/hint?level=easy",
                            headers=bearer(people["seats"][0]["token"]))
        assert answer.status_code == 403
        solo = create(client, seats=("human", "easy"))
        answer = client.get(f"/api/games/{solo['id']}/hint?level=easy",
                            headers=bearer(solo["seats"][0]["token"]))
        assert answer.status_code == 200
        state = cathedral.load("classic").new_initial_state()
        assert answer.json()["move"] == state.action_to_string(answer.json()["action"])
        assert client.get(f"/api/games/{solo['id']}/hint?level=easy").status_code == 403
        assert client.get(f"/api/games/{solo['id']}/hint?level=god",
                          headers=bearer(solo["seats"][0]["token"])).status_code == 422


def test_rate_limits_refuse_with_429_and_can_be_switched_off(db):
    with serve(db, create_rate=1.0) as client:
        statuses = [client.post("/api/games", json={"game": "classic",
                                                    "seats": ["human", "human"]}).status_code
                    for _ in range(15)]
        assert statuses[:10] == [201] * 10 and 429 in statuses
    with serve(db, create_rate=0.0) as client:
        assert all(create(client) for _ in range(15))


def test_catalog_lists_games_levels_and_player_names(db):
    with serve(db) as client:
        catalog = client.get("/api/catalog").json()
    by_name = {g["name"]: g for g in catalog["games"]}
    assert set(by_name) == set(cathedral.games())
    assert by_name["allmer"]["players"]["4"] == ["White", "Blue", "Black", "Red"]
    assert by_name["classic"]["players"] == {"2": ["Light", "Dark"]}
    components = next(p for p in by_name["red"]["parameters"] if p["name"] == "components")
    assert components["choices"] == ["reconstructed"]
    assert catalog["levels"] == ["random", "easy", "medium", "hard", "max"]


def test_idle_games_leave_memory_and_come_back_from_the_log(db):
    rng = random.Random(8)
    with serve(db, max_tables=3) as client:
        tables = [create(client) for _ in range(8)]
        views = {t["id"]: play(client, t["id"], t["seats"][0]["token"], rng) for t in tables}
        assert len(client.app.state.hub.tables) <= 3
        for gid, view in views.items():
            assert view_of(client, gid)["state"] == view["state"]


def test_a_long_search_at_one_table_does_not_hold_up_an_instant_player_at_another(db):
    with serve(db) as client:  # one search worker, busy with the first table's search
        slow = create(client, seats=("mcts:seconds=8", "human"))
        quick = create(client, seats=("easy", "human"))
        moved = wait_for(client, quick["id"], lambda v: v["ply"] >= 1)
        assert moved["current_player"] == 1
        assert view_of(client, slow["id"])["ply"] == 0  # still thinking


def test_a_move_after_the_flag_fell_is_refused_even_before_the_timer_noticed(db):
    fake = FakeTime()
    with serve(db, now=fake, wall=fake, clock_timers=False) as client:
        table = create(client, seats=("human", "human"), clock={"initial_s": 30})
        gid = table["id"]
        arrive(client, gid, *(seat["token"] for seat in table["seats"]))
        fake.t += 31
        late = client.post(f"/api/games/{gid}/moves",
                           headers=bearer(table["seats"][0]["token"]),
                           json={"ply": 0, "move": "Cathedral e4 d5 e5 f5 e6 e7"})
        assert late.status_code == 409 and "time" in late.json()["error"]
        view = view_of(client, gid)
        assert view["ply"] == 0 and view["returns"] == [-1.0, 1.0]
        assert view["result"]["timeout"] is True


def test_the_view_tells_turns_and_the_last_round_in_words(db):
    with serve(db) as client:
        table = create(client)
        gid = table["id"]
        tokens = [seat["token"] for seat in table["seats"]]
        rng = random.Random(5)  # this random game has Dark skipped at ply 23
        view = view_of(client, gid)
        while view["status"] == "playing":
            view = play(client, gid, tokens[view["current_player"]], rng, view)
        assert view["movers"] == [e.player for e in client.app.state.hub.tables[gid].entries]
        assert view["turn_starts"] == list(range(1, view["ply"] + 1))  # a placement a turn
        assert view["turns"] == view["ply"]
        assert view["skips"] == [[23, [1]]]
        texts = {entry["ply"]: entry["text"] for entry in view["recent"]}
        assert "Dark cannot place and is skipped" in texts[23]
        assert all(text.startswith(view["history"][ply - 1]) for ply, text in texts.items())
        record = client.get(f"/api/games/{gid}/record").json()
        assert record["actions"] == view["history"]  # the descriptions stay out of records


def test_setup_and_dice_are_not_turns_and_a_round_is_told_in_words(db):
    with serve(db) as client:
        table = create(client, game="red", params={"players": 3, "turn_cap": 2},
                       seats=("human", "easy", "easy"), public=True)
        gid, token = table["id"], table["seats"][0]["token"]
        view = view_of(client, gid)
        setup = view["ply"]
        assert set(view["movers"]) == {-1}  # the set-up is chance, not a turn
        assert view["turn_starts"] == [] and view["turns"] == 0
        rng = random.Random(3)
        while view["current_player"] == 0 and view["status"] == "playing":
            view = play(client, gid, token, rng, view)  # the whole of the first turn
        view = wait_for(client, gid, lambda v: v["current_player"] == 0 or
                        v["status"] == "finished")
        starts = view["turn_starts"]
        assert starts[0] == setup + 1
        assert [view["movers"][ply - 1] for ply in starts] == [0, 1, 2, 0][:len(starts)]
        assert all(view["movers"][ply - 1] >= 0 for ply in starts)
        # The round in words: from the start of player 0's last turn, both computers' turns.
        recent = view["recent"]
        assert recent[0]["ply"] == starts[0] and recent[-1]["ply"] == view["ply"]
        assert {entry["player"] for entry in recent} >= {0, 1, 2}
        item = next(i for i in client.get("/api/lobby").json()["playing"] if i["id"] == gid)
        assert item["turns"] == view["turns"] and item["turns"] < item["ply"]
