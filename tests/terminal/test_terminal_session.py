"""A terminal Session driven in-process through its input and output streams: moves and
commands, the log of what happened since a player's last move, records on every way out,
resuming, Tab completion."""

from __future__ import annotations

import io
import random
import re

import pytest

import cathedral
from cathedral import Record
from cathedral.ai.base import Agent
from cathedral.terminal import Session, resume_game
from cathedral.terminal.lineedit import LineReader, completions, next_words
from cathedral.terminal.listing import columns, matches
from cathedral.testing import random_action


def session(text: str, tmp_path, seats=("human", "random"), game="classic", **kwargs):
    out = io.StringIO()
    inp = text if not isinstance(text, str) else io.StringIO(text)
    s = Session(cathedral.load(game, **kwargs.pop("params", {})), list(seats), seed=3,
                color=False, record_path=tmp_path / "r.json", out=out, inp=inp, **kwargs)
    s.run()
    return s, out.getvalue()


def listed_moves(out: str) -> list[str]:
    """Returns the moves a ``moves`` listing printed (in columns)."""
    found = []
    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.removeprefix("Light> ").strip())
        if all(re.fullmatch(r"[A-Z][a-z]+( [a-j]\d+)+", c) for c in cells if c) and cells[0]:
            found.extend(c for c in cells if c)
    return found


def test_moves_are_played_and_the_record_kept_on_quit(tmp_path):
    _, out = session("Cathedral b1 b2 a3 b3 c3 b4\nmoves castle\nquit\n", tmp_path)
    assert "Dark (random) played" in out
    listed = listed_moves(out)
    assert listed and all(move.startswith("Castle ") for move in listed)
    assert f"({len(listed)} moves)" in out
    record = Record.from_json((tmp_path / "r.json").read_text())
    assert record.actions[0] == "Cathedral a3 b1 b2 b3 b4 c3" and len(record.actions) == 2
    assert record.meta["seed"] == 3 and record.meta["stopped"] == "quit"
    assert f"Go on with: cathedral play --resume {tmp_path / 'r.json'}" in out


def test_the_moves_filter_matches_whole_words_and_squares(tmp_path):
    assert matches("Stable a1 a2", "stable a1")
    assert not matches("Stable a10 a9", "stable a1")
    assert not matches("Castle a1 a2", "cast")
    _, out = session("Cathedral b1 b2 a3 b3 c3 b4\nmoves tavern j1\nquit\n", tmp_path)
    listed = listed_moves(out)
    assert listed == ["Tavern j1"]
    assert "(1 move)" in out  # not "1 moves"


def test_columns_fit_the_width():
    texts = [f"Tavern {f}{r}" for f in "abc" for r in range(1, 11)]
    lines = columns(texts, 40)
    assert all(len(line) <= 40 for line in lines)
    assert sorted(word for line in lines for word in re.split(r"\s{2,}", line)) == sorted(texts)


def test_undo_needs_a_move_of_ones_own(tmp_path):
    _, out = session("undo\nquit\n", tmp_path)
    assert "error: nothing of yours to undo" in out


def test_computer_players_alone_finish_the_game(tmp_path):
    s, out = session("", tmp_path, seats=("greedy", "random"))
    assert s.state.is_terminal()
    assert out.count(s.state.result_string()) >= 1
    assert Record.from_json((tmp_path / "r.json").read_text()).final_state() == s.state


class Interrupting:
    """An input stream whose reader presses Ctrl-C after some lines."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)

    def readline(self) -> str:
        if not self.lines:
            raise KeyboardInterrupt
        return self.lines.pop(0) + "\n"


def test_ctrl_c_at_the_prompt_writes_the_record_and_says_where(tmp_path):
    s, out = session(Interrupting(["Cathedral b1 b2 a3 b3 c3 b4"]), tmp_path)
    assert s.ending == "interrupted"
    assert f"Record written to {tmp_path / 'r.json'}" in out
    record = Record.from_json((tmp_path / "r.json").read_text())
    assert len(record.actions) == 2 and record.meta["stopped"] == "interrupted"


class Failing(Agent):
    """A computer player that raises ``error`` when asked for a move."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error

    def choose(self, state):
        raise self.error


