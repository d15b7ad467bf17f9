"""The allmer picture: landings per stone, the stones each would convert, chains and stop."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.games.allmer.geometry import parse_point, point_name
from cathedral.games.allmer.state import AllmerState


def _position(**kwargs) -> AllmerState:
    game = cathedral.load("allmer")
    return AllmerState.from_position(
        game, {"W": "h3 g1 i1 j1", "B": "h5 h6 h7 a8 b8 c8 d8"}, **kwargs
    )


def _step(picture: dict, notation: str) -> dict:
    for stone in picture["moves"]:
        for step in stone["steps"]:
            if step["notation"] == notation:
                return {**step, "from": stone["from"]}
    raise AssertionError(f"{notation} not offered")


def _names(points) -> set[str]:
    return {point_name(p) for p in points}


def test_an_approach_converts_the_whole_run_beyond_its_landing():
    picture = _position().picture()
    step = _step(picture, "h3-h4A")
    assert step["kind"] == "approach" and step["to"] == parse_point("h4")
    assert step["from"] == parse_point("h3")
    assert _names(step["converts"]) == {"h5", "h6", "h7"}
    walk = _step(picture, "h3-g3")
    assert walk["kind"] == "walk" and walk["converts"] == []


def test_after_a_conversion_with_nothing_more_to_convert_the_turn_passes():
    state = _position()
    state.apply_action(state.string_to_action("h3-h4A"))
    picture = state.picture()
    assert picture["to_move"] == 1 and picture["chain"] is None
    assert picture["last_move"]["to"] == parse_point("h4")
    assert picture["counts"] == [7, 4]
    assert picture["stones"][parse_point("h6")] == 1  # White's colour now


def test_a_chain_offers_only_the_chaining_stone_and_a_visible_stop():
    game = cathedral.load("allmer")
    state = AllmerState.from_position(
        game,
        {"W": "h6 h7 h8 g1 i1 j1", "B": "e6 a8 b8 c8 d8"},
        chain="h6",
        touched="h5",
    )
    picture = state.picture()
    assert picture["chain"]["name"] == "h6"
    assert parse_point("h5") in picture["chain"]["touched"]
    stop = picture["chain"]["stop"]
    assert stop == {"action": state.string_to_action("stop"), "notation": "stop"}
    step = _step(picture, "h6-f6A")
    assert _names(step["converts"]) == {"e6"}
    assert {st["from"] for st in picture["moves"]} == {parse_point("h6")}
    assert all(s["converts"] for st in picture["moves"] for s in st["steps"])


def test_geometry_and_counts_for_four_players_and_json():
    game = cathedral.load("allmer", players=4)
    state = game.new_initial_state()
    picture = state.picture()
    assert len(picture["points"]) == 125 and len(picture["passages"]) == 4
    assert picture["counts"] == [15, 15, 15, 15] and picture["players"][1] == "Blue"
    assert sum(1 for s in picture["stones"] if s) == 60
    strong = [p for p in picture["points"] if p["strong"]]
    assert 0 < len(strong) < 125
    assert [(p["x"], p["y"]) for p in picture["points"]][:1] == [(5, 0)]
    offered = sorted(s["action"] for st in picture["moves"] for s in st["steps"])
    assert offered == state.legal_actions()
    assert json.loads(json.dumps(picture)) == picture


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60), players=st.sampled_from([2, 4]))
def test_every_landing_converts_what_playing_it_converts(seed, plies, players):
    import random

    state = cathedral.load("allmer", players=players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    picture = state.picture()
    offered = sorted(s["action"] for st_ in picture["moves"] for s in st_["steps"])
    if picture["chain"]:
        offered.append(picture["chain"]["stop"]["action"])
    assert sorted(offered) == state.legal_actions()
    mover = state.current_player()
    for stone in picture["moves"]:
        for step in stone["steps"]:
            after = state.clone()
            after.apply_action(step["action"])
            assert after.board[step["to"]] == mover + 1
            for p in step["converts"]:
                assert state.board[p] not in (0, mover + 1) and after.board[p] == mover + 1
