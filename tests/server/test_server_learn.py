"""Lessons, puzzles and practising a position, in process (FastAPI's TestClient on a SQLite
file): the lessons listed with every step's position, a step checked right and wrong, a puzzle
solved, missed and given up without its answers ever shown before, a signed-in first try that
changes the puzzle rating once, a practice table at a finished game's ply; refusals are 4xx
with one sentence.

The puzzle tests serve two puzzles of their own (the module's public functions patched), so
they do not depend on the shipped puzzle files; one test reads the shipped ones when there
are any."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cathedral.learn import lessons
from cathedral.learn import puzzles as shipped
from cathedral.server.app import create_app
from cathedral.server.settings import Settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CATHEDRAL = "Cathedral d5 e4 e5 e6 e7 f5"
PUZZLES = [
    {"id": "test-classic-1", "game": "classic", "params": {}, "start": [], "player": 0,
     "goal": "Light to play: the Cathedral in the middle", "theme": "opening",
     "difficulty": 1400, "answers": [CATHEDRAL], "line": [CATHEDRAL, "Tavern a1"],
     "proof": {"method": "a test's say-so", "value": 1, "moves": {}}},
    {"id": "test-allmer-1", "game": "allmer", "params": {}, "start": ["f3-f4"], "player": 1,
     "goal": "Black to play: step straight on", "theme": "first steps", "difficulty": 1700,
     "answers": ["f13-f12"], "line": ["f13-f12", "f4-f5"],
     "proof": {"method": "a test's say-so", "value": 1, "moves": {}}},
]


@pytest.fixture
def client(tmp_path):
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'games.sqlite3'}", workers=1))
    with TestClient(app) as http:
        yield http


@pytest.fixture
def test_puzzles(monkeypatch):
    """The routes see PUZZLES instead of the shipped puzzles."""
    made = [shipped.Puzzle.from_dict(item) for item in PUZZLES]
    by_id = {p.id: p for p in made}

    def puzzle(puzzle_id):
        return by_id[puzzle_id]

    monkeypatch.setattr(shipped, "puzzles",
                        lambda game=None: [p for p in made if game in (None, p.game)])
    monkeypatch.setattr(shipped, "puzzle", puzzle)
    monkeypatch.setattr(shipped, "daily", lambda date=None: made[1])
    return by_id


class Person:
    """A signed-up browser: its cookie, its CSRF token (on the server's event loop)."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.http = TestClient(client.app)
        self.http.portal = client.portal
        answer = self.http.post("/api/account/signup",
                                json={"name": name, "password": "correct horse battery"})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["account"]["csrf"]

    def post(self, path: str, body=None):
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def get(self, path: str):
        return self.http.get(path)


def refused(answer, status: int, words: str) -> None:
    assert answer.status_code == status, answer.text
    assert list(answer.json()) == ["error"] and words in answer.json()["error"], answer.json()


# ----- lessons ------------------------------------------------------------------------------


def test_the_courses_list_every_lesson_with_its_steps(client):
    answer = client.get("/api/lessons")
    assert answer.status_code == 200
    courses = {c["game"]: c for c in answer.json()["courses"]}
    assert "classic" in courses
    first = lessons.course("classic").lessons[0]
    assert courses["classic"]["lessons"][0] == {"id": first.id, "title": first.title,
                                                "steps": len(first.steps)}


def test_a_lesson_gives_each_steps_position_but_not_its_goal(client):
    first = lessons.course("classic").lessons[0]
    answer = client.get(f"/api/lessons/classic/{first.id}")
    assert answer.status_code == 200
    lesson = answer.json()
    assert lesson["title"] == first.title and lesson["index"] == 0 and lesson["previous"] is None
    assert [s["id"] for s in lesson["steps"]] == [s.id for s in first.steps]
    for step, view in zip(first.steps, lesson["steps"], strict=True):
        state = lessons.step_state(step)
        assert view["state"] == state.to_json()
        assert view["picture"]["to_move"] == state.current_player() == view["current_player"]
        assert view["players"] == ["Light", "Dark"] and view["text"] == step.text
        assert "goal" not in view and "wrong" not in view
        assert lessons.check(step, view["answer"]["move"]).ok


def test_a_step_is_checked_right_and_wrong_with_the_engines_reasons(client):
    first = lessons.course("classic").lessons[0]
    step = first.steps[1]
    path = f"/api/lessons/classic/{first.id}/{step.id}/check"
    right = client.post(path, json={"move": lessons.answer(step)})
    assert right.status_code == 200
    body = right.json()
    assert body["ok"] is True and body["text"].startswith("Right")
    after = lessons.step_state(step)
    after.apply_action(after.string_to_action(lessons.answer(step)))
    assert body["after"]["state"] == after.to_json()
    assert body["after"]["current_player"] == after.current_player()
    assert body["last"] is False and body["index"] == 1

    state = lessons.step_state(step)
    wrong = next(state.action_to_string(a) for a in state.legal_actions()
                 if a not in lessons.solutions(step, state))
    missed = client.post(path, json={"move": wrong}).json()
    assert missed == {"ok": False, "text": step.wrong, "step": step.id, "index": 1,
                      "last": False}
    illegal = client.post(path, json={"move": "Tavern z99"}).json()
    assert illegal["ok"] is False and "z99" in illegal["text"]
    by_index = client.post(f"/api/lessons/classic/{first.id}/1/check",
                           json={"move": lessons.answer(step)})
    assert by_index.json()["ok"] is True


@pytest.mark.parametrize(("method", "path", "body", "status", "words"), [
    ("GET", "/api/lessons/chess/placing", None, 404, "no course for the game 'chess'"),
    ("GET", "/api/lessons/classic/no-such-lesson", None, 404, "no lesson 'no-such-lesson'"),
    ("POST", "/api/lessons/classic/{lesson}/no-such-step/check", {"move": "x"}, 404,
     "no step 'no-such-step'"),
    ("POST", "/api/lessons/classic/{lesson}/{step}/check", {}, 400, "missing field 'move'"),
    ("POST", "/api/lessons/classic/{lesson}/{step}/check", {"move": 3}, 400, "move"),
    ("POST", "/api/lessons/classic/{lesson}/{step}/check", {"move": "x" * 201}, 400, "move"),
    ("POST", "/api/lessons/classic/{lesson}/{step}/check", {"move": "x", "why": 1}, 400,
     "unknown field 'why'"),
    ("POST", "/api/lessons/classic/{lesson}/{step}/check", None, 400, "request body"),
])
def test_bad_lesson_requests_are_refused_with_a_reason(client, method, path, body, status,
                                                       words):
    first = lessons.course("classic").lessons[0]
    path = path.format(lesson=first.id, step=first.steps[0].id)
    answer = client.request(method, path, json=body)
    refused(answer, status, words)


# ----- puzzles ------------------------------------------------------------------------------


def test_puzzles_are_listed_by_game_and_theme_without_their_answers(client, test_puzzles):
    listed = client.get("/api/puzzles").json()
    assert listed["total"] == 2 and listed["games"] == ["allmer", "classic"]
    assert [p["id"] for p in listed["puzzles"]] == ["test-classic-1", "test-allmer-1"]
    assert set(listed["puzzles"][0]) == {"id", "game", "goal", "theme", "difficulty"}
    allmer = client.get("/api/puzzles?game=allmer").json()
    assert [p["id"] for p in allmer["puzzles"]] == ["test-allmer-1"]
    assert allmer["themes"] == ["first steps"]
    assert client.get("/api/puzzles?theme=opening").json()["total"] == 1
    assert client.get("/api/puzzles?game=red").json()["puzzles"] == []  # a game, none yet
    refused(client.get("/api/puzzles?game=chess"), 422, "no puzzles of the game 'chess'")
    refused(client.get("/api/puzzles?limit=0"), 400, "limit")

    view = client.get("/api/puzzles/test-allmer-1").json()
    for secret in ("answers", "line", "positions"):
        assert secret not in view
    assert view["proof"] == {"method": "a test's say-so"}
    assert view["current_player"] == 1 and view["players"] == ["White", "Black"]
    assert view["goal"] == "Black to play: step straight on" and view["difficulty"] == 1700
    assert "f13-f12" in {m["notation"] for step in view["picture"]["moves"]
                         for m in step["steps"]}
    assert view["next"] is None
    assert "tried" not in view  # signed out
    daily = client.get("/api/puzzles/daily").json()
    assert daily["id"] == "test-allmer-1" and len(daily["date"]) == 10


def test_a_puzzle_is_solved_missed_and_given_up(client, test_puzzles):
    path = "/api/puzzles/test-classic-1/check"
    solved = client.post(path, json={"move": "Cathedral e4 d5 e5 f5 e6 e7"}).json()
    assert solved["ok"] is True and solved["text"].startswith("Right")
    assert solved["line"] == [CATHEDRAL, "Tavern a1"]
    assert [p["move"] for p in solved["positions"]] == solved["line"]
    assert solved["positions"][1]["player"] == 1 and solved["positions"][1]["picture"]
    assert solved["after"]["cathedral"]["squares"]
    assert "rating" not in solved  # signed out

    missed = client.post(path, json={"move": "Cathedral a2 b1 b2 b3 c2 d2"}).json()
    assert missed["ok"] is False and "not the answer" in missed["text"]
    assert "line" not in missed and "positions" not in missed
    illegal = client.post(path, json={"move": "Tavern a1"}).json()
    assert illegal["ok"] is False and "Cathedral first" in illegal["text"]

    given = client.post("/api/puzzles/test-allmer-1/check", json={"give_up": True}).json()
    assert given["ok"] is False and given["gave_up"] is True
    assert given["line"] == ["f13-f12", "f4-f5"] and "f13-f12" in given["text"]


@pytest.mark.parametrize(("method", "path", "body", "status", "words"), [
    ("GET", "/api/puzzles/no-such-puzzle", None, 404, "no puzzle 'no-such-puzzle'"),
    ("GET", "/api/puzzles/%2e%2e%2fsecret", None, 404, "no"),
    ("POST", "/api/puzzles/no-such-puzzle/check", {"move": "x"}, 404, "no puzzle"),
    ("POST", "/api/puzzles/test-classic-1/check", {}, 400, "give either 'move'"),
    ("POST", "/api/puzzles/test-classic-1/check", {"move": "x", "give_up": True}, 400,
     "give either"),
    ("POST", "/api/puzzles/test-classic-1/check", {"move": ""}, 400, "move"),
    ("POST", "/api/puzzles/test-classic-1/check", {"give_up": "yes"}, 400, "give_up"),
    ("GET", "/api/me/puzzles", None, 401, "sign in first"),
])
def test_bad_puzzle_requests_are_refused_with_a_reason(client, test_puzzles, method, path,
                                                       body, status, words):
    refused(client.request(method, path, json=body), status, words)


def test_a_signed_in_first_try_changes_the_puzzle_rating_once(client, test_puzzles):
    solver = Person(client, "solver")
    assert solver.get("/api/me/puzzles").json() == {"rating": None, "tried": {}}
    missed = solver.post("/api/puzzles/test-classic-1/check",
                         {"move": "Cathedral a2 b1 b2 b3 c2 d2"}).json()
    assert missed["ok"] is False
    rating = missed["rating"]
    assert rating["before"] is None and rating["rating"] < 1500  # lost to a 1400 puzzle
    again = solver.post("/api/puzzles/test-classic-1/check", {"move": CATHEDRAL}).json()
    assert again["ok"] is True and again["rating"] is None  # a second try counts for nothing
    mine = solver.get("/api/me/puzzles").json()
    assert mine["rating"]["tried"] == 1 and mine["rating"]["solved"] == 0
    assert mine["rating"]["rating"] == pytest.approx(rating["rating"])
    assert mine["tried"] == {"test-classic-1": False}

    solved = solver.post("/api/puzzles/test-allmer-1/check", {"move": "f13-f12"}).json()
    assert solved["rating"]["before"] == pytest.approx(rating["rating"])
    assert solved["rating"]["rating"] > rating["rating"]
    listed = {p["id"]: p["tried"] for p in solver.get("/api/puzzles").json()["puzzles"]}
    assert listed == {"test-classic-1": "missed", "test-allmer-1": "solved"}
    assert solver.get("/api/puzzles/test-allmer-1").json()["tried"] == "solved"

    # a signed-in try without the CSRF token is refused and counts for nothing
    forged = solver.http.post("/api/puzzles/test-classic-1/check", json={"give_up": True})
    refused(forged, 403, "X-CSRF-Token")
    assert solver.get("/api/me/puzzles").json()["rating"]["tried"] == 2


def test_no_puzzles_no_daily_one(client, monkeypatch):
    monkeypatch.setattr(shipped, "puzzles", lambda game=None: [])
    answer = client.get("/api/puzzles/daily")
    assert answer.status_code == 204 and answer.content == b""


def test_the_shipped_puzzles_are_served_and_solved(client):
    every = shipped.puzzles()
    if not every:
        pytest.skip("no puzzles are shipped yet")
    for game in sorted({p.game for p in every}):
        puzzle = next(p for p in every if p.game == game)
        view = client.get(f"/api/puzzles/{puzzle.id}").json()
        assert view["id"] == puzzle.id and "answers" not in view
        state = shipped.start_state(puzzle)
        assert view["state"] == state.to_json()
        solved = client.post(f"/api/puzzles/{puzzle.id}/check",
                             json={"move": puzzle.answers[0]}).json()
        assert solved["ok"] is True and solved["line"] == list(puzzle.line)
    daily = client.get("/api/puzzles/daily").json()
    assert daily["id"] in {p.id for p in every}


# ----- practising a position --------------------------------------------------------------


def finished_game(client) -> tuple[str, list[str]]:
    """A classic game of two people, four placements, then a resignation."""
    created = client.post("/api/games", json={"game": "classic", "seats": ["human", "human"]})
    table = created.json()
    tokens = [seat["token"] for seat in table["seats"]]
    moves = [CATHEDRAL, "Castle c3 d3 e3 c2 e2", "Infirmary h7 g6 h6 i6 h5", "Tavern a1"]
    for ply, move in enumerate(moves):
        answer = client.post(f"/api/games/{table['id']}/moves", json={"ply": ply, "move": move},
                             headers={"Authorization": f"Bearer {tokens[ply % 2]}"})
        assert answer.status_code == 200, answer.text
    assert client.get(f"/api/games/{table['id']}").json()["status"] == "playing"
    refused(client.post("/api/practise", json={"game_id": table["id"], "ply": 2}), 403,
            "practise opens once the game is over")
    client.post(f"/api/games/{table['id']}/resign", json={"ply": 4},
                headers={"Authorization": f"Bearer {tokens[0]}"})
    return table["id"], moves


def test_practise_opens_a_table_at_that_position_against_the_level(client):
    game_id, moves = finished_game(client)
    answer = client.post("/api/practise", json={"game_id": game_id, "ply": 3, "level": "random"})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    assert created["practise_of"] == game_id and created["ply"] == 3
    assert [s["kind"] for s in created["seats"]] == ["random", "human"]  # Dark is to move
    mine = next(s for s in created["seats"] if "token" in s)
    assert mine["player"] == 1 and mine["url"] == f"/g/{created['id']}#{mine['token']}"
    view = client.get(f"/api/games/{created['id']}").json()
    assert view["history"][:3] == [client.get(f"/api/games/{game_id}").json()["history"][i]
                                   for i in range(3)]
    assert view["ply"] == 3 and view["status"] == "playing" and view["current_player"] == 1
    assert view["clock"] is None and view["rated"] is False and view["read_only"] is False
    played = client.post(f"/api/games/{created['id']}/moves", json={"ply": 3, "move": moves[3]},
                         headers={"Authorization": f"Bearer {mine['token']}"})
    assert played.status_code == 200, played.text
    assert played.json()["ply"] >= 4

    start = client.post("/api/practise", json={"game_id": game_id, "ply": 0}).json()
    assert [s["kind"] for s in start["seats"]] == ["human", "medium"]  # the default level


def test_a_signed_in_practice_seat_is_the_accounts(client):
    game_id, _ = finished_game(client)
    person = Person(client, "practiser")
    created = person.post("/api/practise", {"game_id": game_id, "ply": 2, "level": "easy"})
    assert created.status_code == 201, created.text
    view = client.get(f"/api/games/{created.json()['id']}").json()
    assert view["names"] == ["practiser", None]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game_id": "nosuchgame", "ply": 0}, 404, "no game 'nosuchgame'"),
    ({"game_id": "{game}", "ply": 99}, 422, "ply 99 is outside the game (0..4)"),
    ({"game_id": "{game}", "ply": -1}, 400, "ply"),
    ({"game_id": "{game}", "ply": 1, "level": "grandmaster"}, 422, "unknown level"),
    ({"game_id": "{game}"}, 400, "missing field 'ply'"),
    ({"game_id": "{game}", "ply": "1"}, 400, "ply"),
    ({"game_id": "../x", "ply": 1}, 404, "no game"),
])
def test_bad_practise_requests_are_refused_with_a_reason(client, body, status, words):
    game_id, _ = finished_game(client)
    if body.get("game_id") == "{game}":
        body = {**body, "game_id": game_id}
    refused(client.post("/api/practise", json=body), status, words)
