"""What the server reads from a client before anything else sees it: JSON text and game ids.

``checked_json`` is the one JSON reader for bodies, socket messages and uploaded records.
Beyond parsing it refuses what would break something further in: nesting deeper than
``MAX_DEPTH`` (every reader of the value recurses), ``NaN`` and infinities
(stored, they are served back as invalid JSON), and text holding NUL, other control
characters or lone surrogates (a database refuses to store them, a page shows garbage).
Tab, newline and carriage return are the control characters free text may hold.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from cathedral.server.errors import Malformed, NotFound

MAX_DEPTH = 32
#: A game id as the server makes them (``secrets.token_urlsafe``); anything else is unknown
#: before it reaches the database.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_BAD_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def nesting(text: str) -> int:
    """Returns how deep arrays and objects nest in JSON ``text`` (brackets inside strings do
    not count); linear, and never recursive."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def text_problem(text: str) -> str | None:
    """Says what is wrong with a piece of client text (a control character or a lone
    surrogate), or None."""
    bad = _BAD_TEXT.search(text)
    if bad is None:
        return None
    code = ord(bad.group())
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate (U+{code:04X}) is not text"
    return f"control character U+{code:04X} is not allowed in text"


def _too_deep(what: str, depth: int | None = None) -> Malformed:
    deep = f"{depth}" if depth else f"more than {MAX_DEPTH}"
    return Malformed(f"{what} nests {deep} levels deep: at most {MAX_DEPTH} are read")


def _check_values(value: Any, where: str, what: str, depth: int = 0) -> None:
    if isinstance(value, (dict, list)):
        depth += 1
        if depth > MAX_DEPTH:
            raise _too_deep(what)
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            raise Malformed(f"bad {what}: {where or 'the text'}: {problem}")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise Malformed(f"bad {what}: {where or 'a number'}: numbers must be finite")
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem(key)
            if problem:
                raise Malformed(f"bad {what}: a field name: {problem}")
            _check_values(item, f"{where}.{key}" if where else key, what, depth)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_values(item, f"{where}[{index}]", what, depth)


def checked_json(data: bytes | str, what: str = "request body") -> Any:
    """Parses client JSON, refusing (``Malformed``) anything but UTF-8 JSON nested at most
    ``MAX_DEPTH`` deep with finite numbers and clean text."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Malformed(f"{what} is not UTF-8 text: send JSON") from None
    # Python's parser, in C, gives up with a RecursionError some thousand levels down, at
    # once; within that the walk over the value counts the depth. Only text that is not
    # JSON is scanned for its depth, for the message.
    try:
        value = json.loads(data, parse_constant=_refuse_constant)
    except RecursionError:
        raise _too_deep(what) from None
    except ValueError as exc:  # JSONDecodeError, a constant, an integer too long to read
        if data.count("[") + data.count("{") > MAX_DEPTH:
            depth = nesting(data)
            if depth > MAX_DEPTH:
                raise _too_deep(what, depth) from None
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise Malformed(f"{what} is not JSON ({reason}): send a JSON object") from None
    _check_values(value, "", what)
    return value


def checked_game_id(game_id: str) -> str:
    """Returns ``game_id`` if it can be a game's id, else raises ``NotFound`` without asking
    the database (a NUL byte or a megabyte of text never reaches it)."""
    if GAME_ID.fullmatch(game_id) is None:
        shown = game_id[:64] + ("..." if len(game_id) > 64 else "")
        raise NotFound(f"no game {shown!r}: check the game's address")
    return game_id
