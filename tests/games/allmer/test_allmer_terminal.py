"""Terminal sessions through the real ``cathedral play allmer`` process."""

from __future__ import annotations

import json
import subprocess
import sys

import cathedral

# A line found by search: White's seventh turn converts on k8-j9A and may go on converting.
OPENING = ["f3-j7", "j13-g10", "j7-k8", "g10-h9", "f2-f6", "i13-i10", "k8-j9A"]


def cathedral_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cathedral", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_chain_in_a_terminal_session(tmp_path):
    record = tmp_path / "game.json"
    lines = [*OPENING, "stop please", "f6-f7", "moves A", "j9-i9A", "quit"]
    done = cathedral_cli(
        "play",
        "allmer",
        "--seats",
        "human,human",
        "--record",
        str(record),
        "--color",
        "never",
        stdin="\n".join(lines) + "\n",
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    hint = "White is converting: the stone on j9 may convert again"
    assert hint in out and "type stop to end the turn" in out
    # the hint comes after the board and before the prompt
    after_hint = out[out.index(hint) :]
    assert "Legal: j9-i9A, stop" in after_hint
    assert after_hint.index("Legal:") < after_hint.index("White> ")
    assert "(W)" in out[: out.index(hint)], "the board marks the chaining stone"
    assert "error: cannot read move 'stop please'" in out
    assert "error: illegal move 'f6-f7': during a chain only the stone on j9 may move" in out
    assert "Black to move" in out.split(hint, 1)[1]
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["actions"] == [*OPENING, "j9-i9A"]
    state = cathedral.Record.from_json(record.read_text(encoding="utf-8")).final_state()
    assert state.counts == [17, 13]


def test_human_against_greedy(tmp_path):
    record = tmp_path / "game.json"
    done = cathedral_cli(
        "play",
        "allmer",
        "--players",
        "2",
        "--white",
        "human",
        "--black",
        "greedy",
        "--seed",
        "1",
        "--record",
        str(record),
        "--color",
        "never",
        stdin="h3-h4\nz9-h4\nhelp\nresign\n",
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Black (greedy) played" in out
    assert "error: cannot read move 'z9-h4': unknown point 'z9'" in out
    assert out.rstrip().endswith(f"Record written to {record}")
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["players"] == ["human", "greedy"]
    assert saved["actions"][0] == "h3-h4"
    assert saved["result"]["returns"] == [-1.0, 1.0]


def test_computer_players_finish_a_four_player_game(tmp_path):
    record = tmp_path / "game.json"
    done = cathedral_cli(
        "play",
        "allmer",
        "--players",
        "4",
        "--field",
        "middle8",
        "--withdraw",
        "true",
        "--max-turns",
        "40",
        "--seats",
        "greedy,random,greedy,random",
        "--seed",
        "2",
        "--record",
        str(record),
        "--color",
        "never",
    )
    assert done.returncode == 0, done.stderr
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["params"]["players"] == 4 and saved["params"]["withdraw"] is True
    assert saved["result"]["text"] in done.stdout
    state = cathedral.Record.from_json(record.read_text(encoding="utf-8")).final_state()
    assert state.is_terminal()


def test_rules_command_prints_the_rules():
    done = cathedral_cli("rules", "allmer")
    assert done.returncode == 0, done.stderr
    assert "Reach" in done.stdout and "STOP" in done.stdout
