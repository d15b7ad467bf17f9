"""``kill -9`` of a real server in the middle of several games, then a restart on the same
database: every game continues exactly where it was (same ply, same state, same record), a
move answered 200 just before the kill is there, and a computer move that was pending when
the server died is made after the restart.

The test kills the session's own server and starts it again on the same database and port,
so the tests after it also run against a server that has come back from a crash.
"""

from __future__ import annotations

from webapi import Api, Replay, check_finished, contract_part, play_to_end, state_of

SLOW_COMPUTER = "mcts:seconds=2"  # thinks long enough to be killed in the middle


def settled(api: Api, view: dict) -> dict:
    """The game's view once the server has resolved any chance node after ``view``."""
    while view["status"] == "playing" and state_of(view).is_chance_node():
        view = api.wait_past(view["id"], view["ply"])
    return view


def leads_to_chance(state, action: int) -> bool:
    after = state.clone()
    after.apply_action(action)
    return after.is_chance_node()


def move(api: Api, table, view: dict, *, roll: bool = False) -> dict:
    """Sends a legal move for the player to move and returns the answer's view. With
    ``roll``, the move leads to a chance node (the game is first played on until one does)."""
    for _ in range(20):
        state = state_of(view)
        actions = state.legal_actions()
        if not roll or any(leads_to_chance(state, a) for a in actions):
            break
        view, _ = play_to_end(api, table, seed=view["ply"], moves=1, first_view=view)
        view = settled(api, view)
        assert view["status"] == "playing"
    if roll:
        actions = [a for a in actions if leads_to_chance(state, a)]
    seat = api.seat(table.token(view["current_player"]))
    answer = seat.move(table.id, view["ply"], action=actions[-1])
    seat.close()
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_kill_9_in_the_middle_of_games_loses_nothing(server) -> None:
    api = Api(server.url)
    try:
        people = {
            "classic": api.new_table("classic", {}, ["human", "human"]),
            "allmer-4": api.new_table("allmer", {"players": 4, "max_turns": 24}, ["human"] * 4),
            "red-2": api.new_table("red", {"players": 2, "turn_cap": 4}, ["human", "human"]),
        }
        last: dict[str, dict] = {}
        for seed, (name, table) in enumerate(people.items()):
            view, _ = play_to_end(api, table, seed=seed, moves=5)
            last[name] = settled(api, view)
            assert last[name]["status"] == "playing"

        # A person's move against a slow computer: answered 200; the server will die while
        # the computer thinks.
        versus = api.new_table("classic", {}, ["human", SLOW_COMPUTER])
        state = state_of(api.view(versus.id))
        first = state.action_to_string(state.legal_actions()[0])
        answer = api.seat(versus.token(0)).move(versus.id, 0, move=first)
        assert answer.status_code == 200, answer.text
        pending = answer.json()
        assert pending["ply"] == 1 and pending["current_player"] == 1, contract_part(pending)

        # A classic move, then a red move whose reply includes the roll it led to; the server
        # is killed the moment that last 200 arrives.
        last["classic"] = move(api, people["classic"], last["classic"])
        last["red-2"] = move(api, people["red-2"], last["red-2"], roll=True)
        server.crash()
        api.close()
        server.start()
        api = Api(server.url)

        kept = {}
        for name, table in people.items():
            now = settled(api, api.view(table.id))
            replay = Replay(api, table.id)
            replay.check(now)
            replay.check(last[name])  # the last answered view is the record's, at its ply
            assert contract_part(now) == contract_part(last[name]), f"{name} after the kill"
            kept[name] = replay.actions
            assert len(kept[name]) == now["ply"]

        now = api.view(versus.id)
        assert now["ply"] in (1, 2), contract_part(now)
        assert api.record(versus.id).actions[0] == first
        now = api.wait_past(versus.id, 1)
        assert now["ply"] == 2 and now["current_player"] == 0, "the computer moved once"
        Replay(api, versus.id).check(now)

        # Every game goes on to its end from there, its past unchanged.
        for seed, (name, table) in enumerate(people.items()):
            view, replay = play_to_end(api, table, seed=100 + seed)
            check_finished(api, view, replay)
            assert replay.actions[: len(kept[name])] == kept[name]
    finally:
        api.close()
