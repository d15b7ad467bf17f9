"""Reading a line at the prompt: with readline's line editing, history and Tab completion
when the input is a terminal and the platform has readline, else plain ``readline()``.

The completer is a plain function of the words the game offers now (commands, building names,
squares, the words of every legal move), so tests check it without a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TextIO

try:  # not on every platform (Windows without pyreadline); plain input then
    import readline as _readline
except ImportError:  # pragma: no cover - depends on the platform
    _readline = None

COMMANDS = ("moves", "hint", "undo", "save", "resign", "quit", "help")


def completions(text: str, words: Iterable[str]) -> list[str]:
    """Returns the candidate words starting with ``text`` (any case: ``cas`` offers
    ``Castle``), sorted, without repeats."""
    lowered = text.lower()
    return sorted({word for word in words if word.lower().startswith(lowered)})


def move_words(moves: Iterable[str]) -> set[str]:
    """Returns the words of move strings (building names, squares, keywords) plus commands."""
    words = set(COMMANDS)
    for move in moves:
        words.update(move.split())
    return words


class LineReader:
    """Reads lines from ``inp``; on an interactive terminal with readline, through ``input``.

    ``words`` is called at each Tab press for the words completion may offer.
    """

    def __init__(self, inp: TextIO, out: TextIO, words: Callable[[], Iterable[str]]) -> None:
        self.inp = inp
        self.out = out
        self.words = words
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

    def complete(self, text: str, index: int) -> str | None:
        """readline's completer: the ``index``-th completion of ``text``."""
        if index == 0:
            self._matches = completions(text, self.words())
        return self._matches[index] if index < len(self._matches) else None

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
