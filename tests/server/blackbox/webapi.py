"""A client of server-api.md and the checks every black-box test shares.

Owns: the HTTP calls of the minimum contract (create, view, record, move), one connection
per seat (each player is its own client with its own token), the check of every view
against a local replay of the game's record, and playing a table to its end by choosing
legal moves from the view's own ``state``. Nothing here imports the server.
"""

from __future__ import annotations

import json
import random
import ssl
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import httpx

import cathedral
from cathedral.core.contract import Game, State

#: The fields server-api.md promises in every game view.
VIEW_FIELDS = (
    "id", "game", "params", "status", "ply", "current_player", "players", "seats", "state",
    "returns", "last_move",
)
TERMINAL = -4
#: How long a poll for a computer move or a resolved chance node may go on before the test
#: gives up (a hang guard, not a speed check: the levels used answer in milliseconds).
PATIENCE_S = 60.0


@cache
def tls() -> ssl.SSLContext:
    """One TLS context for every client: httpx builds a new one per client otherwise, which
    costs a tenth of a second (the server is plain HTTP on loopback anyway)."""
    return ssl.create_default_context()


def http_client(base_url: str, token: str | None = None) -> httpx.Client:
    """An HTTP client of its own (its own connections), with ``token`` as its Bearer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    # httpx keeps an idle connection 5 s, as long as uvicorn does: a request sent just as the
    # server closes it is reset. Dropping idle connections well before the server does avoids it.
    return httpx.Client(base_url=base_url, timeout=30.0, headers=headers, verify=tls(),
                        limits=httpx.Limits(keepalive_expiry=2.0))


@cache
def _load(name: str, params_json: str) -> Game:
    return cathedral.load(name, **json.loads(params_json))


def game_of(view_or_record: dict) -> Game:
    """The local engine's game for a view (or a record dict): same name and parameters."""
    params = json.dumps(view_or_record["params"], sort_keys=True)
    return _load(view_or_record["game"], params)


def state_of(view: dict) -> State:
    return game_of(view).state_from_json(view["state"])


def contract_part(view: dict) -> dict:
    """The part of a view server-api.md defines (extra fields such as timestamps left out)."""
    return {key: view.get(key) for key in VIEW_FIELDS}


def assert_error(answer: httpx.Response, status: int, what: str = "") -> str:
    """Asserts a refusal with ``status`` and a ``{"error": "..."}`` body; returns the error."""
    context = f"{what}: " if what else ""
    assert answer.status_code == status, (
        f"{context}expected {status}, got {answer.status_code} {answer.text[:300]}"
    )
    try:
        body = answer.json()
    except ValueError:
        raise AssertionError(f"{context}error body is not JSON: {answer.text[:300]!r}") from None
    assert isinstance(body, dict) and set(body) == {"error"}, (
        f"{context}error body must be exactly {{'error': '...'}}, got {body!r}"
    )
    assert isinstance(body["error"], str) and body["error"].strip(), (
        f"{context}empty error sentence: {body!r}"
    )
    return body["error"]


@dataclass
class Table:
    """A game created over HTTP: its id and the create reply's seats (tokens included)."""

    id: str
    seats: list[dict]
    watch_url: str
    kinds: list[str]

    def token(self, player: int) -> str:
        return self.seats[player]["token"]

    def human(self, player: int) -> bool:
        return self.kinds[player] == "human"


