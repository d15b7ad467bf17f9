"""Attacks with what a client sends, each while an honest person plays from another
address: heavy records, pictures and replays, every kind of bad input (each a 4xx with a
reason that changes nothing), private tables looked for, half-open requests held."""

from __future__ import annotations

import json
import random
import socket
import time

import pytest
from honest import attacker, no_server_errors
from webapi import Api, assert_error

import cathedral


def long_record(seed: int = 1) -> str:
    """A legal Allmer game as long as this server keeps: 2,000 turns of shuffling."""
    game = cathedral.load("allmer", players=2, max_turns=2000, quiet_turns=0, repetition=0)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        rng.shuffle(actions)
        before = state.scores()
        for action in actions:  # a move that converts nothing, if there is one
            after = state.clone()
            after.apply_action(action)
            if after.scores() == before:
                break
        state.apply_action(action)
    return cathedral.Record.from_state(state, players=["A", "B"]).to_json(indent=None)


def test_long_records_pictures_and_replays_stay_off_the_event_loop(server, honest):
    text = long_record()
    plies = len(json.loads(text)["actions"])
    with attacker(server.url) as http, honest:
        ids = []
        for _ in range(3):
            answer = http.post("/api/records", content=text)
            assert answer.status_code == 201, answer.text
            ids.append(answer.json()["id"])
        too_long = json.loads(text)
        too_long["actions"] = too_long["actions"] * 11
        refused = http.post("/api/records", content=json.dumps(too_long))
        assert refused.status_code in (400, 422), refused.text  # too long, or too large
        rng = random.Random(2)
        for _ in range(20):
            game_id = rng.choice(ids)
            answer = http.get(f"/api/games/{game_id}/picture?ply={rng.randrange(plies)}")
            if answer.status_code == 429:  # the address's reads: wait as told
                time.sleep(float(answer.headers["retry-after"]))
                continue
            assert answer.status_code == 200, answer.text
        assert_error(http.get(f"/api/games/{ids[0]}/picture?ply=99999"), 400)
        assert_error(http.get(f"/api/games/{ids[0]}/picture?ply={plies + 1}"), 422)
        record = http.get(f"/api/games/{ids[1]}/record")
        assert record.status_code == 200 and len(json.loads(record.text)["actions"]) == plies
        time.sleep(2)
    honest.check(replies=3)
    no_server_errors(server)


def test_upload_volume_per_address_is_capped(launch):
    server = launch("--upload-rate", "1000")  # 600 kB a burst, then 1 kB a second
    text = long_record(3)
    with attacker(server.url) as http:
        started = time.monotonic()
        statuses = [http.post("/api/records", content=text).status_code for _ in range(40)]
        refilled = 1000 * (time.monotonic() - started)  # what the bucket gained meanwhile
    assert statuses[0] == 201 and 429 in statuses, statuses
    first = statuses.index(429)
    assert statuses[first:] == [429] * (40 - first)
    assert first * len(text) <= 600_000 + refilled
    with Api(server.url).http as http:  # another address uploads as before
        assert http.post("/api/records", content=text).status_code == 201


NESTED = '{"a":' * 10_000


def bad_requests(game_id: str, token: str) -> list[tuple[str, str, dict]]:
    """(method, path, httpx keyword arguments) of bad requests, each to be refused."""
    auth = {"Authorization": f"Bearer {token}"}
    body = {"Content-Type": "application/json"}
    moves = f"/api/games/{game_id}/moves"
    out: list[tuple[str, str, dict]] = []
    for path in ("/api/games", moves, f"/api/games/{game_id}/resign",
                 f"/api/games/{game_id}/join", "/api/records"):
        for content in (NESTED, '{"ply": NaN, "move": "x"}', '{"x": Infinity}',
                        '{"ply": 1e999}', '{"ply": ' + "9" * 5000 + "}", "[" * 40 + "]" * 40):
            out.append(("POST", path, {"content": content, "headers": {**auth, **body}}))
        out.append(("POST", path, {"content": b"\xff\xfe{}", "headers": {**auth, **body}}))
        out.append(("POST", path, {"content": b"x" * (1100 * 1024), "headers": auth}))
    for text in ("Tavern\u0000a1", "Tavern\u001ba1", "\ud800", "Tavern a1\u0085"):
        content = json.dumps({"ply": 0, "move": text}).encode("utf-8", "surrogatepass")
        out.append(("POST", moves, {"content": content, "headers": {**auth, **body}}))
    create = {"game": "classic", "seats": ["human", "easy"]}
    for change in ({"game": "clas\u0000sic"}, {"seats": ["human", "ea\u0000sy"]},
                   {"params": {"\u0000": 1}}, {"seats": ["human", "x" * 5000]},
                   {"public": "yes"}, {"clock": {"initial_s": -1}}):
        out.append(("POST", "/api/games", {"json": {**create, **change}}))
    out.append(("POST", "/api/games", {"content": '{"game": "classic", "seats": ["human", '
                                                  '"easy"], "clock": {"initial_s": 1e999}}'}))
    record = json.loads(cathedral.Record.from_state(
        cathedral.load("classic").new_initial_state(), players=["A", "B"]).to_json())
    for change in ({"players": ["\ud800", "B"]}, {"players": ["A\u0000", "B"]},
                   {"result": {"returns": [float("nan"), 0]}}, {"game": "classic\u0000"},
                   {"actions": ["Tavern\u0000a1"]}, {"meta": {"x": float("inf")}}):
        text = json.dumps({**record, **change}, allow_nan=True)
        out.append(("POST", "/api/records", {"content": text.encode("utf-8",
                                                                   "surrogatepass")}))
    for path in ("/api/games/a%00b", "/api/games/%ff%fe", "/api/games/" + "x" * 5000,
                 "/api/games/a%00b/record", "/api/games/a%00b/picture",
                 f"/api/games/{game_id}/picture?ply=-1",
                 f"/api/games/{game_id}/picture?ply=abc",
                 f"/api/games/{game_id}/picture?ply=" + "9" * 40,
                 f"/api/games/{game_id}/hint?level=" + "x" * 1000,
                 f"/api/games/{game_id}/hint?level=%00",
                 f"/api/games/{game_id}/hint?ply=" + "9" * 5000,
                 "/static/%00", "/static/" + "a/" * 2000):
        out.append(("GET", path, {"headers": auth}))
    return out


