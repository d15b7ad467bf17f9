"""Concurrent moves against a real server: of any number of requests racing for the same ply,
exactly one is applied, whatever the database.

Each request goes out on its own connection from its own thread, all released together by a
barrier, so they reach the server at once and its storage (the unique (game, ply) key) has to
serialise them.
"""

from __future__ import annotations

import threading
from collections import Counter

import httpx
from webapi import Api, http_client, play_to_end, state_of

RACERS = 50


def race(base_url: str, game_id: str, requests: list[tuple[dict, str]]) -> list[httpx.Response]:
    """Posts every (body, token) at once, each from its own thread and connection."""
    barrier = threading.Barrier(len(requests))
    answers: list[httpx.Response | BaseException | None] = [None] * len(requests)
    clients = [http_client(base_url, token) for _, token in requests]
    for client in clients:  # open every connection before the start
        client.get("/healthz")

    def send(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = clients[index].post(f"/api/games/{game_id}/moves",
                                                 json=requests[index][0])
        except BaseException as exc:  # reported below, with the others
            answers[index] = exc

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for client in clients:
        client.close()
    failures = [a for a in answers if not isinstance(a, httpx.Response)]
    assert not failures, f"{len(failures)} requests failed: {failures[:3]}"
    return answers  # type: ignore[return-value]


def test_fifty_identical_concurrent_moves_are_applied_exactly_once(api: Api, server) -> None:
    table = api.new_table("classic", {}, ["human", "human"])
    view, _ = play_to_end(api, table, seed=21, moves=2)
    ply, player = view["ply"], view["current_player"]
    state = state_of(view)
    move = state.action_to_string(state.legal_actions()[0])
    before = api.record(table.id).actions

    token = table.token(player)
    answers = race(server.url, table.id, [({"ply": ply, "move": move}, token)] * RACERS)

    statuses = Counter(a.status_code for a in answers)
    assert statuses == {200: 1, 409: RACERS - 1}, statuses
    for answer in answers:
        if answer.status_code == 409:
            assert set(answer.json()) == {"error"}
    winner = next(a for a in answers if a.status_code == 200).json()
    assert winner["ply"] == ply + 1
    after = api.view(table.id)
    assert after["ply"] == ply + 1
    assert after["current_player"] == 1 - player
    record = api.record(table.id).actions
    assert record == [*before, move], "the move is in the record exactly once"


def test_concurrent_different_moves_for_one_ply_apply_only_one(api: Api, server) -> None:
    table = api.new_table("classic", {}, ["human", "human"])
    view, _ = play_to_end(api, table, seed=22, moves=1)
    ply, player = view["ply"], view["current_player"]
    state = state_of(view)
    actions = state.legal_actions()[:20]
    token = table.token(player)
    answers = race(server.url, table.id, [({"ply": ply, "action": a}, token) for a in actions])

    statuses = Counter(a.status_code for a in answers)
    assert statuses == {200: 1, 409: len(actions) - 1}, statuses
    applied = actions[next(i for i, a in enumerate(answers) if a.status_code == 200)]
    record = api.record(table.id).actions
    assert len(record) == ply + 1
    assert record[-1] == state.action_to_string(applied)
    assert api.view(table.id)["ply"] == ply + 1


def test_the_next_player_racing_the_mover_never_breaks_the_game(api: Api, server) -> None:
    """The mover's requests for this ply race the next player's requests for the next ply:
    the mover's move lands once, the next player's at most once and only after it, and the
    record stays a legal game whatever interleaving the server saw."""
    table = api.new_table("classic", {}, ["human", "human"])
    view, _ = play_to_end(api, table, seed=23, moves=2)
    ply, player = view["ply"], view["current_player"]
    state = state_of(view)
    action = state.legal_actions()[0]
    after = state.clone()
    after.apply_action(action)
    assert after.current_player() == 1 - player
    mover = ({"ply": ply, "action": action}, table.token(player))
    reply = ({"ply": ply + 1, "action": after.legal_actions()[0]}, table.token(1 - player))
    answers = race(server.url, table.id, [mover, reply] * 10)

    mine = Counter(a.status_code for a in answers[0::2])
    theirs = Counter(a.status_code for a in answers[1::2])
    assert mine == {200: 1, 409: 9}, mine
    assert theirs[200] <= 1 and set(theirs) <= {200, 409}, theirs
    record = api.record(table.id)
    assert len(record.actions) == ply + 1 + theirs[200]
    assert record.actions[ply] == state.action_to_string(action)
    record.final_state()  # replays: every action legal in turn
    assert api.view(table.id)["ply"] == len(record.actions)
