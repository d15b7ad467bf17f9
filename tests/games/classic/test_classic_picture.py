"""The classic picture: what each legal placement claims and captures, trays, JSON."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.games.classic import square_name

OPENING = ("Cathedral e4 d5 e5 f5 e6 e7", "Tavern a1", "Tavern j10", "Tavern j1")


def _play(*moves: str, opening: str = "standard"):
    state = cathedral.load("classic", opening=opening).new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def _move(picture: dict, notation: str) -> dict:
    return next(m for m in picture["moves"] if m["notation"] == notation)


def _names(squares) -> set[str]:
    return {square_name(s) for s in squares}


def test_a_placement_that_closes_a_corner_claims_it():
    picture = _play(*OPENING).picture()
    move = _move(picture, "Inn a9 b9 b10")
    assert _names(move["squares"]) == {"a9", "b9", "b10"}
    assert _names(move["claims"]) == {"a10"}
    assert "captures" not in move


def test_a_placement_around_a_lone_building_captures_it_and_claims_its_squares():
    picture = _play(*OPENING).picture()
    move = _move(picture, "Inn a2 b1 b2")
    assert _names(move["captures"]) == {"a1"}
    assert _names(move["claims"]) == {"a1"}
    plain = _move(picture, "Inn c2 d1 d2")
    assert "claims" not in plain and "captures" not in plain


def test_the_picture_lists_exactly_the_legal_moves_with_their_notation():
    state = _play(*OPENING)
    picture = state.picture()
    assert [m["action"] for m in picture["moves"]] == state.legal_actions()
    for m in picture["moves"][:50]:
        assert state.string_to_action(m["notation"]) == m["action"]


def test_trays_buildings_territory_and_last_move():
    state = _play(*OPENING, "Inn a2 b1 b2")
    picture = state.picture()
    assert picture["to_move"] == 1
    assert _names(picture["territory"][0]) == {"a1"}
    assert picture["last_move"]["notation"] == "Inn a2 b1 b2"
    assert picture["last_move"]["player"] == 0
    dark_tavern = next(t for t in picture["trays"][1] if t["building"] == "Tavern")
    assert dark_tavern["in_hand"] == 1  # one placed on j1, the captured one came back
    assert picture["unplaced"] == [state.scores()[0], state.scores()[1]]
    assert picture["cathedral"]["state"] == "board"
    assert _names(picture["cathedral"]["squares"]) == {"e4", "d5", "e5", "f5", "e6", "e7"}
    owners = {(b["player"], b["building"]) for b in picture["buildings"]}
    assert owners == {(0, "Tavern"), (0, "Inn"), (1, "Tavern")}


def test_shapes_are_rotations_and_the_abbey_is_chiral():
    picture = _play().picture()
    assert picture["trays"][0][0]["building"] == "Cathedral"  # Light places it first
    light = {t["building"]: t for t in picture["trays"][0]}
    dark = {t["building"]: t for t in picture["trays"][1]}
    assert len(light["Tavern"]["shapes"]) == 1 and len(light["Inn"]["shapes"]) == 4
    assert len(light["Bridge"]["shapes"]) == 2
    assert light["Abbey"]["shapes"] != dark["Abbey"]["shapes"]
    for shape in light["Castle"]["shapes"]:
        assert len(shape) == light["Castle"]["size"] == 5


def test_lehmann_opening_starts_with_dark_and_the_picture_round_trips_json():
    state = _play(opening="lehmann")
    picture = state.picture()
    assert picture["to_move"] == 1 and picture["opening"] == "lehmann"
    assert json.loads(json.dumps(picture)) == picture
    assert len(json.dumps(picture, separators=(",", ":"))) < 200_000


def test_a_finished_game_has_no_moves_and_a_result():
    import random

    state = _play()
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    picture = state.picture()
    assert picture["moves"] == [] and picture["to_move"] == -4
    assert picture["result"] == state.result_string() != ""


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
def test_every_picture_move_is_a_legal_action_with_its_notation(seed, plies):
    import random

    state = _play()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    picture = state.picture()
    assert [m["action"] for m in picture["moves"]] == state.legal_actions()
    occupied = {s for b in picture["buildings"] for s in b["squares"]}
    occupied |= set(picture["cathedral"]["squares"])
    for move in picture["moves"][:: max(1, len(picture["moves"]) // 20)]:
        assert state.action_to_string(move["action"]) == move["notation"]
        assert not occupied & set(move["squares"])
        # what it claims is the mover's territory once it is played
        after = state.clone()
        after.apply_action(move["action"])
        claimed = set(after.picture()["territory"][state.current_player()])
        assert set(move.get("claims", [])) <= claimed
    assert json.loads(json.dumps(picture)) == picture
