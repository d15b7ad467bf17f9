"""``cathedral ladder``: summaries saved apart from the records, the table reprinted from them,
and ``--extend``: a level added to a saved ladder plays only its new neighbouring pairing, and
the ladder is refitted on the old games and the new."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from cathedral import cli
from cathedral.ai import ladder as ladder_module

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ladder(tmp_path, monkeypatch):
    """The ladder module, its summaries and records saved under ``tmp_path``."""
    folders = {"reports": tmp_path / "reports", "records": tmp_path / "records"}
    for name in ("run", "extend", "extend_in_parts"):
        monkeypatch.setattr(ladder_module, name,
                            functools.partial(getattr(ladder_module, name), **folders))
    return ladder_module


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


def test_every_must_turn_every_seat_round(capsys):
    with pytest.raises(SystemExit):
        cli.main(["ladder", "red3", "--adjacent", "--extend", "--games", "12", "--every", "4"])
    assert "--every 4: expected a multiple of 3, the seats of red3" in capsys.readouterr().err


def test_the_summary_keeps_every_result_and_the_records_go_to_the_records_folder(ladder,
                                                                                  tmp_path):
    path = ladder.run("classic", ["random", "easy"], games=2, jobs=1, seed=1, adjacent=True)
    assert path == tmp_path / "reports" / "ladder_classic_2.json"
    saved = json.loads(path.read_text())
    full = tmp_path / "records" / "ladder_classic_2.json"
    assert (tmp_path / "records" / "ladder_classic_2.csv").is_file()
    assert not list((tmp_path / "reports").glob("*.csv"))
    whole = json.loads(full.read_text())
    assert all("record" not in g for g in saved["games"])
    assert all(g["record"]["actions"] for g in whole["games"])
    # Everything else is the full report's, one game a line.
    assert {k: v for k, v in saved.items() if k != "games"} == {
        k: v for k, v in whole.items() if k != "games"}
    for short, long in zip(saved["games"], whole["games"], strict=True):
        assert short == {k: round(v, 3) if k == "seconds" else v
                         for k, v in long.items() if k != "record"}
    assert len(path.read_text().splitlines()) < len(full.read_text().splitlines())
    # The records come back from the records folder, and only for the same games.
    assert ladder.load_report(path, tmp_path / "records")["games"][0]["record"] == \
        whole["games"][0]["record"]
    assert "record" not in ladder.load_report(path, tmp_path / "elsewhere")["games"][0]
    whole["games"][0]["returns"] = whole["games"][0]["returns"][::-1]
    full.write_text(json.dumps(whole))
    again = ladder.load_report(path, tmp_path / "records")
    assert "record" not in again["games"][0] and again["games"][1]["record"]


def test_extend_keeps_the_saved_games_records_in_the_records_folder(ladder, tmp_path):
    ladder.run("classic", ["random", "easy"], games=2, jobs=1, seed=1, adjacent=True)
    ladder.extend("classic", ["random", "easy"], games=4, jobs=1, seed=1)
    whole = json.loads((tmp_path / "records" / "ladder_classic_2.json").read_text())
    assert len(whole["games"]) == 4 and all(g["record"]["actions"] for g in whole["games"])


def test_the_command_plays_a_tiny_ladder_and_reprints_its_table(tmp_path, capsys):
    folders = ["--reports", str(tmp_path / "summaries"), "--records", str(tmp_path / "cache")]
    assert cli.main(["ladder", "classic", "--levels", "random", "easy", "--games", "2",
                     "--jobs", "1", "--adjacent", *folders]) == 0
    out = capsys.readouterr().out
    table = out[out.index("| setting | level |"):].strip()
    assert re.search(r"\| `classic` \| easy \| [+-]\d+ \[.*\] \| \+\d+ \[.*\] \| (met|\*\*not "
                     r"met\*\*) \| \d\.\d{3} \(\d\.\d\d\) \| 2 \|", table)
    assert (tmp_path / "summaries" / "ladder_classic_2.json").is_file()
    assert (tmp_path / "cache" / "ladder_classic_2.json").is_file()
    assert cli.main(["ladder", "classic", "--table", *folders]) == 0
    again = capsys.readouterr().out
    assert again[again.index("| setting | level |"):].strip() == table
    # Resumed in parts: the pairing topped up from 2 to 6 games, 2 at a time.
    assert cli.main(["ladder", "classic", "--levels", "random", "easy", "--games", "6",
                     "--jobs", "1", "--adjacent", "--extend", "--every", "2", *folders]) == 0
    out = capsys.readouterr().out
    assert "games 3 to 4" in out and "games 5 to 6" in out
    saved = json.loads((tmp_path / "summaries" / "ladder_classic_2.json").read_text())
    assert saved["games_per_pairing"] == 6


def test_the_folders_and_the_saved_ladder_must_be_there(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # not the repository: no benchmarks/reports
    with pytest.raises(SystemExit) as stop:
        cli.main(["ladder", "--table"])
    assert stop.value.code == 2
    assert "no folder benchmarks/reports here" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["ladder", "red2", "--table", "--reports", "missing"])
    assert "--reports missing: no such folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit):
        cli.main(["ladder", "red2", "--table", "--reports", "empty"])
    assert "no saved ladder of red2 in empty" in capsys.readouterr().err
    assert cli.main(["ladder", "red2", "--adjacent", "--extend", "--reports", "empty"]) == 2
    assert "no saved ladder for red2 in empty" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["ladder", "red5", "--table"])
    assert "unknown settings ['red5']" in capsys.readouterr().err


def test_help_names_the_folders_and_the_examples(capsys):
    with pytest.raises(SystemExit):
        cli.main(["ladder", "--help"])
    out = capsys.readouterr().out
    for words in ("--reports DIR", "benchmarks/reports", "--records DIR", "benchmarks/cache",
                  "--extend", "--every K", "--replace LEVEL", "cathedral ladder --table"):
        assert words in out, words


def test_the_saved_ladders_are_the_tables_in_results(monkeypatch, capsys):
    """The committed summaries reprint the ladder table that RESULTS.md cites, row for row."""
    monkeypatch.chdir(ROOT)
    assert cli.main(["ladder", "--table"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) == 30  # six settings, five levels each
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    missing = [row for row in rows if row not in results]
    assert not missing, missing
