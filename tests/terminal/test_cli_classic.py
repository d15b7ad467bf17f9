"""The real ``cathedral`` process: a terminal game of classic, commands, records, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pexpect
import pytest

from cathedral import Record

CLI = [sys.executable, "-m", "cathedral"]


def run(*args: str, stdin: str = "", env=None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, timeout=120,
                          env=env)


def test_a_whole_game_through_the_terminal_with_a_mistyped_and_an_illegal_move(tmp_path):
    record_path = tmp_path / "game.json"
    here = tmp_path / "here.json"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cathedral", "play", "classic", "--light", "human", "--dark", "greedy",
         "--seed", "5", "--record", str(record_path), "--color", "never"],
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 100),
    )
    first = True
    while True:
        index = child.expect([r"Light> ", r"Record written to"])
        if index == 1:
            break
        if first:
            assert "Light places the Cathedral first" in child.before
            child.sendline("Castel a1")
            child.expect(r"error: unknown building 'Castel'")
            child.expect("Light> ")
            child.sendline("Tavern a1")
            child.expect(r"error: illegal placement 'Tavern a1': Light must place the Cathedral")
            child.expect("Light> ")
            child.sendline("moves cathedral")
            child.expect(r"-- 21 of \d+ lines; Enter for more, q to stop -- ")  # one page
            child.sendline("")
            child.expect(r"-- 42 of ")
            child.sendline("q")
            child.expect("Light> ")
            child.sendline("moves cathedral e5")
            child.expect(r"\((\d+) moves\)")
            assert int(child.match.group(1)) < 224
            child.expect("Light> ")
            first = False
        else:
            # What the computer did is shown under the board, before the prompt.
            assert re.search(r"Dark \(greedy\) played \w+", child.before)
        child.sendline(f"save {here}")
        child.expect("Saved to")
        child.expect("Light> ")
        mirror = Record.from_json(here.read_text()).final_state()
        child.sendline(mirror.action_to_string(mirror.legal_actions()[0]))
    child.expect(pexpect.EOF)
    record = Record.from_json(record_path.read_text())
    final = record.final_state()
    assert final.is_terminal()
    assert record.players == ["human", "greedy"]
    assert record.meta["seed"] == 5
    assert record.result["text"] == final.result_string()


def test_undo_save_hint_and_resign(tmp_path):
    saved = tmp_path / "saved.json"
    final = tmp_path / "final.json"
    script = "\n".join([
        "Cathedral f6 e7 f7 g7 f8 f9",
        "undo",
        "Cathedral b1 b2 a3 b3 c3 b4",
        f"save {saved}",
        "help",
        "hint easy",
        "hint nonsense",
        "resign",
    ]) + "\n"
    result = run("play", "classic", "--dark", "random", "--seed", "2", "--record", str(final),
                 stdin=script)
    assert result.returncode == 0, result.stderr
    assert "Undone." in result.stdout
    assert "Commands:" in result.stdout
    assert re.search(r"hint \(easy\): \w+ [a-j]\d", result.stdout)
    assert "error: unknown agent 'nonsense'" in result.stdout
    assert "Light resigns." in result.stdout
    partial = Record.from_json(saved.read_text())
    assert partial.actions[0] == "Cathedral a3 b1 b2 b3 b4 c3"
    assert partial.result is None
    done = Record.from_json(final.read_text())
    assert done.result["returns"] == [-1.0, 1.0]
    assert done.result["resigned"] == 0
    done.final_state()  # a resigned record still replays


def test_quit_and_end_of_input_keep_the_game_as_a_record(tmp_path):
    path = tmp_path / "r.json"
    result = run("play", "classic", "--record", str(path), stdin="Cathedral b1 b2 a3 b3 c3 b4\n")
    assert result.returncode == 0
    record = Record.from_json(path.read_text())
    assert record.actions[0] == "Cathedral a3 b1 b2 b3 b4 c3" and record.result is None


def test_match_of_two_games_swaps_colours_and_totals_unplaced_squares(tmp_path):
    path = tmp_path / "m.json"
    result = run("play", "classic", "--light", "greedy", "--dark", "random", "--match", "2",
                 "--seed", "4", "--record", str(path))
    assert result.returncode == 0, result.stderr
    first = Record.from_json((tmp_path / "m-1.json").read_text())
    second = Record.from_json((tmp_path / "m-2.json").read_text())
    assert first.players == ["greedy", "random"] and second.players == ["random", "greedy"]
    greedy = first.result["scores"][0] + second.result["scores"][1]
    rand = first.result["scores"][1] + second.result["scores"][0]
    assert f"greedy (first Light): {greedy:g}" in result.stdout
    assert f"random (first Dark): {rand:g}" in result.stdout
    if greedy != rand:
        winner = "greedy (first Light)" if greedy < rand else "random (first Dark)"
        assert f"{winner} wins the match (lowest total)." in result.stdout
    else:
        assert "The match is drawn." in result.stdout


def test_replay_prints_the_positions_of_a_record(tmp_path):
    path = tmp_path / "r.json"
    run("play", "classic", "--light", "greedy", "--dark", "greedy", "--seed", "1", "--record",
        str(path))
    record = json.loads(path.read_text())
    result = run("replay", str(path), "--no-interactive")
    assert result.returncode == 0
    assert record["result"]["text"] in result.stdout
    result = run("replay", str(path), "--to", "1", "--no-interactive")
    assert f"1. {record['actions'][0]}" in result.stdout


def test_rules_are_printed():
    result = run("rules", "classic")
    assert result.returncode == 0
    assert "Territory and capture" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("play", "classic", "--opening", "fast"), "invalid choice: 'fast'"),
        (("play", "chess"), "invalid choice: 'chess'"),
        (("play", "classic", "--seats", "human"), "--seats lists 1 players, expected 2"),
        (("play", "classic", "--seats", "human,genius"), "unknown agent 'genius'"),
        (("replay", "/nonexistent/r.json"), "cannot read"),
        (("bench", "classic", "--param", "opening"), "expected NAME=VALUE"),
        (("bench", "classic", "--param", "opening=fast"), "bad value 'fast'"),
        (("play", "classic", "--match", "0"), "--match 0: expected 1 or an even number"),
        (("play", "classic", "--match", "3"), "--match 3: expected 1 or an even number"),
        (("play", "classic", "--dark", "mcts:seconds=abc"), "bad value seconds=abc"),
        (("play", "classic", "--dark", "alphabeta:depth=x"), "bad value depth=x"),
        (("play", "classic", "--dark", "alphabeta:depth=0"),
         "bad value depth=0 (expected a positive whole number)"),
        (("play", "classic", "--dark", "mcts:seconds=0"),
         "bad value seconds=0 (expected a positive number)"),
        (("play", "classic", "--dark", "rollout:iterations=-1"), "bad value iterations=-1"),
        (("arena", "classic", "random", "greedy", "--games", "0"),
         "--games 0: expected a positive multiple of 2"),
        (("arena", "classic", "random", "greedy", "--games", "3"),
         "--games 3: expected a positive multiple of 2"),
        (("arena", "classic", "random", "greedy", "--jobs", "0"),
         "argument --jobs: '0': expected a number of processes, 1 or more"),
        (("arena", "classic", "random", "greedy", "--report", "/proc/none/r.json"),
         "--report /proc/none/r.json: cannot make the folder '/proc/none'"),
        (("play", "--resume", "/nonexistent/r.json"), "cannot read"),
        (("play", "classic", "--record", "/"), "--record '/' is a directory"),
    ],
)
def test_bad_input_gives_a_clear_error_and_exit_code_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert message in result.stderr.strip().splitlines()[-1]  # one line says it all


def test_corrupt_record_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"game": "classic"}')
    result = run("replay", str(path))
    assert result.returncode == 2
    assert "missing field" in result.stderr
