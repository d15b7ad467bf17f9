"""``research/red_model_agreement.py``: two rollout models' picks on ``max``'s positions."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cathedral
import red_model_agreement as script
from cathedral import Record
from cathedral.testing import random_action


def a_report(tmp_path: Path) -> Path:
    """A report of one short random 3-player game with ``max`` in seat 0."""
    game = cathedral.load("red", players=3, turn_cap=6)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
    record = json.loads(Record.from_state(state).to_json())
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"games": [{"seats": ["max", "hard", "hard"],
                                           "record": record}]}))
    return path


def run(monkeypatch, capsys, report: Path, change: str) -> str:
    monkeypatch.setattr("sys.argv", ["red_model_agreement.py", str(report), "--positions", "2",
                                     "--passes", "2", "--change", change])
    script.main()
    return capsys.readouterr().out


def test_no_change_picks_the_same_decisions(tmp_path, monkeypatch, capsys):
    out = run(monkeypatch, capsys, a_report(tmp_path), "{}")
    assert out.count("): same: ") == 2
    assert "the picks differ in 0;" in out


def test_the_reference_values_every_legal_decision(tmp_path):
    report = json.loads(a_report(tmp_path).read_text())
    state = script.positions(report, 1, 0)[0]
    values, seconds = script.reference(state, 2, 0, {"horizon": 2})
    assert set(values) == set(state.legal_actions()) and seconds >= 0


def test_a_bad_change_is_a_clear_usage_error(tmp_path, monkeypatch, capsys):
    report = a_report(tmp_path)
    for change in ('{"rival": 2}', "not json", '{"horizon": 0}'):
        monkeypatch.setattr("sys.argv", ["red_model_agreement.py", str(report),
                                         "--change", change])
        with pytest.raises(SystemExit) as stop:
            script.main()
        assert stop.value.code == 2
        assert "--change wants RolloutAgent arguments" in capsys.readouterr().err
