"""``benchmarks/ladder.py --extend``: a level added to a saved ladder plays only its new
neighbouring pairing, and the ladder is refitted on the old games and the new."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

LADDER = Path(__file__).resolve().parents[2] / "benchmarks" / "ladder.py"


@pytest.fixture
def ladder(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("ladder_under_test", LADDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "REPORTS", tmp_path)
    return module


def test_extend_plays_only_the_missing_pairing_and_keeps_the_old_games(ladder, capsys):
    path = ladder.run("classic", ["random", "easy"], games=2, jobs=1, seed=1, adjacent=True)
    old = json.loads(path.read_text())
    assert ladder.extend("classic", ["random", "easy", "greedy"], games=2, jobs=1,
                         seed=1) == path
    merged = json.loads(path.read_text())
    assert [sorted(p["agents"]) for p in merged["pairings"]] == [["easy", "random"],
                                                                 ["easy", "greedy"]]
    assert merged["games"][:2] == old["games"]  # the saved games, untouched
    assert len(merged["games"]) == 4 and merged["games_per_pairing"] == 2
    assert [s["agents"] for s in merged["elo_steps"]] == [["easy", "random"],
                                                          ["greedy", "easy"]]
    assert merged["timing"]["easy"]["moves"] > old["timing"]["easy"]["moves"]
    assert "playing easy against greedy" in capsys.readouterr().out
    # Nothing missing: nothing played, the same games refitted.
    ladder.extend("classic", ["random", "easy", "greedy"], games=2, jobs=1, seed=1)
    assert json.loads(path.read_text())["games"] == merged["games"]
