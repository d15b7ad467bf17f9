"""What a client may send and ask for, checked before anything else sees it: JSON text
(``inputs``) and the caps on computer players, game parameters and records (``limits``)."""

from __future__ import annotations

import json

import pytest

import cathedral
from cathedral.server.errors import Invalid, Malformed, NotFound
from cathedral.server.inputs import MAX_DEPTH, checked_game_id, checked_json, nesting
from cathedral.server.limits import (
    SEARCH_SECONDS,
    check_params,
    check_seat,
    run_spec,
    seconds_of,
)

CLASSIC = cathedral.load("classic")


def test_nesting_counts_brackets_outside_strings_only():
    assert nesting('{"a": [1, {"b": "[[[{{{"}]}') == 3
    assert nesting('"\\"[[["') == 0
    assert nesting("[" * 5000) == 5000  # counted without recursion


@pytest.mark.parametrize("text", ['{"a":' * 10_000, "[" * 100_000, "[" * (MAX_DEPTH + 1)])
def test_json_nested_deeper_than_the_limit_is_malformed_not_a_crash(text):
    with pytest.raises(Malformed, match=f"at most {MAX_DEPTH}"):
        checked_json(text)


def test_json_at_the_limit_is_read():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert checked_json(text) is not None


@pytest.mark.parametrize(("text", "words"), [
    ('{"x": NaN}', "not a number JSON allows"),
    ('{"x": Infinity}', "not a number JSON allows"),
    ('{"x": -Infinity}', "not a number JSON allows"),
    ('{"x": 1e999}', "numbers must be finite"),
    ('{"move": "Tavern\\u0000a1"}', r"U\+0000"),
    ('{"move": "a\\u001bb"}', r"U\+001B"),
    ('{"name": "\\ud800"}', "lone surrogate"),
    ('{"\\u0007": 1}', "a field name"),
    ('{"x": ' + "1" * 5000 + "}", "not JSON"),
])
def test_json_with_non_finite_numbers_or_control_characters_is_malformed(text, words):
    with pytest.raises(Malformed, match=words):
        checked_json(text)


def test_json_keeps_tabs_newlines_and_surrogate_pairs():
    assert checked_json('{"note": "a\\tb\\nc", "face": "\\ud83d\\ude00"}') == {
        "note": "a\tb\nc", "face": "\U0001f600"}


def test_bytes_that_are_not_utf8_are_malformed():
    with pytest.raises(Malformed, match="not UTF-8"):
        checked_json(b"\xff\xfe\x00")


@pytest.mark.parametrize("game_id", ["abc\x00def", "x" * 65, "../etc", "a b", "é", ""])
def test_a_game_id_the_server_never_makes_is_not_found_without_a_query(game_id):
    with pytest.raises(NotFound, match="no game"):
        checked_game_id(game_id)


def test_a_game_id_the_server_makes_passes():
    assert checked_game_id("Bx6jhXJ3Md1KI4_j") == "Bx6jhXJ3Md1KI4_j"


@pytest.mark.parametrize(("seat", "words"), [
    ("alphabeta:workers=6", "workers is not accepted on this server"),
    ("alphabeta:workers=100000", "workers is not accepted"),
    ("rollout:workers=5000", "workers is not accepted"),
    ("hard:workers=1000", "workers is not accepted"),
    ("alphabeta:table_size=1000000000000", "table_size must be a whole number from 1 to "
                                           "1,000,000 here"),
    ("alphabeta:depth=30", "depth must be a whole number from 1 to 20 here"),
    ("mcts:seconds=100000", "seconds must be a number from 0.001 to 30 here"),
    ("mcts:iterations=10000000", "iterations must be a whole number from 1 to 1,000,000"),
    ("rollout:max_plies=1000000000", "max_plies must be a whole number from 1 to 1,000"),
    ("rollout:candidates=100000", "candidates must be"),
    ("rollout:plans=1000000", "plans must be"),
    ("alphabeta:width=wide", "width takes a whole number"),
    ("mcts:solver=3", "solver takes true or false"),
    ("grandmaster", "unknown computer player"),
])
def test_a_computer_seat_outside_the_caps_is_refused_naming_the_argument(seat, words):
    with pytest.raises(Invalid, match=words):
        check_seat(seat, CLASSIC)


@pytest.mark.parametrize("seat", ["human", "random", "easy", "medium", "hard", "max",
                                  "max:seconds=30", "mcts:seconds=2,c=0.5",
                                  "alphabeta:depth=3,width=8", "rollout:candidates=none"])
def test_levels_and_specs_within_the_caps_are_accepted(seat):
    check_seat(seat, CLASSIC)


@pytest.mark.parametrize(("seat", "spec", "seconds"), [
    ("alphabeta:depth=12", "alphabeta:depth=12,seconds=30.0,workers=1", SEARCH_SECONDS),
    ("hard", "hard:seconds=5.0,workers=1", 5.0),
    ("max", "max:seconds=20.0,workers=1", 20.0),
    ("mcts:iterations=50", "mcts:iterations=50,seconds=30.0", SEARCH_SECONDS),
    ("easy", "easy", None),
    ("random", "random", None),
])
def test_what_a_worker_runs_is_bounded_in_time_and_on_one_process(seat, spec, seconds):
    assert run_spec(seat, CLASSIC) == spec
    assert seconds_of(seat, CLASSIC) == seconds
    agent = cathedral.ai.load_agent(run_spec(seat, CLASSIC), CLASSIC)
    assert getattr(agent, "workers", 1) == 1
    agent.close()


@pytest.mark.parametrize(("game", "params", "words"), [
    ("allmer", {"max_turns": 0}, "max_turns' of allmer must be from 1 to 2000"),
    ("allmer", {"max_turns": 100000}, "from 1 to 2000"),
    ("red", {"turn_cap": 10**9}, "turn_cap' of red must be from 1 to 200"),
    ("red", {"components": "/etc/passwd"}, "takes only 'reconstructed'"),
])
def test_game_parameters_that_would_never_end_a_game_are_refused(game, params, words):
    with pytest.raises(Invalid, match=words):
        check_params(game, params)


def test_game_parameters_within_the_caps_pass():
    check_params("allmer", {"players": 4, "max_turns": 12, "quiet_turns": 0})
    check_params("allmer", {"max_turns": None})
    check_params("red", {"turn_cap": 2, "components": "reconstructed"})


def test_the_catalog_numbers_match_the_caps():
    from cathedral.server.routes.lobby import catalog

    allmer = next(g for g in catalog()["games"] if g["name"] == "allmer")
    max_turns = next(p for p in allmer["parameters"] if p["name"] == "max_turns")
    assert (max_turns["minimum"], max_turns["maximum"]) == (1, 2000)
    json.dumps(catalog())  # plain JSON
