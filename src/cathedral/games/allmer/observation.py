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
