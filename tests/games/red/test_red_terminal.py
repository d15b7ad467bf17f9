"""A whole Red Cathedral game through the real ``cathedral play red`` process (pexpect)."""

import re
import sys

import pexpect

from cathedral import Record


def test_play_red_in_the_terminal(tmp_path):
    record_path = tmp_path / "red.json"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cathedral", "play", "red", "--players", "2", "--seats", "human,greedy",
         "--seed", "1", "--turn-cap", "3", "--record", str(record_path), "--color", "never"],
        encoding="utf-8",
        timeout=60,
    )
    first = True
    turns = 0
    boards = 0
    while True:
        index = child.expect([r"Red> ", r"Record written to"])
        if index == 1:
            ending = child.before
            break
        before = child.before
        boards += "CATHEDRAL plan" in before and "PLAYERS" in before
        legal = re.findall(r"Legal: ([^\r\n]+)", before)
        assert legal, before[-500:]
        choices = [m.strip() for m in legal[-1].split(",")]
        if first:
            first = False
            assert "(setup plan " in before and "(roll " in before  # chance, as notation
            assert "Red: one basic action" in before  # the prompt hint
            child.sendline("claim T1.3")
            child.expect("error: illegal move 'claim T1.3'")
            child.expect(r"Red> ")
            child.sendline("deliver marble T1.1")
            child.expect("error: cannot parse move")
            child.expect(r"Red> ")
            child.sendline("moves die white")
            child.expect("die white")
            child.expect(r"Red> ")
        if "done" in choices:
            move = "done"
        else:
            claims = [c for c in choices if c.startswith(("claim", "tile"))]
            move = claims[0] if claims else choices[0]
        turns += move.startswith(("claim", "die"))
        child.sendline(move)
    child.expect(pexpect.EOF)
    record = Record.from_json(record_path.read_text())
    final = record.final_state()
    assert final.is_terminal()
    assert record.players == ["human", "greedy"]
    assert record.result["text"] == final.result_string()
    assert "safety cap of 3 rounds" in record.result["text"]
    assert turns == 3
    assert any(a.startswith("roll ") for a in record.actions)  # chance outcomes recorded
    assert boards >= 2  # the board with the market, towers and players was shown
    assert record.result["text"] in ending.replace("\r\n", " ").replace("\n", " ") or (
        "wins" in ending or "share the victory" in ending)
