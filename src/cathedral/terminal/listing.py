"""The ``moves`` command's list: filtered by whole words, laid out in columns to the
terminal's width, shown a page at a time when it is taller than the terminal."""

from __future__ import annotations

from collections.abc import Callable


def matches(move: str, needle: str) -> bool:
    """Returns whether every word of ``needle`` is a whole word of ``move`` (any case), so
    ``stable a1`` matches ``Stable a1 a2`` but not ``Stable a10 a9``."""
    words = {word.lower() for word in move.split()}
    return all(word.lower() in words for word in needle.split())


def columns(texts: list[str], width: int) -> list[str]:
    """Returns ``texts`` as lines of columns (filled down first) no wider than ``width``."""
    if not texts:
        return []
    cell = max(len(t) for t in texts) + 2
    per_line = max(1, (width + 2) // cell)
    rows = -(-len(texts) // per_line)
    lines = []
    for r in range(rows):
        row = [texts[c * rows + r] for c in range(per_line) if c * rows + r < len(texts)]
        lines.append("".join(t.ljust(cell) for t in row).rstrip())
    return lines


def page(lines: list[str], height: int | None, say: Callable[[str], None],
         ask: Callable[[str], str | None]) -> None:
    """Prints ``lines``, stopping after each screenful (``height`` lines, None: never) to ask
    whether to go on: Enter goes on, ``q`` (or the end of input) stops."""
    if height is None or len(lines) <= height:
        for line in lines:
            say(line)
        return
    step = max(1, height - 1)
    for start in range(0, len(lines), step):
        for line in lines[start : start + step]:
            say(line)
        if start + step >= len(lines):
            return
        answer = ask(f"-- {start + step} of {len(lines)} lines; Enter for more, q to stop -- ")
        if answer is None or answer.strip().lower().startswith("q"):
            return
