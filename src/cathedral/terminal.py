"""A game in the terminal: seats (humans and computer players), the board, move entry and
the commands a human may type, and the record written at the end.

The command line (``cli``) builds a ``Session`` and runs it; tests may drive one directly
with other input and output streams.
"""

from __future__ import annotations

import os
import random
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

from cathedral.ai import hint, load_agent
from cathedral.core.contract import CHANCE, Game, State, ranked_returns
from cathedral.core.errors import CathedralError
from cathedral.core.record import Record
from cathedral.testing import random_action

HUMAN = "human"
LIST_LIMIT = 40  # legal choices listed at the prompt when there are at most this many

HELP = """Commands:
  <move>            a move in the game's notation (see 'cathedral rules {game}')
  moves [filter]    list the legal moves (only those containing the filter text)
  hint [level]      the move the computer would play, with its evaluation (level: medium)
  undo              take back your last move and the computer's replies
  save FILE         write the game so far as a record
  resign            give up this game
  quit              stop (the game so far is saved as a record)
  help              this text"""


def _records_dir() -> Path:
    base = os.environ.get("CATHEDRAL_RECORDS")
    if base:
        return Path(base)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "cathedral" / "records"


class Quit(Exception):
    """The human asked to stop."""


class Resign(Exception):
    """The human gave up."""


