"""One game in the terminal: the loop over seats, the prompt and its commands, what happened
since a player's last move, and the record written on every way out (the end, ``quit``,
Ctrl-D, Ctrl-C, a computer player that fails, a closed terminal).

Chance outcomes and computer players' random choices are drawn from generators seeded by the
session's seed and the number of actions played so far, so a game resumed from its record
with the same seed draws the same dice as the uninterrupted game would have, and players
without a time limit (random, greedy, searches limited by iterations or depth) choose the
same moves; a search limited by time reaches as far as the machine lets it, so its moves may
differ (and then the dice that follow need not match either).
"""

from __future__ import annotations

import contextlib
import inspect
import random
import signal
import sys
import textwrap
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from cathedral.ai import analyse, load_agent
from cathedral.core.contract import CHANCE, Game, State, ranked_returns
from cathedral.core.errors import CathedralError
from cathedral.core.record import Record
from cathedral.terminal.lineedit import LineReader
from cathedral.terminal.listing import columns, matches, page
from cathedral.terminal.records import default_record_path, records_dir
from cathedral.testing import random_action

HUMAN = "human"
LIST_LIMIT = 40  # legal choices listed at the prompt when there are at most this many
WIDTH = 100  # the width text is wrapped to when the terminal's is unknown
SETUP_LINES = 12  # more chance outcomes in a row than this are a setup, summed up in one line

HELP = """Commands:
  <move>            a move in the game's notation (see 'cathedral rules {game}'); Tab completes
  moves [words]     list the legal moves (only those with every word, e.g. 'moves castle a1')
  hint [level]      the move the computer would play and its value (level: medium)
  undo              take back your last move and the computer's replies
  board             the whole board again (on a small terminal some parts are left out)
  save FILE         write the game so far as a record (go on later with 'cathedral play --resume')
  resign            give up this game
  quit              stop (the game so far is saved as a record; Ctrl-C and Ctrl-D do the same)
  help              this text"""


