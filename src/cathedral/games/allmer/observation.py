"""Allmer's Cathedral's observation tensor: ``2n + 5`` planes of 15 x 15 over the box.

Seen from ``player`` (colours numbered from it on in turn order), in the order of
``AllmerGame.observation_planes``: each colour's stones, the points of the cross, the strong
points, the passage mouths, the points touched by the chain in progress, the chaining stone,
and one plane per player, all ones for the player to move.

The research interfaces call it at every step, so the planes that never change are copied
from a template built once per player count, field and observer, and every stone is one
scatter into it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cathedral.games.allmer.geometry import COORDS, GEOMETRIES, MOUTHS, NUM_POINTS, SIZE

if TYPE_CHECKING:
    from cathedral.games.allmer.state import AllmerState

_PLANE = SIZE * SIZE


def plane_names(players: int) -> list[str]:
    """Returns the name of each plane, in order (``AllmerGame.observation_planes``)."""
    return (
        [f"stones_{k}" for k in range(players)]
        + ["on_board", "strong", "passage_mouths", "touched", "chaining_stone"]
        + [f"to_move_{k}" for k in range(players)]
    )


_MEANINGS = {
    "on_board": "1 on the 125 points of the cross (the rest of the box is 0)",
    "strong": "1 on the strong points of the field played",
    "passage_mouths": "1 on the eight passage mouths",
    "touched": "1 on the points the chain in progress has touched",
    "chaining_stone": "1 on the stone that is chaining (all 0 outside a chain)",
}


def observation_layout(players: int) -> tuple[dict, ...]:
    """Returns the planes as named parts (dicts of ``name``, ``shape``, ``low``, ``high``,
    ``meaning``), each a 15 x 15 plane of 0/1 over the box, row by row from the north."""
    parts = []
    for name in plane_names(players):
        kind, _, k = name.rpartition("_")
        if kind == "stones":
            who = "the observer" if k == "0" else f"the player {k} after the observer"
            meaning = f"1 on the stones of {who} (in turn order)"
        elif kind == "to_move":
            who = "the observer" if k == "0" else f"the player {k} after the observer"
            meaning = f"all 1 when {who} is to move (all 0 once the game is over)"
        else:
            meaning = _MEANINGS[name]
        parts.append({"name": name, "shape": (SIZE, SIZE), "low": 0.0, "high": 1.0,
                      "meaning": meaning})
    return tuple(parts)
_CELL = np.array([y * SIZE + x for x, y in COORDS], dtype=np.intp)
_POINTS = np.arange(NUM_POINTS, dtype=np.intp)
_TABLES: dict[tuple[int, str, int], tuple[np.ndarray, np.ndarray]] = {}


def _tables(players: int, field: str, player: int) -> tuple[np.ndarray, np.ndarray]:
    """Returns (the fixed planes with a spare plane at the end; colour and point -> flat index
    of its stone's cell, the spare plane for an empty point), built once per key."""
    key = (players, field, player)
    tables = _TABLES.get(key)
    if tables is None:
        n = players
        template = np.zeros((2 * n + 6) * _PLANE, dtype=np.float32)
        template[n * _PLANE + _CELL] = 1.0
        strong = [p for p, s in enumerate(GEOMETRIES[field].strong) if s]
        template[(n + 1) * _PLANE + _CELL[strong]] = 1.0
        template[(n + 2) * _PLANE + _CELL[list(MOUTHS)]] = 1.0
        spare = (2 * n + 5) * _PLANE
        index = np.full((n + 1, NUM_POINTS), spare, dtype=np.intp)
        for colour in range(1, n + 1):
            index[colour] = ((colour - 1 - player) % n) * _PLANE + _CELL
        tables = _TABLES[key] = (template, index)
    return tables


def observe(state: AllmerState, player: int) -> np.ndarray:
    """Returns the planes of ``state`` seen by ``player``, shaped (2n + 5, 15, 15)."""
    cfg = state._cfg
    n = cfg.players
    template, index = _tables(n, cfg.geo.field, player)
    out = template.copy()
    colours = np.frombuffer(state.board, dtype=np.uint8)
    out[index[colours, _POINTS]] = 1.0
    if state.chain >= 0:
        base = (n + 3) * _PLANE
        touched = state.touched
        while touched:
            low = touched & -touched
            out[base + _CELL[low.bit_length() - 1]] = 1.0
            touched ^= low
        out[base + _PLANE + _CELL[state.chain]] = 1.0
    if state.termination is None:
        start = (n + 5 + (state.player - player) % n) * _PLANE
        out[start : start + _PLANE] = 1.0
    return out[: (2 * n + 5) * _PLANE].reshape(2 * n + 5, SIZE, SIZE)
