"""Two ``cathedral serve --redis`` processes on one PostgreSQL and one redis-server, as a site
runs them: clients on different processes play one game and every socket, on either process,
sees every ply live; a change answered by one process is in the very next request to the
other (read-your-writes); a computer seat's moves are made once; a process killed with ``kill -9``
mid-game (while it holds a computer move) leaves the game to the other; Redis restarted
mid-game, the sockets catch up from the database and follow live again.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from services import Server
from webapi import PATIENCE_S, Api, Replay, Table, check_finished, state_of
from websockets.asyncio.client import ClientConnection, connect
from websockets.sync.client import connect as connect_sync


async def next_view(socket: ClientConnection, timeout: float = PATIENCE_S) -> dict:
    """The next view on a socket (pings and clock messages skipped); a hang guard only."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        if message["type"] == "view":
            return message["view"]
        assert message["type"] in ("ping", "clock"), message


async def watch_to_end(socket: ClientConnection) -> list[dict]:
    views = [await next_view(socket)]
    while views[-1]["status"] != "finished":
        views.append(await next_view(socket))
    return views


def check_every_ply(api: Api, game_id: str, views: list[dict]) -> None:
    """One view per ply, from the first to the end, each the record's replay at its ply."""
    plies = [v["ply"] for v in views]
    assert plies == list(range(plies[0], plies[0] + len(plies))), f"plies seen: {plies}"
    replay = Replay(api, game_id)
    for view in views:
        replay.check(view)


def play_across(servers: list[Server], table: Table, seed: int, *,
                stop_at: int | None = None) -> dict:
    """Plays the human seats with random legal moves, the i-th human through process i % 2
    (each with its own client), asking that process for the view it moves from; a 409 (that
    process had not heard of the last move yet) is answered by asking again. Waits for
    computer seats and chance nodes. Returns the last view."""
    rng = random.Random(seed)
    clients = [Api(server.url) for server in servers]
    humans = [p for p in range(len(table.kinds)) if table.human(p)]
    seats = {p: clients[i % 2].seat(table.token(p)) for i, p in enumerate(humans)}
    try:
        deadline = time.monotonic() + PATIENCE_S
        while True:
            view = clients[0].view(table.id)
            if view["status"] == "finished" or (stop_at is not None and view["ply"] >= stop_at):
                return view
            player = view["current_player"]
            state = state_of(view)
            if state.is_chance_node() or not table.human(player):
                assert time.monotonic() < deadline, f"stuck at ply {view['ply']}"
                time.sleep(0.02)
                continue
            mover = seats[player]
            view = mover.view(table.id)
            if view["current_player"] != player or view["status"] == "finished":
                # The mover's process has not caught up yet (its sweep reloads it at worst).
                assert time.monotonic() < deadline, f"processes disagree at ply {view['ply']}"
                time.sleep(0.02)
                continue
            state = state_of(view)
            action = rng.choice(state.legal_actions())
            answer = mover.move(table.id, view["ply"], action=action)
            assert answer.status_code in (200, 409), answer.text
            deadline = time.monotonic() + PATIENCE_S
    finally:
        for client in [*seats.values(), *clients]:
            client.close()


def moves_logged(server: Server, game_id: str) -> list[int]:
    """The plies this process wrote to the game (its ``move`` log lines), across its runs."""
    plies = []
    for log in server.workdir.glob("server-*.log"):
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                fields = json.loads(line)
                if fields.get("event") == "move" and fields.get("game") == game_id:
                    plies.append(fields["ply"])
    return plies


