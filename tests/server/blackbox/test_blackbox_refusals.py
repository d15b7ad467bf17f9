"""Bad requests against a real server: each refused with server-api.md's status and a
``{"error": "..."}`` body, the game unchanged (its view and record read the same before and
after). Also the order of the checks (400, 401, 409, 403, 422) with requests that break
several rules at once, and bad create requests, a file path among them.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webapi import Api, Table, assert_error, play_to_end, state_of

BIG = 70_000  # bytes; server-api.md's limit is 64 kB


@dataclass
class Position:
    """A classic game between two people, a few moves in: who moves and who waits."""

    table: Table
    ply: int
    mover: str
    waiter: str
    legal: str
    illegal: str


def open_position(api: Api, moves: int = 3) -> Position:
    table = api.new_table("classic", {}, ["human", "human"])
    view, _ = play_to_end(api, table, seed=5, moves=moves)
    state = state_of(view)
    player = view["current_player"]
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.game.num_distinct_actions()) if a not in legal)
    return Position(
        table=table,
        ply=view["ply"],
        mover=table.token(player),
        waiter=table.token(1 - player),
        legal=state.action_to_string(min(legal)),
        illegal=state.action_to_string(illegal),
    )


@pytest.fixture
def position(api: Api) -> Position:
    return open_position(api)


def refused(
    api: Api, game_id: str, status: int, send: Callable[[], httpx.Response], what: str
) -> str:
    """Sends a bad request; asserts the status, the error body and that nothing changed."""
    before = api.snapshot(game_id)
    error = assert_error(send(), status, what)
    assert api.snapshot(game_id) == before, f"{what}: the game changed"
    return error


def raw(api: Api, game_id: str, content: bytes, token: str | None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return api.http.post(f"/api/games/{game_id}/moves", content=content, headers=headers)


def test_a_stale_ply_is_409(api: Api, position: Position) -> None:
    p = position
    for ply in (p.ply - 1, 0, -1):
        refused(
            api, p.table.id, 409,
            lambda ply=ply: api.move(p.table.id, ply, move=p.legal, token=p.mover),
            f"ply {ply} behind {p.ply}",
        )


def test_a_ply_ahead_is_409(api: Api, position: Position) -> None:
    p = position
    for ply in (p.ply + 1, p.ply + 1000):
        refused(
            api, p.table.id, 409,
            lambda ply=ply: api.move(p.table.id, ply, move=p.legal, token=p.mover),
            f"ply {ply} ahead of {p.ply}",
        )


def test_a_repeated_applied_move_is_409(api: Api, position: Position) -> None:
    p = position
    answer = api.move(p.table.id, p.ply, move=p.legal, token=p.mover)
    assert answer.status_code == 200, answer.text
    assert answer.json()["ply"] == p.ply + 1
    refused(
        api, p.table.id, 409,
        lambda: api.move(p.table.id, p.ply, move=p.legal, token=p.mover),
        "the same request again",
    )
    assert api.record(p.table.id).actions.count(p.legal) == 1


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Basic dXNlcjpwYXNz",
        "Bearer " + secrets.token_urlsafe(32),
        "Bearer " + "0" * 43,
    ],
    ids=["none", "empty", "bearer-only", "basic", "forged", "zeros"],
)
def test_no_or_an_unknown_token_is_401(
    api: Api, position: Position, authorization: str | None
) -> None:
    p = position
    headers = {} if authorization is None else {"Authorization": authorization}
    refused(
        api, p.table.id, 401,
        lambda: api.move(p.table.id, p.ply, move=p.legal, headers=headers),
        f"Authorization {authorization!r}",
    )


def test_a_token_of_another_game_is_401(api: Api, position: Position) -> None:
    p = position
    other = api.new_table("classic", {}, ["human", "human"])
    for player in (0, 1):
        refused(
            api, p.table.id, 401,
            lambda player=player: api.move(
                p.table.id, p.ply, move=p.legal, token=other.token(player)
            ),
            f"player {player}'s token of game {other.id}",
        )


def test_a_token_with_a_changed_character_is_401(api: Api, position: Position) -> None:
    p = position
    forged = p.mover[:-1] + ("A" if p.mover[-1] != "A" else "B")
    refused(
        api, p.table.id, 401,
        lambda: api.move(p.table.id, p.ply, move=p.legal, token=forged),
        "the mover's token with its last character changed",
    )


def test_the_wrong_seat_is_403(api: Api, position: Position) -> None:
    p = position
    refused(
        api, p.table.id, 403,
        lambda: api.move(p.table.id, p.ply, move=p.legal, token=p.waiter),
        "the waiting player's token",
    )


MALFORMED_BODIES = [
    pytest.param(b"{not json", id="not-json"),
    pytest.param(b"", id="empty"),
    pytest.param(b"[1, 2]", id="list"),
    pytest.param(b'"e4"', id="string"),
    pytest.param(b"null", id="null"),
    pytest.param(b"\xff\xfe\x00", id="not-utf8"),
]


@pytest.mark.parametrize("content", MALFORMED_BODIES)
def test_a_malformed_body_is_400(api: Api, position: Position, content: bytes) -> None:
    p = position
    refused(api, p.table.id, 400, lambda: raw(api, p.table.id, content, p.mover), repr(content))


def bad_shapes(ply: int, move: str) -> list[tuple[str, object]]:
    return [
        ("ply as a string", {"ply": str(ply), "move": move}),
        ("ply as a float", {"ply": ply + 0.5, "move": move}),
        ("ply as null", {"ply": None, "move": move}),
        ("ply as a list", {"ply": [ply], "move": move}),
        ("move as a number", {"ply": ply, "move": 17}),
        ("move as a list", {"ply": ply, "move": [move]}),
        ("action as a string", {"ply": ply, "action": "17"}),
        ("action as a float", {"ply": ply, "action": 1.5}),
        ("action as an object", {"ply": ply, "action": {"id": 1}}),
        ("no ply", {"move": move}),
        ("no move and no action", {"ply": ply}),
        ("both a move and an action", {"ply": ply, "move": move, "action": 0}),
        ("nothing", {}),
    ]


def test_wrong_types_and_missing_fields_are_400(api: Api, position: Position) -> None:
    p = position
    for what, body in bad_shapes(p.ply, p.legal):
        refused(
            api, p.table.id, 400, lambda body=body: api.move(p.table.id, 0, body=body,
                                                           token=p.mover), what,
        )


def test_an_oversized_body_is_400(api: Api, position: Position) -> None:
    p = position
    padded = json.dumps({"ply": p.ply, "move": p.legal}) + " " * BIG
    cases = [
        ("a 70 kB move", json.dumps({"ply": p.ply, "move": "x" * BIG}).encode()),
        ("a legal move padded to 70 kB", padded.encode()),
        ("70 kB of an extra field", json.dumps(
            {"ply": p.ply, "move": p.legal, "pad": "x" * BIG}).encode()),
    ]
    for what, content in cases:
        assert len(content) > 64 * 1024
        refused(api, p.table.id, 400, lambda c=content: raw(api, p.table.id, c, p.mover), what)


def test_an_illegal_or_unparsable_move_is_422_with_the_engines_reason(
    api: Api, position: Position
) -> None:
    p = position
    cases = [
        ("an illegal move", {"move": p.illegal}),
        ("an unparsable move", {"move": "Cathedral z99 q0"}),
        ("words", {"move": "hello world"}),
        ("an empty move", {"move": ""}),
        ("an illegal action number", {"action": int(1e6)}),
        ("a negative action number", {"action": -3}),
    ]
    for what, choice in cases:
        error = refused(
            api, p.table.id, 422,
            lambda choice=choice: api.move(p.table.id, p.ply, token=p.mover, **choice), what,
        )
        assert len(error) > 10, error


def test_a_move_on_a_finished_game_is_409(api: Api) -> None:
    table = api.new_table("classic", {}, ["human", "human"])
    view, _ = play_to_end(api, table, seed=3)
    assert view["status"] == "finished"
    for player in (0, 1):
        refused(
            api, table.id, 409,
            lambda player=player: api.move(table.id, view["ply"], move="Tavern a1",
                                           token=table.token(player)),
            f"player {player} after the end",
        )


def test_an_unknown_game_is_404(api: Api, position: Position) -> None:
    for game_id in ("no-such-game", "0" * 32, position.table.id + "x"):
        assert_error(api.http.get(f"/api/games/{game_id}"), 404, f"GET {game_id}")
        assert_error(api.http.get(f"/api/games/{game_id}/record"), 404, f"record {game_id}")


# -- the order of the checks: 400, 401, 409, 403, 422 ------------------------------------

def order_cases(p: Position, api: Api) -> list[tuple[str, int, Callable[[], httpx.Response]]]:
    tid = p.table.id
    forged = secrets.token_urlsafe(32)
    return [
        ("malformed JSON, no token", 400, lambda: raw(api, tid, b"{oops", None)),
        ("malformed JSON, forged token", 400, lambda: raw(api, tid, b"{oops", forged)),
        ("oversized, no token", 400,
         lambda: raw(api, tid, json.dumps({"ply": p.ply, "move": "x" * BIG}).encode(), None)),
        ("wrong type, stale ply, waiting seat", 400,
         lambda: api.move(tid, 0, body={"ply": p.ply - 1, "move": 5}, token=p.waiter)),
        ("missing move, forged token", 400,
         lambda: api.move(tid, 0, body={"ply": p.ply}, token=forged)),
        ("no token, stale ply", 401, lambda: api.move(tid, p.ply - 1, move=p.legal)),
        ("forged token, stale ply, illegal move", 401,
         lambda: api.move(tid, p.ply - 1, move=p.illegal, token=forged)),
        ("forged token, illegal move", 401,
         lambda: api.move(tid, p.ply, move=p.illegal, token=forged)),
        ("waiting seat, stale ply", 409,
         lambda: api.move(tid, p.ply - 1, move=p.legal, token=p.waiter)),
        ("waiting seat, ply ahead, unparsable move", 409,
         lambda: api.move(tid, p.ply + 1, move="nonsense", token=p.waiter)),
        ("mover, stale ply, illegal move", 409,
         lambda: api.move(tid, p.ply - 1, move=p.illegal, token=p.mover)),
        ("waiting seat, illegal move", 403,
         lambda: api.move(tid, p.ply, move=p.illegal, token=p.waiter)),
        ("waiting seat, unparsable move", 403,
         lambda: api.move(tid, p.ply, move="nonsense", token=p.waiter)),
        ("mover, unparsable move", 422,
         lambda: api.move(tid, p.ply, move="nonsense", token=p.mover)),
    ]


def test_the_checks_run_in_the_documented_order(api: Api, position: Position) -> None:
    for what, status, send in order_cases(position, api):
        refused(api, position.table.id, status, send, what)


def test_a_finished_game_is_409_before_the_seat_and_the_move(api: Api) -> None:
    table = api.new_table("classic", {}, ["human", "human"])
    view, _ = play_to_end(api, table, seed=8)
    for player in (0, 1):
        refused(
            api, table.id, 409,
            lambda player=player: api.move(table.id, view["ply"], move="nonsense",
                                           token=table.token(player)),
            "unparsable move after the end",
        )
    refused(api, table.id, 401, lambda: api.move(table.id, view["ply"], move="x"),
            "no token after the end")


# -- any body from the waiting seat: never applied ----------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
move_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"ply": json_values | st.integers(0, 12)},
        optional={"move": json_values | st.sampled_from(["Tavern a1", "stop", ""]),
                  "action": json_values | st.integers(0, 3000)},
    ),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=move_bodies)
def test_any_body_from_the_waiting_seat_is_refused_and_changes_nothing(
    server, body: object
) -> None:
    api = Api(server.url)
    try:
        if _hypothesis_position.get(server.url) is None:
            _hypothesis_position[server.url] = open_position(api, moves=2)
        p = _hypothesis_position[server.url]
        before = api.snapshot(p.table.id)
        answer = api.move(p.table.id, 0, body=body, token=p.waiter)
        assert answer.status_code in (400, 403, 409), (body, answer.status_code, answer.text)
        assert_error(answer, answer.status_code, repr(body))
        assert api.snapshot(p.table.id) == before
    finally:
        api.close()


_hypothesis_position: dict[str, Position] = {}


# -- creating a table ---------------------------------------------------------------------

BAD_CREATES = [
    pytest.param({"game": "chess", "params": {}, "seats": ["human", "human"]}, id="unknown-game"),
    pytest.param({"game": "classic", "params": {"opening": "sideways"},
                  "seats": ["human", "human"]}, id="bad-choice"),
    pytest.param({"game": "classic", "params": {"colour": "red"},
                  "seats": ["human", "human"]}, id="unknown-parameter"),
    pytest.param({"game": "allmer", "params": {"players": "four"},
                  "seats": ["human", "human"]}, id="parameter-type"),
    pytest.param({"game": "allmer", "params": {"players": 3},
                  "seats": ["human"] * 3}, id="players-not-a-choice"),
    pytest.param({"game": "red", "params": {"turn_cap": 0},
                  "seats": ["human", "human"]}, id="below-minimum"),
    pytest.param({"game": "classic", "params": {}, "seats": ["human"] * 3}, id="three-seats"),
    pytest.param({"game": "classic", "params": {}, "seats": ["human"]}, id="one-seat"),
    pytest.param({"game": "classic", "params": {}, "seats": []}, id="no-seats"),
    pytest.param({"game": "allmer", "params": {"players": 4},
                  "seats": ["human", "human"]}, id="four-players-two-seats"),
    pytest.param({"game": "red", "params": {"players": 3},
                  "seats": ["human"] * 4}, id="three-players-four-seats"),
    pytest.param({"game": "classic", "params": {},
                  "seats": ["human", "grandmaster"]}, id="unknown-level"),
    pytest.param({"game": "classic", "params": {},
                  "seats": ["human", "mcts:nonsense=1"]}, id="bad-agent-argument"),
]


@pytest.mark.parametrize("body", BAD_CREATES)
def test_a_bad_create_request_is_refused(api: Api, body: dict) -> None:
    answer = api.http.post("/api/games", json=body)
    assert answer.status_code in (400, 422), answer.text
    assert_error(answer, answer.status_code, json.dumps(body))


MALFORMED_CREATES = [
    pytest.param(b"{nope", id="not-json"),
    pytest.param(b"[]", id="list"),
    pytest.param(b'{"params": {}, "seats": ["human", "human"]}', id="no-game"),
    pytest.param(b'{"game": "classic", "params": {}}', id="no-seats"),
    pytest.param(b'{"game": 7, "params": {}, "seats": ["human", "human"]}', id="game-type"),
    pytest.param(b'{"game": "classic", "params": [], "seats": ["human", "human"]}',
                 id="params-type"),
    pytest.param(b'{"game": "classic", "params": {}, "seats": "human,human"}', id="seats-type"),
    pytest.param(b'{"game": "classic", "params": {}, "seats": ["human", 5]}', id="seat-type"),
    pytest.param(
        json.dumps({"game": "classic", "params": {}, "seats": ["human", "human"],
                    "pad": "x" * BIG}).encode(), id="oversized",
    ),
]


@pytest.mark.parametrize("content", MALFORMED_CREATES)
def test_a_malformed_create_body_is_400(api: Api, content: bytes) -> None:
    answer = api.http.post(
        "/api/games", content=content, headers={"Content-Type": "application/json"}
    )
    assert_error(answer, 400, content[:80].decode())


FILES = ["/etc/passwd", "/nonexistent/components.json", "../../../../etc/passwd",
         "src/cathedral/games/red/data/reconstructed.json"]


def test_a_parameter_naming_a_file_is_refused_without_saying_whether_it_exists(
    api: Api,
) -> None:
    errors = []
    for path in FILES:
        answer = api.create("red", {"players": 2, "components": path}, ["human", "human"])
        assert answer.status_code in (400, 422), f"{path}: {answer.status_code} {answer.text}"
        error = assert_error(answer, answer.status_code, path)
        assert "root:" not in error
        errors.append(error.replace(path, "<path>"))
    assert len(set(errors)) == 1, f"the errors differ by path: {errors}"
    # The shipped set by its name is fine.
    table = api.new_table("red", {"players": 2, "components": "reconstructed"},
                          ["human", "human"])
    assert api.view(table.id)["params"]["components"] == "reconstructed"


def test_a_refused_create_does_not_disturb_a_running_game(api: Api) -> None:
    p = open_position(api, moves=1)
    before = api.snapshot(p.table.id)
    rng = random.Random(1)
    for body in rng.sample([param.values[0] for param in BAD_CREATES], 5):
        assert api.http.post("/api/games", json=body).status_code in (400, 422)
    assert api.snapshot(p.table.id) == before