class Api:
    """server-api.md over one HTTP connection pool."""

    def __init__(self, base_url: str, *, token: str | None = None) -> None:
        self.base_url = base_url
        self.http = http_client(base_url, token)

    def close(self) -> None:
        self.http.close()

    def seat(self, token: str) -> Api:
        """A separate client (its own connections) that plays with ``token``."""
        return Api(self.base_url, token=token)

    def create(self, game: str, params: dict, seats: list[str], **extra: Any) -> httpx.Response:
        return self.http.post(
            "/api/games", json={"game": game, "params": params, "seats": seats, **extra}
        )

    def new_table(self, game: str, params: dict, seats: list[str]) -> Table:
        answer = self.create(game, params, seats)
        assert answer.status_code == 201, f"create: {answer.status_code} {answer.text[:500]}"
        body = answer.json()
        assert isinstance(body["id"], str) and body["id"], body
        assert [s["player"] for s in body["seats"]] == list(range(len(seats))), body
        for seat, kind in zip(body["seats"], seats):
            assert seat["kind"] == kind, body
            if kind == "human":
                assert isinstance(seat["token"], str) and len(seat["token"]) >= 22, seat
                assert seat["url"] == f"/g/{body['id']}#{seat['token']}", seat
            else:
                assert "token" not in seat, f"a computer seat got a token: {seat}"
        assert body["watch_url"] == f"/g/{body['id']}", body
        return Table(body["id"], body["seats"], body["watch_url"], list(seats))

    def view(self, game_id: str) -> dict:
        answer = self.http.get(f"/api/games/{game_id}")
        assert answer.status_code == 200, f"GET view: {answer.status_code} {answer.text[:300]}"
        return answer.json()

    def record(self, game_id: str) -> cathedral.Record:
        answer = self.http.get(f"/api/games/{game_id}/record")
        assert answer.status_code == 200, f"GET record: {answer.status_code} {answer.text[:300]}"
        return cathedral.Record.from_json(answer.text)

    def snapshot(self, game_id: str) -> tuple[dict, list[str]]:
        """The game as anyone sees it: the view's contract fields and the record's actions."""
        return contract_part(self.view(game_id)), self.record(game_id).actions

    def move(
        self, game_id: str, ply: int, *, move: str | None = None, action: int | None = None,
        token: str | None = None, body: Any = None, **kwargs: Any,
    ) -> httpx.Response:
        if body is None:
            body = {"ply": ply}
            if move is not None:
                body["move"] = move
            if action is not None:
                body["action"] = action
        headers = kwargs.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.post(
            f"/api/games/{game_id}/moves", json=body, headers=headers, **kwargs
        )

    def wait_past(self, game_id: str, ply: int) -> dict:
        """Polls the view until its ply passes ``ply`` (a computer moved, chance resolved)."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            view = self.view(game_id)
            if view["ply"] > ply or view["status"] == "finished":
                return view
            assert time.monotonic() < deadline, (
                f"game {game_id} stuck at ply {ply} for {PATIENCE_S} s: {contract_part(view)}"
            )
            time.sleep(0.02)


@dataclass
class Replay:
    """The game's record replayed locally, one state per ply, grown as the record grows.

    ``check(view)`` asserts the view is exactly the replayed position at its ply: same state
    JSON, player to move, status, returns and last move; and that the record never rewrites
    what it said before (its actions only grow).
    """

    api: Api
    game_id: str
    actions: list[str] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    record: cathedral.Record | None = None

    def sync(self) -> None:
        record = self.api.record(self.game_id)
        assert record.actions[: len(self.actions)] == self.actions, (
            f"record of {self.game_id} changed its past: {self.actions} -> {record.actions}"
        )
        if not self.states:
            self.states.append(record.new_initial_state())
        state = self.states[-1].clone()
        for text in record.actions[len(self.actions):]:
            state.apply_action(state.string_to_action(text))
            self.states.append(state.clone())
        self.actions = list(record.actions)
        self.record = record

    def at(self, ply: int) -> State:
        if ply >= len(self.states):
            self.sync()
        assert ply < len(self.states), (
            f"a view at ply {ply} but the record of {self.game_id} has "
            f"{len(self.actions)} actions"
        )
        return self.states[ply]

    def check(self, view: dict) -> State:
        for key in VIEW_FIELDS:
            assert key in view, f"view without {key!r}: {sorted(view)}"
        assert view["id"] == self.game_id
        assert isinstance(view["state"], str), "the view's state must be State.to_json() text"
        ply = view["ply"]
        state = self.at(ply)
        game = state.game
        assert view["game"] == game.name and view["params"] == dict(game.params), view["params"]
        assert view["players"] == game.player_names(), view["players"]
        assert json.loads(view["state"]) == json.loads(state.to_json()), (
            f"view at ply {ply} differs from the replayed record"
        )
        assert len(state.history()) == ply
        assert view["current_player"] != -1, "server-api.md: current_player is never -1"
        if state.is_terminal():
            assert view["status"] == "finished", view["status"]
            assert view["current_player"] == TERMINAL
            assert view["returns"] == state.returns()
        else:
            assert view["status"] == "playing", view["status"]
            assert view["returns"] is None
            if not state.is_chance_node():
                assert view["current_player"] == state.current_player()
        if ply == 0:
            assert view["last_move"] is None
        else:
            assert view["last_move"] == self.actions[ply - 1], (
                f"last_move {view['last_move']!r}, record says {self.actions[ply - 1]!r}"
            )
        return state


def choose(state: State, rng: random.Random) -> dict:
    """A random legal move, sent half the time by notation and half by action number."""
    action = rng.choice(state.legal_actions())
    if rng.random() < 0.5:
        return {"move": state.action_to_string(action)}
    return {"action": action}


def play_to_end(
    api: Api, table: Table, seed: int, *, max_plies: int = 5_000,
    first_view: dict | None = None, moves: int | None = None,
) -> tuple[dict, Replay]:
    """Plays the table's human seats, each through its own client, with random legal moves
    chosen from the view's ``state``; waits for computer seats and chance nodes. Checks every
    view it sees (each POST answer and each polled one) against the record's replay, and that
    the record's action at each ply is the move sent. Stops after ``moves`` human moves if
    given. Returns the last view and the replay.
    """
    rng = random.Random(seed)
    replay = Replay(api, table.id)
    seats = {p: api.seat(table.token(p)) for p in range(len(table.kinds)) if table.human(p)}
    try:
        view = first_view or api.view(table.id)
        replay.check(view)
        made = 0
        while view["status"] != "finished" and (moves is None or made < moves):
            assert view["ply"] < max_plies, f"game {table.id} longer than {max_plies} plies"
            state = state_of(view)
            player = view["current_player"]
            if state.is_chance_node() or not table.human(player):
                view = api.wait_past(table.id, view["ply"])
                replay.check(view)
                continue
            ply = view["ply"]
            choice = choose(state, rng)
            sent = choice.get("move") or state.action_to_string(choice["action"])
            answer = seats[player].move(table.id, ply, **choice)
            assert answer.status_code == 200, (
                f"move {choice} at ply {ply} of {table.id}: {answer.status_code} {answer.text}"
            )
            view = answer.json()
            assert view["ply"] > ply, f"ply did not advance: {ply} -> {view['ply']}"
            replay.check(view)
            assert replay.actions[ply] == sent, (
                f"record has {replay.actions[ply]!r} at ply {ply}, the client sent {sent!r}"
            )
            made += 1
        return view, replay
    finally:
        for client in seats.values():
            client.close()


def check_finished(api: Api, view: dict, replay: Replay) -> None:
    """A finished game's record replays to the view's final state and stores its returns."""
    assert view["status"] == "finished"
    replay.sync()
    record = replay.record
    final = record.final_state()
    assert final.is_terminal()
    assert json.loads(final.to_json()) == json.loads(view["state"])
    assert final.returns() == view["returns"]
    assert record.result is not None and record.result["returns"] == view["returns"]
    assert len(record.actions) == view["ply"]
