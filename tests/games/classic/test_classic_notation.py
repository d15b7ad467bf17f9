"""The placement notation both ways, and the errors that name the broken rule."""

from __future__ import annotations

import pytest

import cathedral
from cathedral import IllegalActionError, NotationError
from cathedral.games.classic import parse_square, square_name

CATHEDRAL = "Cathedral f6 e7 f7 g7 f8 f9"


def test_square_names_round_trip():
    assert parse_square("a1") == 0
    assert parse_square("j10") == 99
    assert parse_square("C4") == 32
    assert all(parse_square(square_name(s)) == s for s in range(100))
    for bad in ("k1", "a0", "a11", "", "1a", "aa"):
        with pytest.raises(ValueError):
            parse_square(bad)


def test_canonical_form_sorts_squares_by_file_then_rank(play):
    state = play(CATHEDRAL)
    action = state.string_to_action("Castle c3 d3 e3 c4 e4")
    assert state.action_to_string(action) == "Castle c3 c4 d3 e3 e4"


@pytest.mark.parametrize(
    "spelling",
    [
        "Castle c3 c4 d3 e3 e4",
        "castle E4 c3 D3 c4 e3",
        "CASTLE  e3,d3,c3,c4,e4",
        " castle c4 c3 e4 e3 d3 ",
    ],
)
def test_every_accepted_spelling_gives_the_canonical_form(play, spelling):
    state = play(CATHEDRAL)
    assert state.action_to_string(state.string_to_action(spelling)) == "Castle c3 c4 d3 e3 e4"


def test_cathedral_is_written_like_a_building():
    state = cathedral.load("classic").new_initial_state()
    action = state.string_to_action("Cathedral e4 d5 e5 f5 e6 e7")
    assert state.action_to_string(action) == "Cathedral d5 e4 e5 e6 e7 f5"


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        ("", NotationError, "empty move"),
        ("Castel c3", NotationError, "unknown building 'Castel'"),
        ("Castle", NotationError, "names no squares"),
        ("Castle c3 c4 d3 e3 k4", NotationError, "bad square 'k4'"),
        ("Castle c3 c3 d3 e3 e4", NotationError, "names a square twice"),
        ("Castle c3 c4", NotationError, "covers 5 squares, 2 given"),
        ("Castle c3 c4 d3 e3 e5", NotationError, "do not form the Castle in any rotation"),
        ("Tavern f6", IllegalActionError, "f6 is occupied by the Cathedral"),
        ("Cathedral b1 b2 a3 b3 c3 b4", IllegalActionError, "already placed"),
    ],
)
def test_parse_errors_name_the_broken_rule(play, move, error, message):
    state = play(CATHEDRAL)
    before = state.to_json()
    with pytest.raises(error, match=message):
        state.string_to_action(move)
    assert state.to_json() == before


def test_building_not_in_hand_is_named(play):
    state = play(CATHEDRAL, "Tavern a1", "Tavern j10", "Tavern c1", "Tavern j8", "Bridge a5 b5 c5",
                 "Stable h1 i1")
    with pytest.raises(IllegalActionError, match="Dark has no Tavern in hand"):
        state.string_to_action("Tavern e1")
    with pytest.raises(IllegalActionError, match="Dark has no Bridge in hand"):
        state.string_to_action("Bridge a7 b7 c7")


def test_notation_round_trips_for_every_legal_action_at_the_start():
    state = cathedral.load("classic", opening="lehmann").new_initial_state()
    for action in state.legal_actions():
        assert state.string_to_action(state.action_to_string(action)) == action
