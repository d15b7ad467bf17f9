"""The server in process (FastAPI's TestClient on a SQLite file): server-api.md's contract.

Creating tables, views, moves and their refusals in the contract's order, records, the
WebSocket's views in ply order, computer moves in the worker pool and chance resolved by the
server. A real server process is the black-box tests' job (tests/server/blackbox/).
"""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

import cathedral
from cathedral.server.app import create_app
from cathedral.server.models import GameView
from cathedral.server.settings import Settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'games.sqlite3'}", workers=1))
    with TestClient(app) as http:
        yield http


def create(client, game="classic", seats=("human", "human"), params=None, **extra):
    answer = client.post("/api/games", json={"game": game, "params": params or {},
                                             "seats": list(seats), **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def state_of(view):
    return cathedral.load(view["game"], **view["params"]).state_from_json(view["state"])


def test_create_gives_each_human_its_own_secret_and_no_token_to_computers(client):
    table = create(client, seats=("human", "easy"))
    human, computer = table["seats"]
    assert human["kind"] == "human" and len(human["token"]) >= 22
    assert human["url"] == f"/g/{table['id']}#{human['token']}"
    assert computer == {"player": 1, "kind": "easy"}
    assert table["watch_url"] == f"/g/{table['id']}"
    other = create(client, seats=("human", "human"))
    assert other["seats"][0]["token"] != other["seats"][1]["token"] != human["token"]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game": "chess", "seats": ["human", "human"]}, 422, "unknown game"),
    ({"game": "classic", "params": {"opening": "x"}, "seats": ["human", "human"]}, 422,
     "opening"),
    ({"game": "classic", "seats": ["human"]}, 422, "1 seats given"),
    ({"game": "classic", "seats": ["human", "grandmaster"]}, 422, "grandmaster"),
    ({"game": "classic", "seats": ["human", "mcts:seconds=100000"]}, 422, "seconds"),
    ({"game": "red", "params": {"components": "/etc/passwd"}, "seats": ["human", "human"]},
     422, "components"),
    ({"game": "classic", "seats": "human"}, 400, "seats"),
    ({"game": 3, "seats": ["human", "human"]}, 400, "game"),
    ({"seats": ["human", "human"]}, 400, "missing field 'game'"),
    ({"game": "classic", "seats": ["human", "human"], "colour": 1}, 400, "unknown field"),
])
def test_create_refuses_bad_tables_with_one_sentence(client, body, status, words):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == status
    assert list(answer.json()) == ["error"] and words in answer.json()["error"]


def test_red_components_error_never_says_whether_a_path_exists(client):
    for path in ("/etc/passwd", "/no/such/file.json"):
        answer = client.post("/api/games", json={
            "game": "red", "params": {"components": path}, "seats": ["human", "human"]})
        assert answer.status_code == 422
        assert path not in answer.json()["error"]
        assert answer.json()["error"].endswith("takes only 'reconstructed' on this server")


def test_view_matches_the_contract_and_a_local_replay(client):
    table = create(client)
    view = client.get(f"/api/games/{table['id']}").json()
    GameView.model_validate(view)
    assert view["status"] == "playing" and view["ply"] == 0 and view["current_player"] == 0
    assert view["players"] == ["Light", "Dark"] and view["seats"] == ["human", "human"]
    assert view["returns"] is None and view["last_move"] is None
    assert view["state"] == cathedral.load("classic").new_initial_state().to_json()
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.get("/api/games/nosuchgame").json() == {
        "error": "no game 'nosuchgame': check the game's address"}


def test_moves_are_refused_in_the_contracts_order_and_change_nothing(client):
    table = create(client)
    gid = table["id"]
    light, dark = (s["token"] for s in table["seats"])
    url = f"/api/games/{gid}/moves"
    before = client.get(f"/api/games/{gid}").json()
    move = "Cathedral e4 d5 e5 f5 e6 e7"
    cases = [
        # Malformed beats everything, even without a token.
        (client.post(url, content=b"{not json"), 400),
        (client.post(url, json={"ply": "0", "move": move}, headers=bearer(light)), 400),
        (client.post(url, json={"ply": 0}, headers=bearer(light)), 400),
        (client.post(url, json={"ply": 0, "move": move, "action": 3}, headers=bearer(light)), 400),
        (client.post(url, json={"ply": 0, "move": "x" * 70_000}, headers=bearer(light)), 400),
        (client.post(url, json=[1, 2], headers=bearer(light)), 400),
        # No or unknown token beats a stale ply.
        (client.post(url, json={"ply": 5, "move": move}), 401),
        (client.post(url, json={"ply": 5, "move": move}, headers=bearer(light + "x")), 401),
        (client.post(url, json={"ply": 5, "move": move},
                     headers={"Authorization": f"Basic {light}"}), 401),
        # A stale ply beats the wrong seat.
        (client.post(url, json={"ply": 5, "move": move}, headers=bearer(dark)), 409),
        # The wrong seat beats an illegal move.
        (client.post(url, json={"ply": 0, "move": "nonsense"}, headers=bearer(dark)), 403),
        (client.post(url, json={"ply": 0, "move": "nonsense"}, headers=bearer(light)), 422),
        (client.post(url, json={"ply": 0, "action": 10**9}, headers=bearer(light)), 422),
    ]
    for answer, status in cases:
        assert answer.status_code == status, answer.text
        assert list(answer.json()) == ["error"] and answer.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == before
    ok = client.post(url, json={"ply": 0, "move": move}, headers=bearer(light))
    assert ok.status_code == 200 and ok.json()["ply"] == 1
    assert ok.json()["last_move"] == "Cathedral d5 e4 e5 e6 e7 f5"
    again = client.post(url, json={"ply": 0, "move": move}, headers=bearer(light))
    assert again.status_code == 409


