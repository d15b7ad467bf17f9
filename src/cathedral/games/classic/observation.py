"""Classic Cathedral's observation tensor: one flat float32 vector, its layout declared as data.

Seen from one colour (``me``), in the order of ``OBSERVATION_LAYOUT``: five 10 x 10 planes (own
buildings, the opponent's, the Cathedral, own territory, the opponent's; square ``s`` at index
``s``), each colour's hand as the count of each building kind halved, whether the Cathedral is
still to be placed, and whether ``me`` is to move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cathedral.games.classic.pieces import IN_HAND, PLAYER_BUILDINGS

if TYPE_CHECKING:
    from cathedral.games.classic.state import Position

OBSERVATION_LAYOUT: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("own_buildings", (10, 10)),
    ("opponent_buildings", (10, 10)),
    ("cathedral", (10, 10)),
    ("own_territory", (10, 10)),
    ("opponent_territory", (10, 10)),
    ("own_hand", (len(PLAYER_BUILDINGS),)),
    ("opponent_hand", (len(PLAYER_BUILDINGS),)),
    ("cathedral_to_place", (1,)),
    ("to_move", (1,)),
)
"""The named parts of the vector, in order, each with its shape."""
OBSERVATION_SIZE = sum(int(np.prod(shape)) for _, shape in OBSERVATION_LAYOUT)

_MEANINGS = {
    "own_buildings": "1 where the observer's buildings stand (a1 first, rank by rank)",
    "opponent_buildings": "1 where the opponent's buildings stand",
    "cathedral": "1 where the Cathedral stands",
    "own_territory": "1 on the observer's territory",
    "opponent_territory": "1 on the opponent's territory",
    "own_hand": "the observer's unplaced buildings, the count of each kind ("
    + ", ".join(b.title for b in PLAYER_BUILDINGS) + ") halved: 0, 0.5 or 1",
    "opponent_hand": "the opponent's unplaced buildings, as own_hand",
    "cathedral_to_place": "1 while the Cathedral is still to be placed",
    "to_move": "1 when the observer is to move",
}


def observation_layout() -> tuple[dict, ...]:
    """Returns ``OBSERVATION_LAYOUT`` with each part's bounds and meaning (dicts of ``name``,
    ``shape``, ``low``, ``high``, ``meaning``): every entry is 0/1 or a count of at most two
    copies halved, so every part lies in [0, 1]."""
    return tuple(
        {"name": name, "shape": shape, "low": 0.0, "high": 1.0, "meaning": _MEANINGS[name]}
        for name, shape in OBSERVATION_LAYOUT
    )

_HANDS = len(PLAYER_BUILDINGS)
_HALF_HANDS: dict[tuple[int, ...], np.ndarray] = {}
"""A colour's hand (a count per building kind) -> the counts halved, as the observation holds
them (a few thousand hands at most)."""


def _half_hand(hand: list[int]) -> np.ndarray:
    key = tuple(hand)
    half = _HALF_HANDS.get(key)
    if half is None:
        half = _HALF_HANDS[key] = np.array(key, dtype=np.float32) * 0.5
    return half


def observe(position: Position, player: int) -> np.ndarray:
    """Returns the observation of ``position`` seen by ``player`` (Light for anything but a
    colour, such as TERMINAL).

    The research interfaces call this at every step, so the five planes are unpacked from one
    integer in one numpy call: each mask padded to 104 bits (13 bytes) and shifted into place.
    """
    me = player if player in (0, 1) else 0
    them = 1 - me
    masks = (
        position.walls[me]
        | position.walls[them] << 104
        | position.cathedral << 208
        | position.territory[me] << 312
        | position.territory[them] << 416
    )
    bits = np.unpackbits(
        np.frombuffer(masks.to_bytes(65, "little"), dtype=np.uint8), bitorder="little"
    )
    out = np.empty(OBSERVATION_SIZE, dtype=np.float32)
    out[:500].reshape(5, 100)[:] = bits.reshape(5, 104)[:, :100]
    out[500 : 500 + _HANDS] = _half_hand(position.hands[me])
    out[500 + _HANDS : 500 + 2 * _HANDS] = _half_hand(position.hands[them])
    out[-2] = position.cathedral_state == IN_HAND
    out[-1] = position.to_move == me
    return out