@pytest.mark.parametrize(
    ("error", "ending", "said"),
    [
        (KeyboardInterrupt(), "interrupted", "Interrupted."),
        (RuntimeError("out of cheese"), "crash",
         "error: the computer player of Dark (random) failed: RuntimeError: out of cheese"),
    ],
)
def test_ctrl_c_while_the_computer_thinks_or_its_crash_keeps_the_game(tmp_path, error, ending,
                                                                     said):
    out = io.StringIO()
    s = Session(cathedral.load("classic"), ["human", "random"], seed=3, color=False,
                record_path=tmp_path / "r.json", out=out,
                inp=io.StringIO("Cathedral b1 b2 a3 b3 c3 b4\n"))
    s.agents[1] = Failing(error)
    s.run()
    assert s.ending == ending
    assert said in out.getvalue()
    record = Record.from_json((tmp_path / "r.json").read_text())
    assert record.actions == ["Cathedral a3 b1 b2 b3 b4 c3"]
    assert record.meta["stopped"] == ending


def test_a_bad_hint_spec_is_one_line_and_the_game_goes_on(tmp_path):
    s, out = session("hint mcts:seconds=0\nhint alphabeta:depth=x\nCathedral b1 b2 a3 b3 c3 b4\n"
                     "quit\n", tmp_path)
    assert "error: agent 'mcts:seconds=0': bad value seconds=0 (expected a positive number)" in out
    assert "error: agent 'alphabeta:depth=x': bad value depth=x" in out
    assert len(s.state.history()) == 2 and s.ending == "quit"


def test_hint_says_its_value_scale(tmp_path):
    _, out = session("hint easy\nquit\n", tmp_path)
    out = out.replace("\n    ", " ")  # the line is wrapped to the terminal
    scale = r"0 a sure loss, 0\.5 even, 1 a sure win"
    assert re.search(r"expected score for Light [01]\.\d\d .*" + scale, out)


def test_hint_in_a_solved_classic_endgame_says_who_wins_by_how_much(tmp_path, classic_endgame):
    endgame = classic_endgame  # three placements before the end: solved at once
    seats = ["random", "random"]
    seats[endgame.current_player()] = "human"
    _, out = session("hint alphabeta:iterations=200000,endgame=0.5\nquit\n", tmp_path,
                     seats=tuple(seats), state=endgame)
    out = out.replace("\n    ", " ")
    assert re.search(r"expected score for (Light|Dark) (0|0\.5|1)\.\d\d \(proven\)", out)
    assert re.search(r"solved: (a draw|(Light|Dark) wins by \d+)", out)


def test_save_expands_the_home_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    _, out = session("Cathedral b1 b2 a3 b3 c3 b4\nsave ~/kept.json\nquit\n", tmp_path)
    assert f"Saved to {tmp_path / 'kept.json'}" in out
    assert Record.from_json((tmp_path / "kept.json").read_text()).actions[0].startswith("Cath")


def test_what_the_computer_did_is_shown_under_the_board(tmp_path):
    # Allmer with four players: three computer steps between two of White's, all shown.
    s, out = session("moves\n" + "\n".join(["quit"]) + "\n", tmp_path,
                     seats=("random", "random", "random", "human"), game="allmer",
                     params={"players": 4})
    for name in ("White", "Blue", "Black"):
        assert re.search(rf"{name} \(random\) played [a-o]\d+", out), name
    assert s.ending == "quit"


def test_a_whole_red_turn_is_shown_with_the_dice(tmp_path):
    _, out = session("quit\n", tmp_path, seats=("greedy", "human"), game="red",
                     params={"players": 2})
    log = out[out.rindex("The Red Cathedral"):]
    turn = re.search(r"Red \(greedy\) played (.+?)(?:\n\S|\Z)", log, re.S).group(1)
    assert "|" in turn  # several decisions of one turn on one line
    assert "(the setup: " in log  # the setup's draws summed up, not forty of them
    # Later on, every roll since a player's last look is there, among the players' actions.
    game = cathedral.load("red", players=2)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(200):
        state.apply_action(random_action(state, rng))
    s = Session(game, ["human", "human"], seed=1, color=False, record_path=None,
                out=io.StringIO(), inp=io.StringIO(""), state=state)
    events = "\n".join(s.events(120))
    assert re.search(r"\(roll \w+ \d\)", events)
    assert re.search(r"^Red \(human\) played ", events, re.M)
    assert re.search(r"^Blue \(human\) played ", events, re.M)


def test_classic_says_who_is_skipped(tmp_path):
    game = cathedral.load("classic")
    # Light walls off the whole board but a corner no Dark building fits (classic.md: a
    # player who cannot place passes); found by playing random games until it happens.
    for seed in range(200):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            action = random_action(state, rng)
            mover = state.current_player()
            text = state.describe_action(action)
            state.apply_action(action)
            if state.current_player() == mover and "Cathedral" not in text:
                other = "Dark" if mover == 0 else "Light"
                assert text.endswith(f"{other} cannot place and is skipped")
                return
    pytest.fail("no game with a skipped player in 200 random games")