def plural(count: int, word: str, many: str | None = None) -> str:
    """Returns ``1 move``, ``2 moves`` (``many`` for irregular plurals)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


class Quit(Exception):
    """The human asked to stop (``quit`` or the end of input)."""


class Resign(Exception):
    """The human gave up."""


class Hangup(BaseException):
    """The terminal was closed (SIGHUP) or the process told to stop (SIGTERM).

    A BaseException, like KeyboardInterrupt, so that no ``except Exception`` in a computer
    player swallows it.
    """


class AgentFailed(Exception):
    """A computer player raised instead of choosing a move."""


@contextlib.contextmanager
def _stop_signals() -> Iterator[None]:
    """Turns SIGHUP and SIGTERM into ``Hangup`` while a game runs (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Hangup(signal.Signals(signum).name)

    names = [n for n in ("SIGHUP", "SIGTERM") if hasattr(signal, n)]
    old = {n: signal.signal(getattr(signal, n), stop) for n in names}
    try:
        yield
    finally:
        for n, handler in old.items():
            signal.signal(getattr(signal, n), handler)


class Session:
    """One game in the terminal: seats, the state, input and output.

    Args:
        game: the game with its parameters.
        seats: one entry per player: ``"human"`` or a computer player's name or spec.
        seed: the seed of chance and of computer players (None: drawn, and kept in the record).
        color: ANSI colours, and the screen cleared before each board.
        record_path: where the record goes (None: a new file under ``records_dir()``).
        out, inp: the streams (default: the terminal).
        state: a position to go on from (a resumed game); default the start.
        size: the terminal's (columns, rows), for games that fit their board to it.
        meta: extra record metadata (where a resumed game came from).
    """

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
        state: State | None = None,
        size: tuple[int, int] | None = None,
        meta: dict | None = None,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.names = game.player_names()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.agents = {
            i: load_agent(seat, game, seed=self.seed + i)
            for i, seat in enumerate(self.seats)
            if seat != HUMAN
        }
        self.color = color
        self.record_path = record_path
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.size = size
        self.width = size[0] if size else WIDTH
        self.meta = dict(meta or {})
        self.resigned: int | None = None
        self.ending = "finished"  # or quit, interrupted, hangup, crash, resigned
        self.written: Path | None = None
        self.reader = LineReader(self.inp, self.out, self._move_texts,
                                 history=records_dir().parent / "history")
        self._words: list[str] | None = None
        # What each action did, for people, and who took it: the log players read.
        self.lines: list[str] = []
        self.movers: list[int] = []
        self.state = game.new_initial_state()
        for action in (state.history() if state is not None else []):
            self._apply(action)
        # A player sees what happened since their own last action (a resumed game: since then).
        self.seen = {p: 0 for p in range(game.num_players)}
        previous = None
        for index, mover in enumerate(self.movers):
            if mover >= 0:
                if mover != previous:
                    self.seen[mover] = index  # the start of their last run of decisions
                previous = mover
        self.shown = len(self.lines)  # the log up to here is on the screen
        self.last_board = ""

    # ----- output -------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        # The terminal may be gone (a hangup): the record is what matters then.
        with contextlib.suppress(OSError, ValueError):
            print(text, file=self.out, flush=True)

    def board(self, *, full: bool = False) -> str:
        """Returns the board, fitted to the terminal where the game's render takes a size
        (``full``: the width only, so nothing is left out for want of rows)."""
        kwargs: dict = {"color": self.color}
        if self.size:
            accepted = inspect.signature(self.state.render).parameters
            if "width" in accepted:
                kwargs["width"] = self.size[0]
            if "height" in accepted and not full:
                kwargs["height"] = self.size[1]
        return self.state.render(**kwargs)

    def wrap(self, text: str) -> str:
        """Returns ``text`` wrapped at word boundaries to the terminal's width."""
        return textwrap.fill(text, width=max(40, self.width - 1), subsequent_indent="    ",
                             break_on_hyphens=False, break_long_words=False)

    def show(self, since: int) -> None:
        """Draws the board, then everything that happened from history index ``since`` on."""
        text = self.board()
        self.last_board = text
        self.say(("\x1b[2J\x1b[H" if self.color else "") + text)
        events = self.events(since)
        if events:
            self.say("\n".join(events))
        self.shown = len(self.lines)

    def events(self, since: int) -> list[str]:
        """Returns the log from history index ``since``: one line per player's run of actions
        (with the chance outcomes among them), wrapped to the terminal."""
        groups: list[tuple[int, list[str]]] = []
        for mover, line in zip(self.movers[since:], self.lines[since:]):
            if mover == CHANCE:
                if not groups or groups[-1][0] != CHANCE:
                    groups.append((CHANCE, []))
                groups[-1][1].append(f"({line})")
            elif groups and groups[-1][0] == mover:
                groups[-1][1].append(line)
            else:
                groups.append((mover, [line]))
        out = []
        for mover, texts in groups:
            if mover == CHANCE and len(texts) > SETUP_LINES:
                # A game's setup (Red's tiles, cards and plan): the board shows what was drawn.
                head, body = "", f"(the setup: {len(texts)} chance outcomes, shown on the board)"
            elif mover == CHANCE:
                head, body = "", " ".join(texts)
            else:
                head, body = f"{self.names[mover]} ({self.seats[mover]}) played ", " | ".join(texts)
            out.append(textwrap.fill(head + body, width=max(40, self.width - 1),
                                     subsequent_indent="    ", break_on_hyphens=False))
        return out

    # ----- the game loop ------------------------------------------------------------------

    def run(self) -> State:
        """Plays until the end or a way out, writes the record, returns the final state."""
        humans = [p for p, seat in enumerate(self.seats) if seat == HUMAN]
        try:
            with _stop_signals():
                if not humans:
                    self.show(max(0, len(self.lines) - 1))
                while not self.state.is_terminal():
                    player = self.state.current_player()
                    if player == CHANCE:
                        self._apply(self.chance_action())
                    elif player in self.agents:
                        self.computer_turn(player)
                        if not humans:
                            self.show(self.shown)
                    else:
                        self.human_turn(player)
                if humans:
                    self.show(min(self.seen[p] for p in humans))
                elif self.shown < len(self.lines):
                    self.show(self.shown)
        except Quit:
            self.ending = "quit"
            self.say("Stopped.")
        except Resign:
            self.ending = "resigned"
            self.say(f"{self.names[self.resigned]} resigns.")
        except KeyboardInterrupt:
            self.ending = "interrupted"
            self.say("\nInterrupted.")
        except Hangup as exc:
            self.ending = "hangup"
            self.say(f"\nStopped by {exc}.")
        except AgentFailed as exc:
            self.ending = "crash"
            self.say(f"error: {exc}")
        try:
            self.finish()
        except KeyboardInterrupt:  # Ctrl-C again while the record was being written
            self.finish()
        finally:
            for agent in self.agents.values():
                agent.close()  # processes of searches that use every core
        return self.state

    def chance_action(self) -> int:
        """Returns the chance outcome for this point of the game: a function of the seed and
        the number of actions so far, so a resumed game rolls what the whole one would."""
        rng = random.Random(f"{self.seed}:chance:{len(self.state.history())}")
        return random_action(self.state, rng)

    def computer_turn(self, player: int) -> None:
        agent = self.agents[player]
        agent.rng.seed(f"{self.seed}:{player}:{len(self.state.history())}")
        waiting = self.color and self.seats[player] not in ("random", "greedy", "easy")
        if waiting:
            self.out.write(f"{self.names[player]} ({self.seats[player]}) is thinking...\r")
            self.out.flush()
        try:
            action = agent.choose(self.state.clone())
            self.state.clone().apply_action(action)  # legal, or the agent is broken
        except (KeyboardInterrupt, Hangup):
            raise
        except Exception as exc:
            raise AgentFailed(
                f"the computer player of {self.names[player]} ({self.seats[player]}) failed: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        finally:
            if waiting:
                self.out.write("\x1b[2K")
        self._apply(action)

    def _apply(self, action: int) -> None:
        """Plays an action, keeping what it did for the log."""
        mover = self.state.current_player()
        try:
            text = self.state.describe_action(action)
        except Exception:  # a description is a courtesy; never lose a move over it
            text = self.state.action_to_string(action)
        self.state.apply_action(action)
        self.lines.append(text)
        self.movers.append(mover)
        self._words = None

    def human_turn(self, player: int) -> None:
        self.show(self.seen[player])
        legal = self.state.legal_actions()
        prompt_hint = self.state.prompt_hint()
        if prompt_hint:
            self.say(self.wrap(prompt_hint))
        if len(legal) <= LIST_LIMIT:
            self.say(self.wrap("Legal: " + ", ".join(self.state.action_to_string(a)
                                                     for a in legal)))
        else:
            self.say(f"{plural(len(legal), 'legal move')}; type 'moves' to list them, "
                     "'help' for commands.")
        while True:
            line = self.reader.read(f"{self.names[player]}> ")
            if line is None:
                self.say()
                raise Quit
            line = line.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            command = word.lower()
            rest = rest.strip()
            if command == "help":
                self.say(HELP.format(game=self.game.name))
            elif command == "board":
                self.say(self.board(full=True))
            elif command == "moves":
                self.list_moves(rest)
            elif command == "hint":
                self.hint(rest or "medium")
            elif command == "undo":
                if self.undo(player):
                    return
            elif command == "save":
                self.save(rest)
            elif command == "resign":
                self.resigned = player
                raise Resign
            elif command in ("quit", "exit"):
                raise Quit
            else:
                try:
                    action = self.state.string_to_action(line)
                except CathedralError as exc:
                    self.say(self.wrap(f"error: {exc}"))
                    continue
                self.seen[player] = self._run_start(player)
                self._apply(action)
                return

    def _run_start(self, player: int) -> int:
        """Returns where ``player``'s run of decisions that ends now began (a turn of several
        decisions is one move: the next look starts at its first decision)."""
        start = len(self.lines)
        for index in range(len(self.movers) - 1, -1, -1):
            if self.movers[index] == player:
                start = index
            elif self.movers[index] >= 0:
                break
        return start

    def _move_texts(self) -> list[str]:
        """Returns the legal moves' notation (kept until the next action, for Tab)."""
        if self._words is None:
            self._words = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        return self._words

    # ----- commands -----------------------------------------------------------------------

    def list_moves(self, needle: str) -> None:
        texts = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        if needle:
            texts = [t for t in texts if matches(t, needle)]
        if not texts:
            self.say(f"no legal move has every word of {needle!r}")
            return
        height = self.size[1] - 2 if self.size else None
        page([*columns(texts, self.width), f"({plural(len(texts), 'move')})"], height,
             self.say, self.reader.read)

    def hint(self, level: str) -> None:
        mover = self.state.current_player()
        if mover < 0:
            self.say("error: no player is to move")
            return
        try:
            found = analyse(self.state, level)
        except CathedralError as exc:
            self.say(f"error: {exc}")
            return
        except KeyboardInterrupt:
            self.say("\nhint stopped")
            return
        except Exception as exc:  # a broken search must not end the game
            self.say(f"error: the {level!r} search failed: {type(exc).__name__}: {exc}")
            return
        # the analysis scale of every front end: expected score, 0 to 1
        scale = ("0 a sure loss, 0.5 even, 1 a sure win" if self.game.num_players == 2
                 else "0 sure last, 0.5 middling, 1 sure first")
        line = [f"hint ({level}): {found.move}",
                f"expected score for {self.names[mover]} {found.expected[mover]:.2f}"
                + (" (proven)" if found.proven else "") + f" (on a scale of {scale})"]
        if found.solved:
            line.append(found.solved)
        if len(found.pv) > 1:
            line.append("line: " + " | ".join(found.pv))
        self.say(self.wrap("; ".join(line)))

    def undo(self, player: int) -> bool:
        """Takes back ``player``'s last decision and what followed; False if there is none."""
        own = [i for i, mover in enumerate(self.movers) if mover == player]
        if not own:
            self.say("error: nothing of yours to undo")
            return False
        # A dice roll after the undone move would be rolled again: that is no take-back.
        if CHANCE in self.movers[own[-1]:]:
            self.say("error: cannot undo past a chance outcome (dice or a draw)")
            return False
        history = self.state.history()[: own[-1]]
        self.state = self.game.new_initial_state()
        for action in history:
            self.state.apply_action(action)
        del self.lines[own[-1]:], self.movers[own[-1]:]
        self._words = None
        for p in self.seen:
            self.seen[p] = min(self.seen[p], len(self.lines))
        earlier = [i for i, mover in enumerate(self.movers) if mover == player]
        self.seen[player] = earlier[-1] if earlier else 0
        self.shown = len(self.lines)
        self.say("Undone.")
        return True

    def save(self, path: str) -> None:
        if not path:
            self.say("error: save needs a file name, like 'save game.json'")
            return
        target = Path(path).expanduser()
        try:
            target.write_text(self.record().to_json() + "\n", encoding="utf-8")
        except OSError as exc:
            self.say(f"error: could not write {str(target)!r}: {exc.strerror}")
            return
        self.say(f"Saved to {target} (go on later with: cathedral play --resume {target})")

    def record(self) -> Record:
        meta = {"date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "seed": self.seed}
        meta.update(self.meta)
        if not self.state.is_terminal() and self.ending != "finished":
            meta["stopped"] = self.ending
        record = Record.from_state(self.state, players=list(self.seats), meta=meta)
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
        """Writes the record and says where (and how to go on, if the game is unfinished)."""
        self.reader.save_history()
        result = self.state.result_string()
        if self.state.is_terminal() and result not in self.last_board:
            self.say(result)  # once: most games' boards already end with it
        text = self.record().to_json() + "\n"
        fallback = default_record_path(self.game.name)
        path = self.record_path or fallback
        while True:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                # Written aside and renamed, so a second interruption never leaves half a record.
                partial = path.with_name(path.name + ".part")
                partial.write_text(text, encoding="utf-8")
                partial.replace(path)
                break
            except OSError as exc:
                self.say(f"error: could not write the record to {path}: {exc.strerror}")
                if path == fallback:
                    return
                path = fallback  # the game is not lost for a bad --record
                self.say(f"Writing it under {fallback.parent} instead.")
        self.written = path
        self.say(f"Record written to {path}")
        if not self.state.is_terminal() and self.resigned is None:
            self.say(f"Go on with: cathedral play --resume {path}")
