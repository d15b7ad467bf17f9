"""Whole games over HTTP against a real server: every game played to its end by several
clients (one per human seat, each with its own token and connections), and a person against
a computer level. Every view a client sees is checked against a local replay of the game's
record, and the record's action at each ply is the one the client sent.

The games are the real rules with their own end conditions set short where the rules offer
one (allmer's ``max_turns``, red's ``turn_cap``), so the suite stays fast.
"""

from __future__ import annotations

import pytest
from webapi import Api, check_finished, play_to_end

WHOLE_GAMES = [
    pytest.param("classic", {"opening": "standard"}, 2, id="classic"),
    pytest.param("classic", {"opening": "lehmann"}, 2, id="classic-lehmann"),
    pytest.param("allmer", {"players": 2, "max_turns": 20}, 2, id="allmer-2"),
    pytest.param("allmer", {"players": 4, "max_turns": 24}, 4, id="allmer-4"),
    pytest.param("red", {"players": 2, "turn_cap": 2}, 2, id="red-2"),
    pytest.param("red", {"players": 4, "turn_cap": 1}, 4, id="red-4"),
]


@pytest.mark.parametrize(("game", "params", "players"), WHOLE_GAMES)
def test_a_whole_game_between_people_is_played_to_the_end(
    api: Api, game: str, params: dict, players: int
) -> None:
    table = api.new_table(game, params, ["human"] * players)
    tokens = [table.token(p) for p in range(players)]
    assert len(set(tokens)) == players, "every seat has its own secret"
    view, replay = play_to_end(api, table, seed=players * 7 + len(game))
    check_finished(api, view, replay)
    assert view["seats"] == ["human"] * players
    # Anyone reading the finished game sees the same thing the last mover was answered.
    assert api.view(table.id)["state"] == view["state"]


@pytest.mark.parametrize(
    ("game", "params", "seats"),
    [
        pytest.param("classic", {}, ["human", "easy"], id="classic-human-easy"),
        pytest.param("classic", {}, ["greedy", "human"], id="classic-greedy-human"),
        pytest.param("red", {"players": 2, "turn_cap": 1}, ["random", "human"], id="red-random"),
        pytest.param(
            "allmer", {"players": 4, "max_turns": 16}, ["easy", "human", "random", "human"],
            id="allmer-4-mixed",
        ),
    ],
)
def test_a_person_plays_a_computer_level_to_the_end(
    api: Api, game: str, params: dict, seats: list[str]
) -> None:
    table = api.new_table(game, params, seats)
    view, replay = play_to_end(api, table, seed=11)
    check_finished(api, view, replay)
    assert view["seats"] == seats
    # The computer seats really moved: some of the record's decisions were made on their turns.
    computer_turns = 0
    for ply in range(view["ply"]):
        state = replay.states[ply]
        if not state.is_chance_node() and seats[state.current_player()] != "human":
            computer_turns += 1
    assert computer_turns > 0


def test_a_seat_token_is_long_and_secret(api: Api) -> None:
    table = api.new_table("classic", {}, ["human", "human"])
    view = api.view(table.id)
    text = str(view) + api.http.get(f"/api/games/{table.id}/record").text
    for player in (0, 1):
        token = table.token(player)
        assert len(token) >= 22  # 128 bits in base64url; longer in hex
        assert token not in text, "a seat token shows in what anyone can read"
    assert table.token(0) != table.token(1)