def test_a_game_played_to_the_end_has_a_replayable_record(client):
    table = create(client)
    gid = table["id"]
    tokens = [s["token"] for s in table["seats"]]
    rng = random.Random(3)
    view = client.get(f"/api/games/{gid}").json()
    while view["status"] == "playing":
        state = state_of(view)
        action = rng.choice(state.legal_actions())
        body = ({"ply": view["ply"], "action": action} if rng.random() < 0.5 else
                {"ply": view["ply"], "move": state.action_to_string(action)})
        answer = client.post(f"/api/games/{gid}/moves", json=body,
                             headers=bearer(tokens[view["current_player"]]))
        assert answer.status_code == 200, answer.text
        view = answer.json()
    assert view["current_player"] == -4 and view["returns"] is not None
    record = cathedral.Record.from_json(client.get(f"/api/games/{gid}/record").text)
    final = record.final_state()
    assert json.loads(final.to_json()) == json.loads(view["state"])
    assert record.result["returns"] == view["returns"] == final.returns()
    assert record.players == ["human", "human"]
    assert view["history"] == record.actions


def test_socket_sends_every_ply_in_order_and_computer_moves_by_itself(client):
    table = create(client, seats=("human", "easy"))
    gid, token = table["id"], table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{gid}") as watcher, \
            client.websocket_connect(f"/ws/games/{gid}?token={token}") as player:
        first = watcher.receive_json()
        assert first["type"] == "view" and first["view"]["ply"] == 0
        assert player.receive_json()["view"]["ply"] == 0
        seen = [0]
        for _ in range(3):
            view = client.get(f"/api/games/{gid}").json()
            state = state_of(view)
            # moves over the socket: the view comes back as a broadcast
            player.send_json({"type": "move", "ply": view["ply"],
                              "action": state.legal_actions()[0]})
            for _ in range(2):  # the human's move, then the computer's reply
                message = watcher.receive_json()
                assert message["type"] == "view"
                seen.append(message["view"]["ply"])
                assert player.receive_json()["view"]["ply"] == seen[-1]
        assert seen == list(range(7))
        player.send_json({"type": "move", "ply": 0, "move": "x"})
        refusal = player.receive_json()
        assert refusal == {"type": "error", "status": 409, "error": refusal["error"]}
        player.send_text("not json")
        assert player.receive_json()["status"] == 400
        watcher.send_json({"type": "move", "ply": 6, "move": "x"})
        assert watcher.receive_json()["status"] == 401


def test_server_resolves_chance_and_views_never_show_chance(client):
    table = create(client, game="red", seats=("human", "random"))
    gid = table["id"]
    view = client.get(f"/api/games/{gid}").json()
    assert view["ply"] > 0  # the setup was drawn before anyone could look
    assert view["current_player"] == 0
    assert not state_of(view).is_chance_node()
    record = cathedral.Record.from_json(client.get(f"/api/games/{gid}/record").text)
    assert record.actions == view["history"] and record.actions[0].startswith("setup")


def test_security_headers_and_error_bodies_everywhere(client):
    answer = client.get("/healthz")
    assert answer.json()["status"] == "ok"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    missing = client.get("/no/such/page")
    assert missing.status_code == 404 and list(missing.json()) == ["error"]
    wrong = client.put("/api/games")
    assert wrong.status_code == 405 and list(wrong.json()) == ["error"]
    bad_query = client.get("/api/games/x/picture?ply=abc")
    assert bad_query.status_code == 400 and list(bad_query.json()) == ["error"]


def test_a_secret_tells_its_seat_without_moving(client):
    table = create(client, seats=("human", "human"))
    for seat in table["seats"]:
        answer = client.get(f"/api/games/{table['id']}/seat", headers=bearer(seat["token"]))
        assert answer.json() == {"player": seat["player"]}
    assert client.get(f"/api/games/{table['id']}/seat").status_code == 401
    assert client.get(f"/api/games/{table['id']}/seat", headers=bearer("x")).status_code == 401


def test_a_hint_over_the_socket_reports_progress_then_the_result(client):
    table = create(client, seats=("human", "easy"))
    gid, token = table["id"], table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={token}") as socket:
        assert socket.receive_json()["type"] == "view"
        socket.send_json({"type": "hint", "level": "medium"})
        reports = []
        while not reports or not reports[-1]["final"]:
            message = socket.receive_json()
            assert message["type"] == "hint", message
            reports.append(message["hint"])
        assert len(reports) >= 2 and not reports[0]["final"]
        assert [r["depth"] for r in reports[:-1]] == sorted(r["depth"] for r in reports[:-1])
        best = reports[-1]
        state = cathedral.load("classic").new_initial_state()
        assert best["move"] == state.action_to_string(best["action"]) == best["pv"][0]
        socket.send_json({"type": "hint", "level": "nonsense"})
        assert socket.receive_json()["status"] == 422
    with client.websocket_connect(f"/ws/games/{gid}") as spectator:
        spectator.receive_json()
        spectator.send_json({"type": "hint", "level": "easy"})
        assert spectator.receive_json()["status"] == 403