class Session:
    """One game in the terminal: seats, the state, input and output."""

    def __init__(
        self,
        game: Game,
        seats: list[str],
        *,
        seed: int | None,
        color: bool,
        record_path: Path | None,
        out=None,
        inp=None,
    ) -> None:
        self.game = game
        self.seats = seats
        self.names = game.player_names()
        self.rng = random.Random(seed)
        self.agents = {
            i: load_agent(seat, game, seed=None if seed is None else seed * 31 + i)
            for i, seat in enumerate(seats)
            if seat != HUMAN
        }
        self.color = color
        self.record_path = record_path
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.state = game.new_initial_state()
        self.resigned: int | None = None
        self.shown = -1  # history length when the board was last drawn

    # ----- output -------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.shown = len(self.state.history())
        if self.color:
            self.say("\x1b[2J\x1b[H" + self.state.render(color=True))
        else:
            self.say(self.state.render(color=False))

    # ----- the game loop ------------------------------------------------------------------

    def run(self) -> State:
        self.show()
        chance: list[str] = []
        try:
            while not self.state.is_terminal():
                player = self.state.current_player()
                if self.state.is_chance_node():
                    action = random_action(self.state, self.rng)
                    chance.append(f"({self.state.action_to_string(action)})")
                    self.state.apply_action(action)
                    continue
                self.tell_chance(chance)
                if player in self.agents:
                    action = self.agents[player].choose(self.state)
                    text = self.state.action_to_string(action)
                    self.state.apply_action(action)
                    self.show()
                    self.say(f"{self.names[player]} ({self.seats[player]}) played {text}")
                else:
                    self.human_turn(player)
            self.tell_chance(chance)
        except Quit:
            self.say("Stopped.")
        except Resign:
            self.say(f"{self.names[self.resigned]} resigns.")
        self.finish()
        return self.state

    def tell_chance(self, outcomes: list[str]) -> None:
        """Prints chance outcomes in a row (a setup, a roll) on a few lines, and forgets them."""
        if outcomes:
            self.say(textwrap.fill(" ".join(outcomes), width=100, initial_indent="  ",
                                   subsequent_indent="  "))
            outcomes.clear()

    def human_turn(self, player: int) -> None:
        if self.shown != len(self.state.history()):
            self.show()  # chance outcomes (dice, setup) changed the board since it was drawn
        legal = self.state.legal_actions()
        hint = self.state.prompt_hint()
        if hint:
            self.say(hint)
        if len(legal) <= LIST_LIMIT:
            self.say("Legal: " + ", ".join(self.state.action_to_string(a) for a in legal))
        else:
            self.say(f"{len(legal)} legal moves; type 'moves' to list them, 'help' for commands.")
        while True:
            self.out.write(f"{self.names[player]}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise Quit
            line = line.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command == "help":
                self.say(HELP.format(game=self.game.name))
            elif command == "moves":
                self.list_moves(rest.strip())
            elif command == "hint":
                self.hint(rest.strip() or "medium")
            elif command == "undo":
                if self.undo(player):
                    return
            elif command == "save":
                self.save(rest.strip())
            elif command == "resign":
                self.resigned = player
                raise Resign
            elif command in ("quit", "exit"):
                raise Quit
            else:
                try:
                    action = self.state.string_to_action(line)
                except CathedralError as exc:
                    self.say(f"error: {exc}")
                    continue
                self.state.apply_action(action)
                self.show()
                return

    def list_moves(self, needle: str) -> None:
        texts = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        if needle:
            texts = [t for t in texts if needle.lower() in t.lower()]
        self.say("\n".join(texts) if texts else f"no legal move matches {needle!r}")
        self.say(f"({len(texts)} moves)")

    def hint(self, level: str) -> None:
        if self.state.current_player() < 0:
            self.say("error: no player is to move")
            return
        try:
            info = hint(self.state, level)
        except CathedralError as exc:
            self.say(f"error: {exc}")
            return
        mover = self.state.current_player()
        line = [f"hint ({level}): {self.state.action_to_string(info.action)}",
                f"value for {self.names[mover]} {info.values[mover]:+.2f}"
                + (" (proven)" if info.proven else "")]
        if len(info.pv) > 1:
            replay = self.state.clone()
            texts = []
            for action in info.pv:
                if replay.is_terminal() or action not in replay.legal_actions():
                    break
                texts.append(replay.action_to_string(action))
                replay.apply_action(action)
            line.append("line: " + " | ".join(texts))
        self.say("; ".join(line))

    def undo(self, player: int) -> bool:
        """Takes back ``player``'s last decision and what followed; False if there is none."""
        history = self.state.history()
        replay = self.game.new_initial_state()
        movers = []
        for action in history:
            movers.append(replay.current_player())
            replay.apply_action(action)
        own = [i for i, mover in enumerate(movers) if mover == player]
        if not own:
            self.say("error: nothing of yours to undo")
            return False
        # A dice roll after the undone move would be rolled again: that is no take-back.
        if CHANCE in movers[own[-1] :]:
            self.say("error: cannot undo past a chance outcome (dice or a draw)")
            return False
        self.state = self.game.new_initial_state()
        for action in history[: own[-1]]:
            self.state.apply_action(action)
        self.show()
        self.say("Undone.")
        return True

    def save(self, path: str) -> None:
        if not path:
            self.say("error: save needs a file name, like 'save game.json'")
            return
        try:
            Path(path).write_text(self.record().to_json() + "\n", encoding="utf-8")
        except OSError as exc:
            self.say(f"error: could not write {path!r}: {exc.strerror}")
            return
        self.say(f"Saved to {path}")

    def record(self) -> Record:
        record = Record.from_state(
            self.state,
            players=list(self.seats),
            meta={"date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")},
        )
        if self.resigned is not None:
            scores = [0.0] * self.game.num_players
            scores[self.resigned] = -1.0
            record.result = {
                "returns": ranked_returns(scores),
                "scores": self.state.scores(),
                "text": f"{self.names[self.resigned]} resigned.",
                "resigned": self.resigned,
            }
        return record

    def finish(self) -> None:
        if self.state.is_terminal():
            self.say(self.state.result_string())
        path = self.record_path
        if path is None:
            directory = _records_dir()
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            path = directory / f"{self.game.name}-{stamp}-{os.getpid()}.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.record().to_json() + "\n", encoding="utf-8")
            self.say(f"Record written to {path}")
        except OSError as exc:
            self.say(f"error: could not write the record to {path}: {exc.strerror}")
