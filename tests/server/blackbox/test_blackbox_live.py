"""Live updates over ``WS /ws/games/{id}`` from a real server: spectators see every ply's view
(a move, a computer move, a chance outcome the server resolved) in order, one per ply, each
equal to the record's replay at that ply; a move sent over the socket is applied and
broadcast, and a refused one comes back as ``{"type": "error", "status": ...}`` to that socket
alone, the game unchanged.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from webapi import (
    PATIENCE_S,
    Api,
    Replay,
    Table,
    check_finished,
    contract_part,
    play_to_end,
    state_of,
)
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


async def receive(socket: ClientConnection) -> dict:
    """The next message (a hang guard of PATIENCE_S, not a speed check)."""
    text = await asyncio.wait_for(socket.recv(), PATIENCE_S)
    message = json.loads(text)
    assert isinstance(message, dict) and "type" in message, message
    return message


async def next_view(socket: ClientConnection) -> dict:
    """The next view; other message types the plan allows (ping, clock) are skipped."""
    while True:
        message = await receive(socket)
        if message["type"] == "view":
            return message["view"]
        assert message["type"] in ("ping", "clock"), message


async def watch_to_end(socket: ClientConnection) -> list[dict]:
    views = [await next_view(socket)]
    while views[-1]["status"] != "finished":
        views.append(await next_view(socket))
    return views


def ws_url(server, game_id: str) -> str:
    return f"{server.ws_url}/ws/games/{game_id}"


def check_live_views(api: Api, game_id: str, views: list[dict]) -> Replay:
    """One view per ply, consecutive from the first, each equal to the record's replay."""
    plies = [v["ply"] for v in views]
    assert plies == list(range(plies[0], plies[0] + len(plies))), f"plies seen: {plies}"
    replay = Replay(api, game_id)
    for view in views:
        replay.check(view)
    return replay


def play(base_url: str, table: Table) -> dict:
    """Plays the table to its end by HTTP (run in a thread); returns the last view."""
    api = Api(base_url)
    try:
        return play_to_end(api, table, seed=31)[0]
    finally:
        api.close()


GAMES = [
    pytest.param("red", {"players": 2, "turn_cap": 3}, ["human", "human"], id="red-2-dice"),
    pytest.param("classic", {}, ["human", "easy"], id="classic-vs-easy"),
    pytest.param("allmer", {"players": 4, "max_turns": 12}, ["human", "random", "human", "easy"],
                 id="allmer-4-mixed"),
]


@pytest.mark.parametrize(("game", "params", "seats"), GAMES)
def test_spectators_see_every_ply_live_and_in_order(
    server, api: Api, game: str, params: dict, seats: list[str]
) -> None:
    table = api.new_table(game, params, seats)

    async def scenario() -> tuple[list[dict], list[dict], dict]:
        async with connect(ws_url(server, table.id)) as one, \
                connect(ws_url(server, table.id)) as two:
            first = await next_view(one)
            watching = [asyncio.create_task(watch_to_end(s)) for s in (one, two)]
            # The people play by HTTP, in a thread, once both spectators are in.
            played = asyncio.to_thread(play, server.url, table)
            final, seen_one, seen_two = await asyncio.gather(played, *watching)
            return [first, *seen_one], seen_two, final

    seen_one, seen_two, final = asyncio.run(scenario())
    assert final["status"] == "finished"
    assert seen_one[-1]["ply"] == final["ply"]
    replay = check_live_views(api, table.id, seen_one)
    check_finished(api, seen_one[-1], replay)
    # The second spectator joined a moment later but then saw the same plies the same way.
    assert seen_one[0]["ply"] <= seen_two[0]["ply"]
    later = {v["ply"]: contract_part(v) for v in seen_one}
    for view in seen_two:
        assert contract_part(view) == later[view["ply"]]
    assert seen_two[-1]["ply"] == final["ply"]
    # Chance outcomes and computer moves are plies of their own on the socket.
    kinds = set()
    for view in seen_one[1:]:
        before = replay.states[view["ply"] - 1]
        if before.is_chance_node():
            kinds.add("chance")
        elif table.human(before.current_player()):
            kinds.add("person")
        else:
            kinds.add("computer")
    expected = {"person"}
    expected |= {"chance"} if game == "red" else set()
    expected |= {"computer"} if any(s != "human" for s in seats) else set()
    assert kinds == expected, kinds


