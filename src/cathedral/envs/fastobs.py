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

# Byte -> its 8 bits, least significant first, as float32: one fancy index turns the bytes of
# a 100-bit board mask into a 0/1 plane.
_BYTE_BITS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)


def classic(state: State, player: int) -> np.ndarray:
    """Classic's observation: five 10 x 10 planes from the masks, then hands and two flags."""
    from cathedral.games.classic.rules import IN_HAND

    position = state.position
    me = player if player in (0, 1) else 0
    them = 1 - me
    buf = b"".join(
        mask.to_bytes(13, "little")
        for mask in (
            position.walls[me],
            position.walls[them],
            position.cathedral,
            position.territory[me],
            position.territory[them],
        )
    )
    planes = _BYTE_BITS[np.frombuffer(buf, dtype=np.uint8)].reshape(5, 104)
    hands = len(position.hands[me])
    out = np.empty(500 + 2 * hands + 2, dtype=np.float32)
    out[:500].reshape(5, 100)[:] = planes[:, :100]
    out[500 : 500 + 2 * hands] = position.hands[me] + position.hands[them]
    out[500 : 500 + 2 * hands] *= 0.5
    out[-2] = position.cathedral_state == IN_HAND
    out[-1] = position.to_move == me
    return out


FAST: dict[str, Callable[[State, int], np.ndarray]] = {"classic": classic}
"""Game name -> its fast observation helper."""