def all_moves_logged(servers: list[Server], game_id: str, plies: int) -> list[int]:
    """The plies the processes logged for the game, once ``plies`` lines are there (the log
    is written by a thread of its own: its last lines may come a moment after the view)."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        found = sorted(p for server in servers for p in moves_logged(server, game_id))
        if len(found) >= plies or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


KINDS = [
    pytest.param("classic", {}, ["human", "human"], id="classic"),
    pytest.param("allmer", {"players": 4, "max_turns": 12}, ["human", "random", "human", "easy"],
                 id="allmer-4"),
    pytest.param("red", {"players": 2, "turn_cap": 2}, ["human", "human"], id="red-2"),
]


@pytest.mark.parametrize(("game", "params", "seats"), KINDS)
def test_a_game_of_each_kind_is_live_on_both_processes(site, request, game, params, seats):
    a, b = request.node.site_servers = site()
    api = Api(a.url)
    table = api.new_table(game, params, seats)

    async def run() -> tuple[list[dict], list[dict]]:
        async with connect(f"{a.ws_url}/ws/games/{table.id}") as on_a, \
                connect(f"{b.ws_url}/ws/games/{table.id}") as on_b:
            watching = asyncio.gather(watch_to_end(on_a), watch_to_end(on_b))
            last = await asyncio.to_thread(play_across, [a, b], table, 7)
            seen_a, seen_b = await watching
            assert last["status"] == "finished"
            return seen_a, seen_b

    seen_a, seen_b = asyncio.run(run())
    for views in (seen_a, seen_b):
        check_every_ply(api, table.id, views)
        assert (views[-1]["ply"], views[-1]["state"]) == (seen_a[-1]["ply"], seen_a[-1]["state"])
    final = Api(b.url).view(table.id)
    replay = Replay(api, table.id)
    check_finished(api, final, replay)
    # Both processes took moves: the log of each shows some, and no ply twice.
    assert all_moves_logged([a, b], table.id, final["ply"]) == list(range(final["ply"]))
    assert moves_logged(a, table.id) and moves_logged(b, table.id)
    api.close()


def test_computer_moves_are_made_once_while_both_processes_run(site, request):
    a, b = request.node.site_servers = site()
    api = Api(a.url)
    table = api.new_table("allmer", {"players": 4, "max_turns": 16},
                          ["random", "easy", "random", "easy"])

    async def run() -> list[dict]:
        # A socket on each process: both keep the game cached and both try its jobs.
        async with connect(f"{a.ws_url}/ws/games/{table.id}") as on_a, \
                connect(f"{b.ws_url}/ws/games/{table.id}") as on_b:
            seen = await asyncio.gather(watch_to_end(on_a), watch_to_end(on_b))
            return seen[1]

    views = asyncio.run(run())
    final = views[-1]
    assert final["status"] == "finished"
    record = api.record(table.id)
    assert len(record.actions) == final["ply"]  # each ply once in the log
    plies = all_moves_logged([a, b], table.id, final["ply"])
    assert plies == list(range(final["ply"])), "a ply written twice, or by nobody"
    api.close()


def claimed(server: Server, game_id: str) -> list[int]:
    plies = []
    for line in server.log.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            fields = json.loads(line)
            if fields.get("event") == "claimed" and fields.get("game") == game_id:
                plies.append(fields["ply"])
    return plies


def test_a_process_killed_mid_move_leaves_the_game_to_the_other(site, request):
    a, b = request.node.site_servers = site()
    api_a, api_b = Api(a.url), Api(b.url)
    # The computer thinks for 2 s: long enough to kill its process in the middle.
    table = api_a.new_table("classic", {}, ["human", "mcts:seconds=2"])
    human = api_a.seat(table.token(0))

    async def run() -> list[dict]:
        async with connect(f"{b.ws_url}/ws/games/{table.id}") as on_b:
            first = await next_view(on_b)
            state = state_of(first)
            action = random.Random(3).choice(state.legal_actions())
            answer = await asyncio.to_thread(human.move, table.id, 0, action=action)
            assert answer.status_code == 200, answer.text
            # The process that took the move claims the computer's reply; kill it then.
            deadline = time.monotonic() + PATIENCE_S
            while not claimed(a, table.id):
                assert time.monotonic() < deadline, a.output()
                await asyncio.sleep(0.05)
            a.crash()
            views = [first]
            while views[-1]["ply"] < 2:
                views.append(await next_view(on_b))
            return views

    views = asyncio.run(run())
    assert [v["ply"] for v in views] == [0, 1, 2]
    assert claimed(b, table.id) == [1]  # the job fell to the other process
    # The game goes on and ends through the surviving process.
    b_only = Api(b.url)
    view = api_b.view(table.id)
    seat = b_only.seat(table.token(0))
    rng = random.Random(5)
    while view["status"] != "finished":
        if view["current_player"] != 0:
            view = api_b.wait_past(table.id, view["ply"])
            continue
        action = rng.choice(state_of(view).legal_actions())
        answer = seat.move(table.id, view["ply"], action=action)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        if view["ply"] >= 4:  # a few more plies prove it; resign to end it quickly
            answer = seat.http.post(f"/api/games/{table.id}/resign",
                                    headers={"Authorization": f"Bearer {table.token(0)}"})
            assert answer.status_code == 200, answer.text
            view = answer.json()
    assert view["status"] == "finished"
    record = api_b.record(table.id)
    assert len(record.actions) == view["ply"]
    # The killed process wrote only the human's first move; the computer's went to the other.
    assert all_moves_logged([a, b], table.id, view["ply"]) == list(range(view["ply"]))
    assert moves_logged(a, table.id) == [0] and 1 in moves_logged(b, table.id)
    for client in (api_a, api_b, b_only, seat, human):
        client.close()


def test_live_updates_resume_after_redis_restarts(site, request, redis_server):
    a, b = request.node.site_servers = site()
    api = Api(a.url)
    table = api.new_table("classic", {}, ["human", "human"])

    async def run() -> list[dict]:
        async with connect(f"{b.ws_url}/ws/games/{table.id}") as on_b:
            views = [await next_view(on_b)]
            await asyncio.to_thread(play_across, [a, a], table, 11, stop_at=2)
            while views[-1]["ply"] < 2:
                views.append(await next_view(on_b))
            redis_server.kill()
            # Moves while Redis is away: stored, but nobody hears of them on the other side.
            await asyncio.to_thread(play_across, [a, a], table, 12, stop_at=4)
            redis_server.start()
            # On reconnecting, process b reloads its games and sends their views again.
            while views[-1]["ply"] < 4:
                views.append(await next_view(on_b))
            # And live again: the rest of the game is seen ply by ply.
            rest = asyncio.ensure_future(watch_to_end(on_b))
            await asyncio.to_thread(play_across, [a, a], table, 13)
            views += await rest
            return views

    views = asyncio.run(run())
    assert views[-1]["status"] == "finished"
    plies = [v["ply"] for v in views]
    assert plies == sorted(plies) and plies[-1] == views[-1]["ply"]
    after = [p for p in plies if p >= 4]
    assert after == list(range(4, plies[-1] + 1)), f"plies seen after the restart: {plies}"
    check_every_ply(api, table.id, [v for v in views if v["ply"] >= 4])
    api.close()


def test_a_stalled_game_no_process_holds_is_swept_up(site, request):
    a, b = request.node.site_servers = site()
    api_a = Api(a.url)
    table = api_a.new_table("classic", {}, ["human", "mcts:seconds=2"])
    human = api_a.seat(table.token(0))
    action = random.Random(3).choice(state_of(api_a.view(table.id)).legal_actions())
    answer = human.move(table.id, 0, action=action)
    assert answer.status_code == 200, answer.text
    deadline = time.monotonic() + PATIENCE_S
    while not claimed(a, table.id):
        assert time.monotonic() < deadline, a.output()
        time.sleep(0.05)
    a.crash()
    # Nobody asks b for the game: its sweep finds the stalled computer move and makes it.
    deadline = time.monotonic() + PATIENCE_S
    while 1 not in moves_logged(b, table.id):
        assert time.monotonic() < deadline, b.output()
        time.sleep(0.2)
    api_b = Api(b.url)
    assert api_b.view(table.id)["ply"] == 2
    assert claimed(b, table.id) == [1]
    for client in (api_a, api_b, human):
        client.close()


def test_a_change_answered_by_one_process_is_in_the_next_request_to_the_other(site, request):
    """Read-your-writes: with no wait at all, the other process's view, record and a socket
    opened on it show every move (and the resignation) the first one answered."""
    a, b = request.node.site_servers = site()
    api_a, api_b = Api(a.url), Api(b.url)
    table = api_a.new_table("classic", {}, ["human", "human"])
    movers = {0: api_a.seat(table.token(0)), 1: api_b.seat(table.token(1))}
    readers = {0: api_b, 1: api_a}  # each move is read back from the other process
    rng = random.Random(9)
    view = api_a.view(table.id)
    checked = 0
    while view["status"] != "finished" and view["ply"] < 16:
        player = view["current_player"]
        action = rng.choice(state_of(view).legal_actions())
        answer = movers[player].move(table.id, view["ply"], action=action)
        assert answer.status_code == 200, answer.text
        answered = answer.json()
        other = readers[player]
        seen = other.view(table.id)
        assert (seen["ply"], seen["state"]) == (answered["ply"], answered["state"]), (
            f"process {other.base_url} showed ply {seen['ply']} right after "
            f"{answered['ply']} was answered")
        assert len(other.record(table.id).actions) == answered["ply"]
        with connect_sync(other.base_url.replace("http", "ws") + f"/ws/games/{table.id}") \
                as socket:
            assert json.loads(socket.recv(timeout=30))["view"]["ply"] == answered["ply"]
        checked += 1
        view = answered
    resigned = movers[0].http.post(f"/api/games/{table.id}/resign",
                                   headers={"Authorization": f"Bearer {table.token(0)}"})
    assert resigned.status_code == 200
    assert api_b.view(table.id)["status"] == "finished"
    assert checked >= 10
    for client in (*movers.values(), api_a, api_b):
        client.close()
