"""A terminal Session driven in-process through its input and output streams."""

from __future__ import annotations

import io

import cathedral
from cathedral import Record
from cathedral.terminal import Session


def session(text: str, tmp_path, seats=("human", "random")) -> tuple[Session, str]:
    out = io.StringIO()
    s = Session(cathedral.load("classic"), list(seats), seed=3, color=False,
                record_path=tmp_path / "r.json", out=out, inp=io.StringIO(text))
    s.run()
    return s, out.getvalue()


def test_moves_are_played_and_the_record_kept_on_quit(tmp_path):
    _, out = session("Cathedral b1 b2 a3 b3 c3 b4\nmoves castle\nquit\n", tmp_path)
    assert "Dark (random) played" in out
    lines = [line.removeprefix("Light> ") for line in out.splitlines()]  # prompts end no line
    listed = [line for line in lines if line.startswith("Castle ")]
    assert listed and all(line.startswith("Castle ") for line in listed)
    assert f"({len(listed)} moves)" in out
    record = Record.from_json((tmp_path / "r.json").read_text())
    assert record.actions[0] == "Cathedral a3 b1 b2 b3 b4 c3" and len(record.actions) == 2


def test_undo_needs_a_move_of_ones_own(tmp_path):
    _, out = session("undo\nquit\n", tmp_path)
    assert "error: nothing of yours to undo" in out


def test_computer_players_alone_finish_the_game(tmp_path):
    s, out = session("", tmp_path, seats=("greedy", "random"))
    assert s.state.is_terminal()
    assert s.state.result_string() in out
    assert Record.from_json((tmp_path / "r.json").read_text()).final_state() == s.state
