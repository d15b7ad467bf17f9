"""Reading a line at the prompt: with readline's line editing, history and Tab completion
when the input is a terminal and the platform has readline, else plain ``readline()``. The
lines typed are kept in a history file (beside the records folder) for the next game.

The completer is a plain function of the words the game offers now (commands, building names,
squares, the words of every legal move), so tests check it without a terminal.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

try:  # not on every platform (Windows without pyreadline); plain input then
    import readline as _readline
except ImportError:  # pragma: no cover - depends on the platform
    _readline = None

COMMANDS = ("moves", "hint", "undo", "board", "save", "resign", "quit", "help")


def completions(text: str, words: Iterable[str]) -> list[str]:
    """Returns the candidate words starting with ``text`` (any case: ``cas`` offers
    ``Castle``), sorted, without repeats."""
    lowered = text.lower()
    return sorted({word for word in words if word.lower().startswith(lowered)})


def next_words(before: str, moves: Iterable[str]) -> set[str]:
    """Returns the words that may come next after the words typed so far (``before``).

    The first word may be a command or the first word of any legal move; after it, the words
    of the legal moves that start with that word and hold every word typed (in any order,
    as squares may be), less those already typed: ``Castle b2`` offers the squares of the
    castles through b2. After ``moves`` or ``hint``, the words of any move.
    """
    typed = [word.lower() for word in before.split()]
    moves = list(moves)
    if not typed:
        return set(COMMANDS) | {move.split()[0] for move in moves if move.split()}
    if typed[0] in ("moves", "hint"):
        return {word for move in moves for word in move.split()}
    out = set()
    for move in moves:
        words = move.split()
        lowered = [word.lower() for word in words]
        if lowered and lowered[0] == typed[0] and all(word in lowered for word in typed[1:]):
            out.update(w for w, low in zip(words[1:], lowered[1:]) if low not in typed[1:])
    return out


class LineReader:
    """Reads lines from ``inp``; on an interactive terminal with readline, through ``input``.

    ``moves`` is called at each Tab press for the legal moves' notation, which completion
    offers word by word (see ``next_words``).
    """

    def __init__(self, inp: TextIO, out: TextIO, moves: Callable[[], Iterable[str]],
                 history: Path | None = None) -> None:
        self.inp = inp
        self.out = out
        self.moves = moves
        self.history = history
        # input() reads sys.stdin and writes sys.stdout: only those streams get line editing.
        self.editing = (
            _readline is not None
            and inp is sys.stdin and out is sys.stdout
            and _is_tty(inp) and _is_tty(out)
        )
        self._matches: list[str] = []
        if self.editing:
            _readline.set_completer(self.complete)
            _readline.set_completer_delims(" \t\n")
            if "libedit" in (getattr(_readline, "__doc__", "") or ""):
                _readline.parse_and_bind("bind ^I rl_complete")  # macOS
            else:
                _readline.parse_and_bind("tab: complete")
            if history is not None and history.exists():
                with contextlib.suppress(OSError):
                    _readline.read_history_file(history)

    def complete(self, text: str, index: int, before: str | None = None) -> str | None:
        """readline's completer: the ``index``-th completion of ``text``, the word being
        typed; ``before`` is the line before it (read from readline when not given)."""
        if index == 0:
            if before is None:
                line = _readline.get_line_buffer() if _readline is not None else ""
                start = _readline.get_begidx() if _readline is not None else 0
                before = line[:start]
            self._matches = completions(text, next_words(before, self.moves()))
        return self._matches[index] if index < len(self._matches) else None

    def save_history(self) -> None:
        """Keeps the lines typed (moves and commands) for the next game's up arrow."""
        if self.editing and self.history is not None:
            with contextlib.suppress(OSError):
                self.history.parent.mkdir(parents=True, exist_ok=True)
                _readline.set_history_length(1000)
                _readline.write_history_file(self.history)

    def read(self, prompt: str) -> str | None:
        """Returns the next line without its newline, or None at the end of input (Ctrl-D).

        Ctrl-C raises KeyboardInterrupt, as everywhere.
        """
        if self.editing:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        return line.rstrip("\r\n")


def _is_tty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False
