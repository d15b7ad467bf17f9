"""``cathedral replay``: a record's positions one at a time (Enter, ``b``, a number, ``q``), or
one position (``--to N``), or all of them; the result is printed once, and only under the
final position of a finished game."""

from __future__ import annotations

import inspect
import sys
from typing import TextIO

from cathedral.core.contract import State
from cathedral.terminal.records import read_record

PROMPT = "[Enter] next, b back, N go to position N, q quit> "


def next_index(index: int, answer: str | None, last: int) -> int | None:
    """Returns the position to show after ``answer`` at the prompt, or None to stop.

    Enter (or anything unknown) goes on, ``b`` goes back, a number goes there (clamped),
    ``q`` or the end of input (None) stops.
    """
    if answer is None:
        return None
    text = answer.strip().lower()
    if text in ("q", "quit", "exit"):
        return None
    if text in ("b", "back"):
        return max(0, index - 1)
    if text.isdecimal():
        return min(last, int(text))
    return min(last, index + 1)


def render(state: State, *, color: bool, size: tuple[int, int] | None) -> str:
    """Returns the board, fitted to a terminal of ``size`` (columns, rows) where the game's
    render takes one."""
    kwargs: dict = {"color": color}
    if size is not None:
        accepted = inspect.signature(state.render).parameters
        kwargs.update({key: value for key, value in zip(("width", "height"), size)
                       if key in accepted})
    return state.render(**kwargs)


def replay(path: str, *, to: int | None = None, every: bool = False, interactive: bool = True,
           color: bool = False, out: TextIO | None = None, inp: TextIO | None = None,
           size: tuple[int, int] | None = None) -> int:
    """Prints a record's positions; returns the exit status.

    Raises:
        RecordError: the file cannot be read, is not a record or does not replay.
    """
    out = out or sys.stdout
    inp = inp or sys.stdin
    record = read_record(path)
    states = list(record.replay())
    names = states[0].game.player_names()
    players = ", ".join(f"{n}: {p}" for n, p in zip(names, record.players))
    print(f"{record.game} {record.params} - {players}", file=out)
    last = len(states) - 1
    start = 0 if interactive or every else last
    index = max(0, min(to, last)) if to is not None else start
    while True:
        if index > 0:
            print(f"{index}. {record.actions[index - 1]}", file=out)
        board = render(states[index], color=color, size=size)
        print(board, file=out)
        if index == last and record.result:
            text = record.result.get("text", "")
            # A finished game's board already says its result; a resignation's does not.
            if text and text not in board and (states[last].is_terminal()
                                               or "resigned" in record.result):
                print(text, file=out)
        if not interactive:
            if every and index < last:
                index += 1
                continue
            break
        out.write(PROMPT)
        out.flush()
        try:
            line = inp.readline()
        except KeyboardInterrupt:
            line = ""
        step = next_index(index, line if line else None, last)
        if step is None:
            if not line:
                print(file=out)
            break
        index = step
    return 0