def test_a_resumed_game_rolls_the_dice_the_whole_game_would_have(tmp_path):
    game = cathedral.load("red", players=2)
    whole = Session(game, ["random", "random"], seed=11, color=False,
                    record_path=tmp_path / "whole.json", out=io.StringIO())
    whole.run()
    history = whole.state.history()
    assert whole.state.is_terminal()
    part = game.new_initial_state()
    for action in history[:150]:
        part.apply_action(action)
    (tmp_path / "part.json").write_text(Record.from_state(part, players=["random", "random"],
                                                          meta={"seed": 11}).to_json())
    resumed = resume_game(tmp_path / "part.json")
    assert resumed.seed == 11 and resumed.players == ["random", "random"]
    again = Session(game, resumed.players, seed=resumed.seed, color=False,
                    record_path=tmp_path / "again.json", out=io.StringIO(), state=resumed.state)
    again.run()
    assert again.state.history() == history


def test_a_finished_game_is_not_resumed(tmp_path):
    session("", tmp_path, seats=("greedy", "random"))
    with pytest.raises(cathedral.RecordError, match="is over"):
        resume_game(tmp_path / "r.json")


def test_tab_completes_buildings_squares_and_commands():
    assert completions("Cas", ["Castle", "Cathedral", "c3"]) == ["Castle"]
    assert completions("ca", ["Castle", "Cathedral", "c3"]) == ["Castle", "Cathedral"]
    game = cathedral.load("classic")
    s = Session(game, ["human", "random"], seed=1, color=False, record_path=None,
                out=io.StringIO(), inp=io.StringIO(""))
    reader = s.reader
    assert isinstance(reader, LineReader) and not reader.editing  # not a terminal
    assert reader.complete("Cath", 0, before="") == "Cathedral"
    assert reader.complete("Cath", 1, before="") is None
    assert reader.complete("und", 0, before="") == "undo"
    # After the building, the squares of its legal placements through those typed so far.
    s.state.apply_action(s.state.string_to_action("Cathedral e4 d5 e5 f5 e6 e7"))
    s.state.apply_action(s.state.string_to_action("Castle a1 a2 b1 c1 c2"))
    s._words = None
    offered = {reader.complete("", i, before="Castle j10 ") for i in range(60)} - {None}
    castles = [m for m in s._move_texts() if m.startswith("Castle ") and " j10" in m]
    assert offered == {w for m in castles for w in m.split()[1:]} - {"j10"}
    assert "a1" not in offered and "Castle" not in offered
    assert next_words("moves ", ["Tavern a1"]) == {"Tavern", "a1"}


class FirstLegal:
    """An input stream that types the first legal move ``count`` times, then ``quit``."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.session: Session | None = None

    def readline(self) -> str:
        if self.count == 0:
            return "quit\n"
        self.count -= 1
        state = self.session.state
        return state.action_to_string(state.legal_actions()[0]) + "\n"


def test_a_turn_of_several_decisions_is_shown_whole(tmp_path):
    game = cathedral.load("red", players=2)
    inp = FirstLegal(3)
    out = io.StringIO()
    s = Session(game, ["human", "greedy"], seed=4, color=False, record_path=tmp_path / "r.json",
                out=out, inp=inp)
    inp.session = s
    s.run()
    mine = [i for i, m in enumerate(s.movers) if m == 0]
    assert len(mine) == 3
    last_look = out.getvalue().rsplit("The Red Cathedral", 1)[1]
    first_of_turn = s.lines[s.seen[0]]
    assert s.movers[s.seen[0]] == 0
    assert f"Red (human) played {first_of_turn}" in last_look.replace("\n    ", " ")


def test_a_record_that_cannot_be_written_where_asked_goes_to_the_records_folder(tmp_path,
                                                                               monkeypatch):
    monkeypatch.setenv("CATHEDRAL_RECORDS", str(tmp_path / "kept"))
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = io.StringIO()
    s = Session(cathedral.load("classic"), ["human", "random"], seed=3, color=False,
                record_path=blocker / "r.json", out=out,
                inp=io.StringIO("Cathedral b1 b2 a3 b3 c3 b4\nquit\n"))
    s.run()
    assert f"error: could not write the record to {blocker / 'r.json'}" in out.getvalue()
    assert s.written is not None and s.written.parent == tmp_path / "kept"
    assert len(Record.from_json(s.written.read_text()).actions) == 2
