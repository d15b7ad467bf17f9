"""The step notation both ways, and errors that say why a step is illegal."""

from __future__ import annotations

import pytest
from allmer_testlib import load, play, position

from cathedral import AmbiguousActionError, IllegalActionError, NotationError
from cathedral.games.allmer import STOP
from cathedral.games.allmer.geometry import parse_point, point_name
from cathedral.games.allmer.movegen import PASSAGE_BASE, step_action

FILLERS = {"W": "a6 a7 a8 a9", "B": "o6 o7 o8 o9"}


def with_fillers(**stones: str) -> dict[str, str]:
    return {k: (stones.get(k, "") + " " + v).strip() for k, v in FILLERS.items()}


def test_point_names_round_trip():
    for p in range(125):
        assert parse_point(point_name(p)) == p
    assert point_name(0) == "f15" and point_name(124) == "j1" and point_name(62) == "h8"
    assert parse_point("H8") == 62


def test_canonical_spellings():
    state = load().new_initial_state()
    action = state.string_to_action("h3-h5")
    assert action == step_action(parse_point("h3"), 0, 2)
    for spelling in ("H3-H5", " h3 - h5 ", "h3-H5"):
        assert state.string_to_action(spelling) == action
    assert state.action_to_string(action) == "h3-h5"
    passage = state.string_to_action("F3-C6")
    assert passage >= PASSAGE_BASE and state.action_to_string(passage) == "f3-c6"


def test_suffixes_are_written_and_read():
    state = position(with_fillers(W="h6", B="h8"), withdraw=True)
    action = state.string_to_action("h6-h7a")
    assert state.action_to_string(action) == "h6-h7A"
    chain = play(position(with_fillers(W="h6", B="h8 j7")), "h6-h7A")
    assert chain.action_to_string(STOP) == "stop"
    assert chain.string_to_action("STOP") == STOP


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "cannot read move"),
        ("h3", "cannot read move"),
        ("h3-h4-h5", "cannot read move"),
        ("z3-h4", "unknown point 'z3'"),
        ("h16-h4", "ranks run from 1 to 15"),
        ("a1-a2", "'a1' is off the board"),
    ],
)
def test_unparsable_moves_raise_notation_errors(text, message):
    state = load().new_initial_state()
    with pytest.raises(NotationError, match=message):
        state.string_to_action(text)


@pytest.mark.parametrize(
    ("stones", "text", "message"),
    [
        (with_fillers(W="h6", B="h8"), "h8-h7", "not your stone: h8 holds a Black stone"),
        (with_fillers(W="h6", B="h8"), "h5-h4", "not your stone: h5 is empty"),
        (with_fillers(W="h6", B="h8"), "h6-h4", "out of reach: the stone on h6 reaches 1 point"),
        (with_fillers(W="h6 h5 h4", B="h8"), "h6-h8", "blocked: h8 is occupied"),
        (with_fillers(W="h8", B="h13"), "h8-i9", "no diagonal line passes through h8"),
        (with_fillers(W="h8", B="h13"), "h8-j9", "j9 is not on a line through h8"),
        (with_fillers(W="h6", B="h13"), "h6-h7A", "no enemy stone stands just beyond h7"),
        (with_fillers(W="f3", B="h13"), "f3-c6A", "a passage never converts"),
    ],
)
def test_illegal_moves_say_why(stones, text, message):
    state = position(stones)
    with pytest.raises(IllegalActionError, match=message):
        state.string_to_action(text)


def test_touched_point_and_not_converting_during_a_chain():
    state = play(position(with_fillers(W="h6", B="h8 h5 j7")), "h6-h7A")
    with pytest.raises(IllegalActionError, match="touched point"):
        state.string_to_action("h7-h6A")
    with pytest.raises(IllegalActionError, match="not converting"):
        state.string_to_action("h7-g7")


def test_missing_suffix_with_both_conversions_is_ambiguous():
    state = position(with_fillers(W="h7", B="h6 h9"), withdraw=True)
    with pytest.raises(AmbiguousActionError, match="h7-h8A or h7-h8W"):
        state.string_to_action("h7-h8")


def test_action_numbers_off_the_lines_have_no_notation():
    state = load().new_initial_state()
    off = step_action(parse_point("f15"), 0, 1)  # north of the north edge
    with pytest.raises(IllegalActionError, match="no step on this board"):
        state.action_to_string(off)
    with pytest.raises(IllegalActionError):
        state.apply_action(off)


def test_step_values_round_trip_and_repr_rebuilds_them():
    from cathedral.games.allmer import Step

    for text in ("h4-h6A", "h4-h3W", "f3-c6", "stop"):
        step = Step.parse(text)
        assert str(step) == text
        assert eval(repr(step), {"Step": Step}) == step
    assert repr(Step.parse(" H4 - h6a ")) == "Step.parse('h4-h6A')"
    with pytest.raises(NotationError):
        Step.parse("h4")