def test_a_move_over_the_socket_is_applied_and_a_refusal_goes_to_that_socket_alone(
    server, api: Api
) -> None:
    table = api.new_table("classic", {}, ["human", "human"])
    light, dark = table.token(0), table.token(1)

    async def scenario() -> None:
        async with connect(ws_url(server, table.id)) as player, \
                connect(ws_url(server, table.id)) as spectator:
            view = await next_view(player)
            assert (await next_view(spectator))["ply"] == view["ply"] == 0
            state = state_of(view)
            move = state.action_to_string(state.legal_actions()[0])
            await player.send(json.dumps(
                {"type": "move", "token": light, "ply": 0, "move": move}))
            mine, theirs = await next_view(player), await next_view(spectator)
            assert mine["ply"] == theirs["ply"] == 1
            assert contract_part(mine) == contract_part(theirs)
            assert api.record(table.id).actions == [move]
            Replay(api, table.id).check(mine)

            after = state_of(mine)
            legal = after.action_to_string(after.legal_actions()[0])
            illegal = next(a for a in range(after.game.num_distinct_actions())
                           if a not in set(after.legal_actions()))
            refusals = [
                (400, "not JSON", "{nope"),
                (400, "ply as a string", {"type": "move", "token": dark, "ply": "1",
                                          "move": legal}),
                (400, "no move", {"type": "move", "token": dark, "ply": 1}),
                (401, "no token", {"type": "move", "ply": 1, "move": legal}),
                (401, "forged token", {"type": "move", "token": dark[::-1], "ply": 1,
                                       "move": legal}),
                (409, "the applied move again", {"type": "move", "token": light, "ply": 0,
                                                 "move": move}),
                (409, "a ply ahead", {"type": "move", "token": dark, "ply": 2, "move": legal}),
                (403, "Light again", {"type": "move", "token": light, "ply": 1,
                                      "move": legal}),
                (422, "an illegal action", {"type": "move", "token": dark, "ply": 1,
                                            "action": illegal}),
                (422, "nonsense", {"type": "move", "token": dark, "ply": 1,
                                   "move": "nonsense"}),
            ]
            for status, what, message in refusals:
                before = api.snapshot(table.id)
                text = message if isinstance(message, str) else json.dumps(message)
                await player.send(text)
                answer = await receive(player)
                assert answer.get("type") == "error", f"{what}: {answer}"
                assert answer.get("status") == status, f"{what}: {answer}"
                assert isinstance(answer.get("error"), str) and answer["error"], answer
                assert api.snapshot(table.id) == before, f"{what}: the game changed"

            # The socket still works after the refusals.
            await player.send(json.dumps(
                {"type": "move", "token": dark, "ply": 1, "action": after.legal_actions()[0]}))
            assert (await next_view(player))["ply"] == 2
            # The spectator heard none of the refusals: its very next message is ply 2.
            message = await receive(spectator)
            assert message["type"] == "view" and message["view"]["ply"] == 2, message

            # A move by HTTP reaches both sockets too.
            third = state_of(api.view(table.id))
            answer = api.seat(light).move(table.id, 2, action=third.legal_actions()[0])
            assert answer.status_code == 200, answer.text
            assert (await next_view(player))["ply"] == 3
            assert (await next_view(spectator))["ply"] == 3

    asyncio.run(scenario())


def test_an_oversized_socket_message_is_refused_and_changes_nothing(server, api: Api) -> None:
    """Over 64 kB: an error 400 to that socket, or the socket closed as too big (1009);
    either way the game is unchanged and the other sockets go on."""
    table = api.new_table("classic", {}, ["human", "human"])

    async def scenario() -> None:
        async with connect(ws_url(server, table.id), max_size=None) as player, \
                connect(ws_url(server, table.id)) as spectator:
            view = await next_view(player)
            assert (await next_view(spectator))["ply"] == 0
            state = state_of(view)
            move = state.action_to_string(state.legal_actions()[0])
            before = api.snapshot(table.id)
            await player.send(json.dumps({"type": "move", "token": table.token(0), "ply": 0,
                                          "move": move + " " * 70_000}))
            try:
                answer = await receive(player)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1009, closed
            else:
                assert answer.get("type") == "error" and answer.get("status") == 400, answer
            assert api.snapshot(table.id) == before
            answer = api.seat(table.token(0)).move(table.id, 0, move=move)
            assert answer.status_code == 200, answer.text
            assert (await next_view(spectator))["ply"] == 1

    asyncio.run(scenario())


def test_a_spectator_joining_a_finished_game_gets_its_final_view(server, api: Api) -> None:
    table = api.new_table("classic", {}, ["human", "human"])
    final, replay = play_to_end(api, table, seed=4)
    assert final["status"] == "finished"

    async def scenario() -> dict:
        async with connect(ws_url(server, table.id)) as socket:
            return await next_view(socket)

    view = asyncio.run(scenario())
    assert contract_part(view) == contract_part(api.view(table.id))
    check_finished(api, view, replay)
