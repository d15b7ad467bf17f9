"""Game records: the fixed key order, strict parsing, exact replay and clear errors."""

from __future__ import annotations

import json
import random

import pytest

import cathedral
from cathedral import Record, RecordError


def finished_game(seed: int = 1):
    state = cathedral.load("classic").new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_record_keys_come_in_the_fixed_order():
    record = Record.from_state(finished_game(), players=["human", "greedy"], meta={"x": 1})
    assert list(json.loads(record.to_json())) == [
        "game", "params", "rules_version", "players", "result", "actions", "meta",
    ]
    assert record.actions[0].startswith("Cathedral")


def test_record_replays_every_state():
    state = finished_game()
    record = Record.from_json(Record.from_state(state).to_json())
    states = list(record.replay())
    assert len(states) == len(state.history()) + 1
    assert states[-1] == state
    assert record.final_state() == state


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("actions"), "missing field 'actions'"),
        (lambda d: d.update(game="chess"), "unknown game 'chess'"),
        (lambda d: d.update(params={"opening": "x"}), "bad value 'x'"),
        (lambda d: d.update(rules_version=99), "rules version 99"),
        (lambda d: d["actions"].__setitem__(2, "Castle z9"), "record action 3 'Castle z9'"),
        (lambda d: d["actions"].__setitem__(1, d["actions"][0]), "record action 2"),
        (lambda d: d["actions"].append(3), "every action must be a notation string"),
        (lambda d: d.update(result={"returns": [5, -5]}), "does not match the replay"),
        (lambda d: d.update(extra=1), "unknown fields"),
    ],
)
def test_corrupt_records_name_what_is_wrong(edit, message):
    data = json.loads(Record.from_state(finished_game()).to_json())
    edit(data)
    with pytest.raises(RecordError, match=message):
        Record.from_json(json.dumps(data)).final_state()


def test_not_json_is_a_record_error():
    with pytest.raises(RecordError, match="not JSON"):
        Record.from_json("{")
    with pytest.raises(RecordError, match="expected a JSON object"):
        Record.from_json("[]")
