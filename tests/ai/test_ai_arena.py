"""The arena: schedules with seats rotated, statistics, report structure, the command."""

from __future__ import annotations

import json
import math
import os
import tempfile

import pytest

from cathedral.ai import arena
from cathedral.ai.arena import (
    GameResult,
    bradley_terry_elo,
    outcome,
    run_arena,
    schedule,
    wilson_interval,
)
from cathedral.core.errors import AgentError, CathedralError


def test_wilson_interval_known_values():
    low, high = wilson_interval(90, 100)
    assert low == pytest.approx(0.8256, abs=1e-3) and high == pytest.approx(0.9448, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(10, 10)[0] == pytest.approx(0.7225, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bradley_terry_recovers_a_three_to_one_record():
    results = [("a", "b", 1.0)] * 75 + [("a", "b", 0.0)] * 25
    elo = bradley_terry_elo(results, prior_draws=0)
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(3), abs=0.5)
    assert elo["a"] + elo["b"] == pytest.approx(0.0, abs=1e-6)


def test_bradley_terry_orders_a_chain_and_stays_finite_on_clean_sweeps():
    results = [("a", "b", 1.0)] * 10 + [("b", "c", 1.0)] * 10 + [("a", "c", 0.5)] * 2
    elo = bradley_terry_elo(results, ["a", "b", "c"])
    assert elo["a"] > elo["b"] > elo["c"]
    assert all(math.isfinite(v) for v in elo.values())


def test_two_seat_schedule_swaps_colours_in_pairs():
    pairings, tasks = schedule("classic", {}, ["x", "y", "z"], 4, num_players=2, seed=5)
    assert pairings == [("x", "y"), ("x", "z"), ("y", "z")]
    assert len(tasks) == 12
    first = [t for t in tasks if t.pairing == 0]
    assert [t.seats for t in first] == [["x", "y"], ["y", "x"]] * 2
    assert first[0].seed == first[1].seed != first[2].seed


def test_four_seat_schedule_rotates_the_first_agent_through_every_seat():
    pairings, tasks = schedule("allmer", {}, ["hard", "greedy"], 8, num_players=4)
    assert pairings == [("hard", "greedy")]
    assert [t.seats.index("hard") for t in tasks] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(t.seats.count("greedy") == 3 for t in tasks)
    pairings, _ = schedule("allmer", {}, ["a", "b", "c"], 4, num_players=4, all_pairs=True)
    assert len(pairings) == 6


def test_adjacent_schedule_pairs_each_agent_with_the_next():
    pairings, tasks = schedule("classic", {}, ["a", "b", "c", "d"], 2, num_players=2,
                               adjacent=True)
    assert pairings == [("a", "b"), ("b", "c"), ("c", "d")]
    assert len(tasks) == 6
    pairings, _ = schedule("allmer", {}, ["a", "b", "c"], 4, num_players=4, adjacent=True)
    assert pairings == [("b", "a"), ("c", "b")]  # each alone against a table of the one below


def test_an_opening_is_shared_by_both_colourings_and_differs_between_pairs():
    _, tasks = schedule("classic", {}, ["random", "greedy"], 4, num_players=2, opening=2)
    games = [arena.play_game(task) for task in tasks]
    openings = [tuple(g.record["actions"][:2]) for g in games]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert openings[0] != openings[2]
    assert all(g.record["meta"]["opening"] == 2 for g in games)
    # The opening's moves are nobody's: only the agents' own moves are timed.
    for g in games:
        assert sum(len(t) for t in g.move_times.values()) == g.plies - 2


def test_a_bad_opening_is_refused():
    for bad in (-1, 1.5, True):
        with pytest.raises(CathedralError, match="--opening"):
            schedule("classic", {}, ["a", "b"], 2, num_players=2, opening=bad)


def _result(seats, returns, pairing=0, index=0):
    return GameResult(index, pairing, seats, 0, returns, [0.0] * len(seats), 10, 0.1,
                      {s: [0.01] for s in seats})


def test_outcome_reads_the_first_agents_seat():
    assert outcome(_result(["a", "b"], [1.0, -1.0]), "a") == 1.0
    assert outcome(_result(["b", "a"], [1.0, -1.0]), "a") == 0.0
    assert outcome(_result(["b", "a"], [0.0, 0.0]), "a") == 0.5
    four = _result(["b", "b", "a", "b"], [-1 / 3, -1 / 3, 1.0, -1 / 3])
    assert outcome(four, "a") == 1.0
    tied = _result(["b", "b", "a", "b"], [2 / 3, -2 / 3, 2 / 3, -2 / 3])
    assert outcome(tied, "a") == 0.5


def test_report_structure_with_a_stubbed_game():
    report = run_arena("classic", ["random", "greedy"], games=6, play=fake_play_named)
    row = report["pairings"][0]
    assert row["agents"] == ["random", "greedy"]
    assert (row["wins"], row["draws"], row["losses"]) == (4, 0, 2)
    assert row["win_interval"] == list(wilson_interval(4, 6))
    assert set(report["elo"]) == {"random", "greedy"}
    assert report["elo"]["random"] > report["elo"]["greedy"]
    assert report["timing"]["random"]["moves"] == 6
    assert len(report["games"]) == 6
    assert [g["seats"][0] for g in report["games"]] == ["random", "greedy"] * 3


def fake_play_named(task):
    first_wins = task.index % 3 != 0
    winner = task.seats.index("random") if first_wins else task.seats.index("greedy")
    returns = [1.0 if i == winner else -1.0 for i in range(2)]
    return GameResult(task.index, task.pairing, task.seats, task.seed, returns, [0, 0], 5, 0.0,
                      {s: [0.5] for s in task.seats}, {"stub": True})


def test_real_games_in_two_processes_write_json_and_csv(tmp_path):
    report = run_arena("classic", ["random", "greedy"], games=2, jobs=2, seed=1)
    assert report["pairings"][0]["games"] == 2
    for game in report["games"]:
        record = game["record"]
        assert record["players"] == game["seats"]
        assert record["result"]["returns"] == game["returns"]
    paths = arena.write_report(report, str(tmp_path / "out.json"))
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["agents"] == ["random", "greedy"]
    lines = (tmp_path / "out.csv").read_text().splitlines()
    assert lines[0].startswith("index,pairing,first,second")
    assert len(lines) == 3
    assert paths == [str(tmp_path / "out.json"), str(tmp_path / "out.csv")]


def test_the_command_line(tmp_path, capsys):
    out = tmp_path / "r.json"
    status = arena.main(["classic", "random", "greedy", "--games", "2", "--quiet",
                         "--report", str(out), "--seed", "3"])
    assert status == 0
    text = capsys.readouterr().out
    assert "random vs greedy" in text and "Elo" in text
    assert out.exists() and (tmp_path / "r.csv").exists()


def test_the_command_line_rejects_unknown_agents(capsys):
    assert arena.main(["classic", "random", "nobody", "--games", "2", "--quiet"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_the_command_line_reports_a_crashing_agent_in_one_line(capsys, monkeypatch):
    def crash(*args, **kwargs):
        raise AgentError("agent 'hard' (seat 1) crashed in game 3 after 7 moves: KeyError: 5")

    monkeypatch.setattr(arena, "run_arena", crash)
    assert arena.main(["classic", "random", "hard", "--games", "2", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err == "cathedral arena: agent 'hard' (seat 1) crashed in game 3 after 7 moves: " \
        "KeyError: 5\n"


def test_a_report_folder_refused_before_the_games_is_one_error(tmp_path, capsys):
    (tmp_path / "file").write_text("not a folder")
    report = tmp_path / "file" / "r.json"
    assert arena.main(["classic", "random", "random", "--games", "2", "--quiet",
                       "--report", str(report)]) == 2
    assert "cannot make the folder" in capsys.readouterr().err


def test_a_report_whose_csv_would_be_a_folder_is_refused_before_the_games(tmp_path, capsys):
    (tmp_path / "r.csv").mkdir()
    assert arena.main(["classic", "random", "random", "--games", "2", "--quiet",
                       "--report", str(tmp_path / "r.json")]) == 2
    assert f"{str(tmp_path / 'r.csv')!r} is a folder" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("folder", ["old", "new/"])
def test_a_report_path_naming_a_folder_writes_into_it(tmp_path, capsys, folder):
    # An existing folder, or a path ending in a separator: the report goes inside, named
    # after the run (it used to land beside the folder as <folder>.json).
    (tmp_path / "old").mkdir()
    assert arena.main(["classic", "random", "random", "--games", "2", "--quiet",
                       "--report", str(tmp_path) + os.sep + folder]) == 0
    inside = tmp_path / folder.rstrip("/")
    assert sorted(p.name for p in inside.iterdir()) == ["arena_classic_2.csv",
                                                         "arena_classic_2.json"]
    assert len(json.loads((inside / "arena_classic_2.json").read_text())["games"]) == 2
    assert not (tmp_path / "old.json").exists() and not (tmp_path / "new.json").exists()
    assert f"wrote {inside / 'arena_classic_2.json'}" in capsys.readouterr().out


def test_a_report_checked_before_the_games_makes_its_folder_and_may_overwrite_an_old_one(
        tmp_path):
    assert arena._writable(str(tmp_path / "new" / "r")) is None
    assert (tmp_path / "new").is_dir()
    (tmp_path / "new" / "r.json").write_text("{}")
    assert arena._writable(str(tmp_path / "new" / "r.json")) is None


def test_a_report_that_cannot_be_written_after_the_games_goes_to_a_temporary_file(
        tmp_path, capsys, monkeypatch):
    # The folder is fine when the games start and gone when they end: the games are kept.
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setattr(arena, "_writable", lambda path: None)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert arena.main(["classic", "random", "random", "--games", "2", "--quiet",
                       "--report", str(tmp_path / "file" / "r.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cathedral arena: error: cannot write ")
    kept = err.rsplit("the report is at ", 1)[1].split(" instead")[0]
    assert os.path.dirname(kept) == str(tmp_path)
    with open(kept, encoding="utf-8") as handle:
        assert len(json.load(handle)["games"]) == 2


def test_add_parser_wires_a_subcommand():
    import argparse

    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command")
    arena.add_parser(commands)
    args = parser.parse_args(["arena", "classic", "hard", "greedy", "--games", "10",
                              "--jobs", "2", "--param", "opening=lehmann"])
    assert args.run is arena.run_command
    assert args.agents == ["hard", "greedy"] and args.jobs == 2
    assert args.param == ["opening=lehmann"]
