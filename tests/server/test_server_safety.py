"""The server in process, against what a hostile visitor sends: an unexpected error still
carries the security headers, private tables stay off every listing, the database file is
its owner's alone, and uploaded records with bad numbers or text are refused whole."""

from __future__ import annotations

import json
import os
import random
import stat
import threading

import pytest
from fastapi.testclient import TestClient

import cathedral
from cathedral.server.app import create_app
from cathedral.server.settings import Settings
from cathedral.server.storage import Storage, StoredAction, StoredGame, StoredSeat


def stored_game(game_id: str) -> StoredGame:
    return StoredGame(
        id=game_id, game="classic", params={"opening": "standard"}, rules_version=1,
        seed="s", status="playing", generation=0, result=None, clock=None, read_only=False,
        public=False, rematch_of=None, rematch=None, created=0.0, updated=0.0,
        seats=[StoredSeat(0, "human", None), StoredSeat(1, "human", None)])

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def serve(db: str, **settings) -> TestClient:
    return TestClient(create_app(Settings(db=db, workers=1, **settings)))


def create(client, seats=("human", "human"), **extra):
    answer = client.post("/api/games", json={"game": "classic", "seats": list(seats),
                                             **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def finished_record(seed: int = 4, players=("Ann", "Bob")) -> dict:
    state = cathedral.load("classic").new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return json.loads(cathedral.Record.from_state(state, players=list(players)).to_json())


def test_an_unexpected_error_is_a_500_with_the_same_headers_as_any_answer(db):
    app = create_app(Settings(db=db, workers=1))

    @app.get("/api/broken")
    async def broken():
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/broken")
        usual = client.get("/api/catalog")
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal server error: it was logged; try again"}
    for header in ("content-security-policy", "x-frame-options", "x-content-type-options",
                   "referrer-policy", "cache-control"):
        assert answer.headers[header] == usual.headers[header]


def test_a_private_table_is_never_listed_playing_or_finished(db):
    with serve(db) as client:
        private = create(client)
        public = create(client, public=True)
        uploaded = client.post("/api/records", content=json.dumps(finished_record()))
        assert uploaded.status_code == 201
        lobby = client.get("/api/lobby").json()
        listed = {item["id"] for items in lobby.values() for item in items}
        assert public["id"] in listed and private["id"] not in listed
        for table in (private, public):
            answer = client.post(f"/api/games/{table['id']}/resign",
                                 headers={"Authorization": f"Bearer "
                                          f"{table['seats'][0]['token']}"})
            assert answer.status_code == 200
        lobby = client.get("/api/lobby").json()
        assert [item["id"] for item in lobby["finished"]] == [public["id"]]
        assert lobby["playing"] == [] and lobby["open"] == []
        # Its link still opens it.
        assert client.get(f"/api/games/{private['id']}").status_code == 200


def test_the_database_file_and_its_folder_are_readable_by_their_owner_only(tmp_path):
    folder = tmp_path / "new" / "data"
    storage = Storage(f"sqlite:///{folder / 'games.sqlite3'}")
    storage.migrate()
    storage.checkpoint()
    for path in (folder, *folder.iterdir()):
        mode = stat.S_IMODE(os.stat(path).st_mode)
        assert mode & 0o077 == 0, f"{path.name} is {oct(mode)}"
    assert {p.name for p in folder.iterdir()} >= {"games.sqlite3", "games.sqlite3-wal"}
    storage.close()


@pytest.mark.parametrize(("change", "words"), [
    (lambda r: r["result"].update(returns=[float("nan"), 1.0]), "not a number JSON allows"),
    (lambda r: r["result"].update(scores=[float("inf"), 1.0]), "not a number JSON allows"),
    (lambda r: r.update(players=["\ud800", "Bob"]), "lone surrogate"),
    (lambda r: r.update(players=["Ann\x00", "Bob"]), "U+0000"),
    (lambda r: r["meta"].update(note="\x1b[31mred"), "U+001B"),
])
def test_an_upload_with_bad_numbers_or_text_is_refused_and_nothing_stored(db, change, words):
    record = finished_record()
    change(record)
    text = json.dumps(record, allow_nan=True)
    with serve(db) as client:
        before = client.get("/healthz").json()["games_live"]
        answer = client.post("/api/records", content=text.encode("utf-8", "surrogatepass"))
        assert answer.status_code == 400, answer.text
        assert words in answer.json()["error"]
        assert client.get("/healthz").json()["games_live"] == before


def test_an_uploaded_resignation_gets_the_servers_result_not_the_records(db):
    state = cathedral.load("classic").new_initial_state()
    rng = random.Random(2)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    record = json.loads(cathedral.Record.from_state(state, players=["Ann", "Bob"]).to_json())
    record["result"] = {"resigned": 1, "returns": [-5, 99], "text": "<script>"}
    with serve(db) as client:
        answer = client.post("/api/records", content=json.dumps(record))
        assert answer.status_code == 201, answer.text
        view = client.get(f"/api/games/{answer.json()['id']}").json()
        assert view["result"]["returns"] == [1.0, -1.0]
        assert view["result"]["text"] == "Dark resigned" and view["result"]["resigned"] == 1
        record["result"] = {"resigned": 7}
        refused = client.post("/api/records", content=json.dumps(record))
        assert refused.status_code == 422 and "'resigned'" in refused.json()["error"]


def test_a_record_longer_than_the_cap_is_refused_before_it_is_replayed(db):
    record = finished_record()
    record["actions"] = ["Tavern a1"] * 20_001
    with serve(db) as client:
        answer = client.post("/api/records", content=json.dumps(record))
    assert answer.status_code == 422
    assert "20,001 plies, at most 20,000" in answer.json()["error"]


NESTED = b'{"a":' * 10_000


@pytest.mark.parametrize("path", ["/api/games", "/api/games/{id}/moves",
                                  "/api/games/{id}/resign", "/api/games/{id}/join",
                                  "/api/records"])
def test_deeply_nested_json_is_400_on_every_route_and_changes_nothing(db, path):
    with serve(db) as client:
        table = create(client)
        token = table["seats"][0]["token"]
        before = client.get(f"/api/games/{table['id']}").json()
        answer = client.post(path.format(id=table["id"]), content=NESTED,
                             headers={"Authorization": f"Bearer {token}",
                                      "Content-Type": "application/json"})
        assert answer.status_code == 400, answer.text
        assert "levels deep" in answer.json()["error"]
        assert client.get(f"/api/games/{table['id']}").json() == before


def test_a_socket_message_nested_deep_is_an_error_on_that_socket_which_stays_open(db):
    with serve(db) as client:
        table = create(client)
        with client.websocket_connect(f"/ws/games/{table['id']}") as socket:
            assert socket.receive_json()["type"] == "view"
            socket.send_text(NESTED.decode())
            error = socket.receive_json()
            assert error["type"] == "error" and error["status"] == 400
            assert "levels deep" in error["error"]
            socket.send_text('{"type": "ping"}')
            assert socket.receive_json() == {"type": "pong"}


@pytest.mark.parametrize("path", ["/api/games/a%00b", "/api/games/a%00b/record",
                                  "/api/games/" + "x" * 5000, "/api/games/%F0%9F%98%80/picture"])
def test_a_game_id_the_server_never_makes_is_404(db, path):
    with serve(db) as client:
        answer = client.get(path)
    assert answer.status_code == 404 and "no game" in answer.json()["error"]


def test_anonymous_analysis_stops_at_hard(db):
    with serve(db) as client:
        answer = client.post("/api/records", content=json.dumps(finished_record()))
        game_id = answer.json()["id"]
        refused = client.get(f"/api/games/{game_id}/hint?ply=2&level=max")
        assert refused.status_code == 422 and "'max' is not offered" in refused.json()["error"]
        assert client.get(f"/api/games/{game_id}/hint?ply=2&level=easy").status_code == 200


def test_sqlite_writes_from_several_threads_never_share_a_transaction(tmp_path):
    """SQLite keeps one writer connection; writes that reach it from the database threads and
    the event loop at once (an upload beside moves) each get a whole transaction of their own."""
    storage = Storage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    storage.migrate()
    for g in range(4):
        storage.create_game(stored_game(f"move{g}"))
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def create(worker: int) -> None:
        barrier.wait()
        for n in range(40):
            try:
                storage.create_game(stored_game(f"up{worker}-{n}"))
            except Exception as exc:  # every failure is the finding
                errors.append(exc)

    def move(worker: int) -> None:
        barrier.wait()
        for ply in range(40):
            try:
                storage.append(f"move{worker}", 0, [StoredAction(ply, ply, 0, str(ply), None, 1.0)],
                               status="playing", revision=ply)
            except Exception as exc:
                errors.append(exc)

    threads = [threading.Thread(target=create, args=(w,)) for w in range(4)]
    threads += [threading.Thread(target=move, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(len(storage.load(f"move{w}").actions) == 40 for w in range(4))
    assert all(storage.load(f"up{w}-39") is not None for w in range(4))
    storage.close()


def test_the_event_loop_never_waits_for_sqlite_s_writer(tmp_path):
    """While a database thread holds SQLite's writer (a long upload), the loop is told so
    and hands its write to a thread; once the writer is free, the loop holds it and its write
    takes it again without waiting."""
    storage = Storage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    storage.migrate()
    held, release = threading.Event(), threading.Event()

    def upload() -> None:
        with storage.writer_if_free() as free:
            assert free
            held.set()
            release.wait(30)

    thread = threading.Thread(target=upload)
    thread.start()
    assert held.wait(30)
    with storage.writer_if_free() as free:
        assert not free
    release.set()
    thread.join(30)
    done = threading.Event()

    def loop_write() -> None:  # in a thread of its own, so that a wait shows as a timeout
        with storage.writer_if_free() as free:
            assert free
            storage.create_game(stored_game("after"))
        done.set()

    writer = threading.Thread(target=loop_write, daemon=True)
    writer.start()
    assert done.wait(30), "the write waited for the writer its own caller held"
    assert storage.load("after") is not None
    storage.close()
