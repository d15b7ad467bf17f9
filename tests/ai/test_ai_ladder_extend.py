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
    # Only easy-greedy topped up: the table gives each step its own pairing's games.
    ladder.extend("classic", ["easy", "greedy"], games=4, jobs=1, seed=1)
    rows = [line.split(" | ") for line in ladder.table([path]).splitlines()[2:]]
    assert [(row[1], row[-1]) for row in rows] == [("random", "2 |"), ("easy", "2 |"),
                                                   ("greedy", "4 |")]


def test_extend_tops_a_pairing_up_with_new_seeds_and_replaces_a_changed_level(ladder, capsys):
    path = ladder.run("classic", ["random", "easy"], games=2, jobs=1, seed=1, adjacent=True)
    old = json.loads(path.read_text())
    ladder.extend("classic", ["random", "easy"], games=4, jobs=1, seed=1)
    topped = json.loads(path.read_text())
    assert len(topped["pairings"]) == 1 and topped["pairings"][0]["games"] == 4
    assert topped["games"][:2] == old["games"]
    assert len({g["seed"] for g in topped["games"]}) == 2  # games 3-4: a new pair of seeds
    assert topped["timing"]["easy"]["moves"] > old["timing"]["easy"]["moves"]
    assert "games 3 to 4" in capsys.readouterr().out
    # easy changed: its games go, with its timing, and are played anew.
    ladder.extend("classic", ["random", "easy"], games=2, jobs=1, seed=1, replace=("easy",))
    replayed = json.loads(path.read_text())
    assert replayed["games_per_pairing"] == 2 and len(replayed["games"]) == 2
    assert replayed["timing"]["easy"]["moves"] < topped["timing"]["easy"]["moves"]
    assert "games 1 to 2" in capsys.readouterr().out


def test_replacing_a_level_drops_the_timing_of_a_level_left_without_games(ladder):
    path = ladder.run("classic", ["random", "easy", "greedy"], games=2, jobs=1, seed=1,
                      adjacent=True)
    assert "greedy" in json.loads(path.read_text())["timing"]
    # easy changed: both its pairings go, and greedy, above it, has no game left to time.
    ladder.extend("classic", ["random", "easy"], games=2, jobs=1, seed=1, replace=("easy",))
    replayed = json.loads(path.read_text())
    assert replayed["agents"] == ["random", "easy"]
    assert sorted(replayed["timing"]) == ["easy", "random"]


def test_a_topped_up_schedule_starts_after_the_games_played():
    from cathedral.ai.arena import schedule
    from cathedral.core.errors import CathedralError

    _, tasks = schedule("red", {"players": 3}, ["hard", "medium"], 9, num_players=3,
                        adjacent=True, first_game=6)
    _, whole = schedule("red", {"players": 3}, ["hard", "medium"], 9, num_players=3,
                        adjacent=True)
    assert [(t.seats, t.seed) for t in tasks] == [(t.seats, t.seed) for t in whole[6:]]
    with pytest.raises(CathedralError, match="multiple of 3 below 9"):
        schedule("red", {"players": 3}, ["hard", "medium"], 9, num_players=3, first_game=4)


def test_extend_in_parts_saves_the_ladder_after_every_part(ladder, capsys, monkeypatch):
    path = ladder.run("classic", ["random", "easy"], games=2, jobs=1, seed=1, adjacent=True)
    saved = []
    write = ladder.write_report

    def counted(report, where):
        saved.append(len(report["games"]))
        write(report, where)

    monkeypatch.setattr(ladder, "write_report", counted)
    assert ladder.extend_in_parts("classic", ["random", "easy"], games=6, every=2, jobs=1,
                                  seed=1) == path
    # 2 games already saved: that part is passed over; then games 3-4 and 5-6, each saved.
    assert saved == [4, 6]
    out = capsys.readouterr().out
    assert "games 3 to 4" in out and "games 5 to 6" in out
    assert json.loads(path.read_text())["games_per_pairing"] == 6
    # All played: the parts are passed over and the last only refits, printed once.
    saved.clear()
    ladder.extend_in_parts("classic", ["random", "easy"], games=6, every=2, jobs=1, seed=1)
    assert saved == [6] and capsys.readouterr().out.count("Elo (Bradley-Terry") == 1


def test_every_must_turn_every_seat_round(ladder, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["ladder.py", "red3", "--adjacent", "--extend",
                                     "--games", "12", "--every", "4"])
    with pytest.raises(SystemExit):
        ladder.main()
    assert "--every 4: expected a multiple of 3, the seats of red3" in capsys.readouterr().err
