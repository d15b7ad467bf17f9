"""Every game's observation and action layouts, as tables and as the observation's bounds.

Each game declares its layouts as data (``Game.observation_layout()``: the named parts of
``observation_tensor`` in order, each a dict of ``name``, ``shape``, ``low``, ``high`` and
``meaning``; ``Game.action_layout()``: ``(name, first, last, meaning)`` per block of the action
space). This module turns them into what the front ends show and use, so that nothing is
written twice: the tables of ``cathedral rules GAME`` (``layout_text``) and the bounds of the
research interfaces' observation ``Box`` (``observation_bounds``). Only numpy is imported.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cathedral.core.contract import Game


def observation_parts(game: Game) -> list[dict[str, Any]]:
    """Returns the game's observation parts in order, each with its ``offset`` and ``size`` in
    the flattened tensor added; raises ValueError when they do not add up to its shape."""
    layout = getattr(game, "observation_layout", None)
    if layout is None:
        raise ValueError(f"game {game.name!r} declares no observation_layout()")
    parts, at = [], 0
    for part in layout():
        size = int(np.prod(part["shape"]))
        parts.append({**part, "offset": at, "size": size})
        at += size
    expected = int(np.prod(game.observation_shape()))
    if at != expected:
        raise ValueError(
            f"{game.name}'s observation layout covers {at} entries, its tensor has {expected}"
        )
    return parts


def action_blocks(game: Game) -> list[tuple[str, int, int, str]]:
    """Returns the game's action blocks ``(name, first, last, meaning)`` in order; raises
    ValueError unless they cover ``0 .. num_distinct_actions() - 1`` exactly once."""
    layout = getattr(game, "action_layout", None)
    if layout is None:
        raise ValueError(f"game {game.name!r} declares no action_layout()")
    blocks = list(layout())
    at = 0
    for name, first, last, _ in blocks:
        if first != at or last < first:
            raise ValueError(f"{game.name}'s action block {name!r} is {first}-{last}, "
                             f"expected to start at {at}")
        at = last + 1
    if at != game.num_distinct_actions():
        raise ValueError(f"{game.name}'s action blocks end at {at - 1}, expected "
                         f"{game.num_distinct_actions() - 1}")
    return blocks


def observation_bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """Returns ``(low, high)``, float32 arrays of ``game.observation_shape()``: the least and
    the most each entry of ``observation_tensor`` can be, from the declared layout (or
    ``-inf, inf`` for a game that declares none)."""
    shape = game.observation_shape()
    if getattr(game, "observation_layout", None) is None:
        return np.full(shape, -np.inf, np.float32), np.full(shape, np.inf, np.float32)
    low = np.empty(int(np.prod(shape)), dtype=np.float32)
    high = np.empty_like(low)
    for part in observation_parts(game):
        window = slice(part["offset"], part["offset"] + part["size"])
        low[window] = np.broadcast_to(part["low"], part["shape"]).ravel()
        high[window] = np.broadcast_to(part["high"], part["shape"]).ravel()
    return low.reshape(shape), high.reshape(shape)


def _number(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.4g}"


def _range(part: dict[str, Any]) -> str:
    low, high = np.asarray(part["low"]), np.asarray(part["high"])
    text = f"{_number(low.min())}–{_number(high.max())}"
    if low.min() != low.max() or high.min() != high.max():
        text += " (per entry)"
    return text


def observation_table(game: Game) -> str:
    """Returns the observation layout as a Markdown table: each part's name, shape, offset in
    the flat vector, range and meaning."""
    shape = " × ".join(str(d) for d in game.observation_shape())
    rows = [
        f"float32, shape ({shape}); flattened (C order), the parts lie at these offsets:",
        "",
        "| part | shape | offset | range | values |",
        "|---|---|---|---|---|",
    ]
    for part in observation_parts(game):
        dims = " × ".join(str(d) for d in part["shape"])
        last = part["offset"] + part["size"] - 1
        span = str(last) if part["size"] == 1 else f"{part['offset']}–{last}"
        rows.append(f"| `{part['name']}` | {dims} | {span} | {_range(part)} | "
                    f"{part['meaning']} |")
    return "\n".join(rows)


def action_table(game: Game) -> str:
    """Returns the action layout as a Markdown table: each block's name, ids and meaning."""
    rows = [
        f"{game.num_distinct_actions():,} actions (integers 0–{game.num_distinct_actions() - 1}"
        ", the same in every interface), in blocks:",
        "",
        "| block | ids | meaning |",
        "|---|---|---|",
    ]
    for name, first, last, meaning in action_blocks(game):
        ids = str(first) if first == last else f"{first}–{last}"
        rows.append(f"| `{name}` | {ids} | {meaning} |")
    return "\n".join(rows)


def layout_text(game: Game) -> str:
    """Returns the "Observation" and "Action" sections that ``cathedral rules GAME`` prints
    after the rules (Markdown, like them)."""
    params = ", ".join(f"{k}={v}" for k, v in game.params.items())
    return (
        f"## Observation\n\n`observation_tensor(player)` of {game.name} ({params}), seen by "
        f"`player`:\n\n{observation_table(game)}\n\n## Action\n\n{action_table(game)}\n"
    )
