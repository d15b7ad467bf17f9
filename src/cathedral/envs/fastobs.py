"""Speed-only observation helpers: the engines' ``observation_tensor`` computed with fewer numpy
calls, for the environments' hot loop.

Each function returns an array equal to ``state.observation_tensor(player)`` (the tests check
that on random positions of every game); ``FAST`` maps a game name to its helper, and games
without one use the engine's method.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cathedral.core.contract import State

_PLANE = 15 * 15
_ALLMER: dict[tuple[int, str, int], tuple[np.ndarray, np.ndarray]] = {}


def _allmer_tables(state: State, player: int) -> tuple[np.ndarray, np.ndarray]:
    """Returns (the planes that never change, with a spare plane at the end; point and colour
    -> flat index of its stone's cell, the spare plane for an empty point), built once per
    player count, field and observer."""
    cfg = state._cfg
    n = cfg.players
    key = (n, cfg.geo.field, player)
    tables = _ALLMER.get(key)
    if tables is None:
        from cathedral.games.allmer.geometry import COORDS

        empty = state.game.new_initial_state()
        empty.board = bytearray(len(empty.board))
        empty.termination = "over"  # no to-move plane: only the fixed planes are left
        template = np.zeros((2 * n + 6) * _PLANE, dtype=np.float32)
        template[: (2 * n + 5) * _PLANE] = empty.observation_tensor(player).ravel()
        spare = (2 * n + 5) * _PLANE
        cell = np.array([y * 15 + x for x, y in COORDS], dtype=np.intp)
        index = np.full((n + 1, len(COORDS)), spare, dtype=np.intp)
        for colour in range(1, n + 1):
            index[colour] = ((colour - 1 - player) % n) * _PLANE + cell
        tables = _ALLMER[key] = (template, index)
    return tables


def allmer(state: State, player: int) -> np.ndarray:
    """Allmer's observation: the fixed planes copied from a template, each stone one scatter."""
    from cathedral.games.allmer.geometry import COORDS

    n = state._cfg.players
    template, index = _allmer_tables(state, player)
    out = template.copy()
    colours = np.frombuffer(state.board, dtype=np.uint8)
    out[index[colours, _POINTS]] = 1.0
    if state.chain >= 0:
        base = (n + 3) * _PLANE
        touched = state.touched
        while touched:
            low = touched & -touched
            x, y = COORDS[low.bit_length() - 1]
            out[base + y * 15 + x] = 1.0
            touched ^= low
        x, y = COORDS[state.chain]
        out[base + _PLANE + y * 15 + x] = 1.0
    if state.termination is None:
        start = (n + 5 + (state.player - player) % n) * _PLANE
        out[start : start + _PLANE] = 1.0
    return out[: (2 * n + 5) * _PLANE].reshape(2 * n + 5, 15, 15)


_POINTS = np.arange(125, dtype=np.intp)

FAST: dict[str, Callable[[State, int], np.ndarray]] = {"allmer": allmer}
"""Game name -> its fast observation helper."""