def test_every_bad_input_is_a_4xx_with_a_reason_and_changes_nothing(server, honest):
    with attacker(server.url) as http, honest:
        table = http.post("/api/games", json={"game": "classic", "seats": ["human", "human"],
                                              "public": True}).json()
        game_id, token = table["id"], table["seats"][0]["token"]
        api = Api(server.url)
        before = api.snapshot(game_id)
        refused = 0
        for method, path, options in bad_requests(game_id, token):
            answer = http.request(method, path, **options)
            if answer.status_code == 429:
                time.sleep(float(answer.headers["retry-after"]))
                answer = http.request(method, path, **options)
            assert 400 <= answer.status_code < 500, (method, path[:80], answer.status_code,
                                                     answer.text[:200])
            if path.startswith("/api/"):
                assert_error(answer, answer.status_code, f"{method} {path[:80]}")
            refused += 1
        assert api.snapshot(game_id) == before
        api.close()
        time.sleep(1)
    assert refused >= 70
    honest.check(replies=2)
    no_server_errors(server)


def test_bad_socket_messages_are_errors_on_that_socket_alone(server):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    table = Api(server.url).new_table("classic", {}, ["human", "human"])
    with connect(f"{server.ws_url}/ws/games/{table.id}") as ws:
        assert json.loads(ws.recv(timeout=30))["type"] == "view"
        for message in (NESTED, '{"type": "move", "ply": NaN}', "not json", "[1, 2]",
                        '{"type": "move", "ply": 0, "move": "Tavern\\u0000a1", "token": "t"}',
                        '{"type": "hint", "level": "max"}', "x" * 60_000):
            ws.send(message)
            answer = json.loads(ws.recv(timeout=30))
            assert answer["type"] == "error" and 400 <= answer["status"] < 500, answer
        ws.send(b"\xff\xfe binary junk")
        assert json.loads(ws.recv(timeout=30))["status"] == 400
        ws.send('{"type": "ping"}')
        assert json.loads(ws.recv(timeout=30)) == {"type": "pong"}
        # Over the socket's 64 kB: the protocol's own answer, close 1009 (message too big).
        ws.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=30)
        assert closed.value.rcvd.code == 1009
    with connect(f"{server.ws_url}/ws/games/a%00b") as ws:
        answer = json.loads(ws.recv(timeout=30))
        assert answer["status"] == 404
    no_server_errors(server)


def test_a_private_table_is_found_by_its_link_only(server):
    with attacker(server.url) as http:
        private = http.post("/api/games", json={"game": "classic",
                                                "seats": ["human", "easy"]}).json()
        lobby = http.get("/api/lobby").json()
        assert private["id"] not in json.dumps(lobby)
        assert http.get(f"/api/games/{private['id']}").status_code == 200


def half_open(port: int, data: bytes) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.66", 0))
    conn.sendall(data)
    conn.settimeout(30)
    return conn


def closed_by_server(conn: socket.socket) -> bytes:
    """Everything the server sent until it closed the connection."""
    received = b""
    while True:
        chunk = conn.recv(4096)
        if not chunk:
            return received
        received += chunk


def test_half_open_requests_are_answered_408_and_closed(server, honest):
    with honest:
        heads = [half_open(server.port, b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
                 for _ in range(100)]
        silent = [half_open(server.port, b"") for _ in range(50)]
        bodies = [half_open(server.port, b"POST /api/games HTTP/1.1\r\nHost: x\r\n"
                            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
                  for _ in range(20)]
        for conn in heads + silent:
            answer = closed_by_server(conn)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:100]
        for conn in bodies:
            answer = closed_by_server(conn)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
            assert b"arrived too slowly" in answer
        for conn in heads + silent + bodies:
            conn.close()
        time.sleep(1)
    honest.check(replies=2)
    no_server_errors(server)


@pytest.mark.parametrize("pause", [0.3])
def test_a_request_head_sent_a_byte_at_a_time_is_cut_off(server, pause):
    conn = half_open(server.port, b"G")
    started = time.monotonic()
    try:
        for byte in b"ET /healthz HTTP/1.1\r\nHost: x\r\n\r\n":
            conn.sendall(bytes([byte]))
            time.sleep(pause)
    except OSError:
        pass  # closed by the server while trickling
    answer = closed_by_server(conn)
    conn.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
    assert time.monotonic() - started < 10 * pause * 4
