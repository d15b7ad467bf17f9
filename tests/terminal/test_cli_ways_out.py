"""The real ``cathedral`` process: every way out of a game writes its record and says where;
``play --resume`` goes on with it; ``replay`` survives Ctrl-D, odd answers and odd files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pexpect
from hypothesis import given
from hypothesis import strategies as st

from cathedral import Record
from cathedral.terminal.replay import next_index

CLI = [sys.executable, "-m", "cathedral"]


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "cathedral", *args], encoding="utf-8",
                         timeout=60, dimensions=(30, 100))


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_ctrl_c_at_the_prompt_writes_the_record(tmp_path):
    path = tmp_path / "r.json"
    child = spawn("play", "classic", "--seed", "1", "--record", str(path), "--color", "never")
    child.expect("Light> ")
    child.sendline("Cathedral b1 b2 a3 b3 c3 b4")
    child.expect("Light> ")
    child.sendintr()
    child.expect(f"Record written to {path}")
    child.expect(f"Go on with: cathedral play --resume {path}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    record = Record.from_json(path.read_text())
    assert len(record.actions) == 2 and record.meta["stopped"] == "interrupted"


def test_ctrl_c_while_the_computer_thinks_writes_the_record(tmp_path):
    path = tmp_path / "r.json"
    child = spawn("play", "classic", "--seed", "1", "--record", str(path), "--color", "never",
                  "--dark", "mcts:seconds=60")
    child.expect("Light> ")
    child.sendline("Cathedral b1 b2 a3 b3 c3 b4")
    child.expect(pexpect.TIMEOUT, timeout=2)  # Dark is thinking for a minute
    child.sendintr()
    child.expect("Interrupted.")
    child.expect(f"Record written to {path}")
    child.expect(pexpect.EOF)
    assert Record.from_json(path.read_text()).actions == ["Cathedral a3 b1 b2 b3 b4 c3"]


def test_a_closed_terminal_writes_the_record(tmp_path):
    path = tmp_path / "r.json"
    child = spawn("play", "classic", "--seed", "1", "--record", str(path), "--color", "never")
    child.expect("Light> ")
    child.sendline("Cathedral b1 b2 a3 b3 c3 b4")
    child.expect("Light> ")
    child.kill(signal.SIGHUP)
    child.expect(pexpect.EOF)
    child.close()
    record = Record.from_json(path.read_text())
    assert len(record.actions) == 2 and record.meta["stopped"] == "hangup"


def test_ctrl_d_and_quit_write_the_record(tmp_path):
    for way in ("\x04", "quit\r"):
        path = tmp_path / f"r{len(way)}.json"
        child = spawn("play", "classic", "--seed", "1", "--record", str(path), "--color",
                      "never")
        child.expect("Light> ")
        child.send(way)
        child.expect(f"Record written to {path}")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert Record.from_json(path.read_text()).actions == []


def test_resume_goes_on_with_the_same_seats_and_seed_or_new_seats(tmp_path):
    first = tmp_path / "first.json"
    result = run("play", "classic", "--seed", "7", "--dark", "random", "--record", str(first),
                 stdin="Cathedral b1 b2 a3 b3 c3 b4\nquit\n")
    assert result.returncode == 0 and f"--resume {first}" in result.stdout
    second = tmp_path / "second.json"
    result = run("play", "--resume", str(first), "--record", str(second),
                 stdin="moves tavern j10\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Light> " in result.stdout and "(1 move)" in result.stdout
    record = Record.from_json(second.read_text())
    assert record.players == ["human", "random"] and record.meta["seed"] == 7
    assert record.actions == Record.from_json(first.read_text()).actions
    assert record.meta["resumed_from"] == str(first)
    # Seats given anew: the computer takes Light's seat and plays on to the end.
    third = tmp_path / "third.json"
    result = run("play", "classic", "--resume", str(first), "--light", "greedy",
                 "--record", str(third))
    assert result.returncode == 0, result.stderr
    done = Record.from_json(third.read_text())
    assert done.players == ["greedy", "random"] and done.result is not None
    assert done.actions[:2] == record.actions
    # A finished game is not resumed.
    result = run("play", "--resume", str(third))
    assert result.returncode == 2 and "is over" in result.stderr


def test_resume_refuses_other_parameters_and_unknown_seats(tmp_path):
    path = tmp_path / "r.json"
    run("play", "classic", "--record", str(path), stdin="quit\n")
    result = run("play", "classic", "--resume", str(path), "--opening", "lehmann")
    assert result.returncode == 2 and "keeps the parameters of its record" in result.stderr
    data = json.loads(path.read_text())
    data["players"] = ["alice", "greedy"]
    path.write_text(json.dumps(data))
    result = run("play", "--resume", str(path))
    assert result.returncode == 2
    assert "the record's Light seat is 'alice'" in result.stderr
    assert "--light human" in result.stderr


def test_replay_survives_ctrl_d_and_odd_answers(tmp_path):
    path = tmp_path / "r.json"
    run("play", "classic", "--light", "greedy", "--dark", "greedy", "--seed", "1", "--record",
        str(path))
    child = spawn("replay", str(path))
    child.expect("q quit> ")
    child.sendline("zzz")
    child.expect(r"1\. Cathedral")
    child.sendline("3")
    child.expect(r"3\. ")
    child.sendline("b")
    child.expect(r"2\. ")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@given(st.integers(0, 50), st.one_of(st.none(), st.text(max_size=8)), st.integers(0, 50))
def test_the_replay_prompt_takes_any_answer(index, answer, last):
    index = min(index, last)
    step = next_index(index, answer, last)
    assert step is None or 0 <= step <= last


def test_replay_refuses_a_file_that_is_not_text(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = run("replay", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "not UTF-8 text" in result.stderr


def test_replay_to_n_shows_the_result_only_under_the_final_position(tmp_path):
    path = tmp_path / "r.json"
    run("play", "classic", "--light", "greedy", "--dark", "greedy", "--seed", "1", "--record",
        str(path))
    record = Record.from_json(path.read_text())
    text = record.result["text"]
    early = run("replay", str(path), "--to", "3", "--no-interactive")
    assert text not in early.stdout
    final = run("replay", str(path), "--no-interactive")
    assert final.stdout.count(text) == 1
    # A shortened record keeps its old result but does not show it.
    data = json.loads(path.read_text())
    data["actions"] = data["actions"][:5]
    path.write_text(json.dumps(data))
    short = run("replay", str(path), "--no-interactive")
    assert short.returncode == 0 and text not in short.stdout


def test_version_and_games_and_help_value_names():
    assert run("--version").stdout.strip().startswith("cathedral ")
    games = run("games").stdout
    assert "The Red Cathedral: The Red Cathedral" not in games
    assert "Cathedral (Simon Allmer): stones slide" in games
    help_text = run("play", "allmer", "--help").stdout
    assert "--withdraw {true,false}" in help_text and "PARAM_" not in help_text


def test_the_prompt_has_history_across_games_and_tab_completion(tmp_path):
    env_records = tmp_path / "data" / "records"

    def game() -> pexpect.spawn:
        return pexpect.spawn(sys.executable, ["-m", "cathedral", "play", "classic", "--color",
                                              "never", "--seed", "1"],
                             encoding="utf-8", timeout=60, dimensions=(30, 100),
                             env={**os.environ, "CATHEDRAL_RECORDS": str(env_records)})

    child = game()
    child.expect("Light> ")
    child.sendline("moves cathedral e5")
    child.expect(r"\(\d+ moves?\)")
    child.expect("Light> ")
    child.send("Cathe\t")  # Tab completes the building's name
    child.expect("Cathedral")
    child.sendline("")
    child.expect("Light> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "moves cathedral e5" in (tmp_path / "data" / "history").read_text()
    child = game()
    child.expect("Light> ")
    child.send("\x1b[A")  # the up arrow brings back the last game's lines, newest first
    child.expect("quit")
    child.send("\x1b[A\x1b[A")
    child.expect("moves cathedral e5")
    child.sendline("")
    child.expect(r"\(\d+ moves?\)")
    child.sendline("quit")
    child.expect(pexpect.EOF)
