"""Legal placements of classic Cathedral: every placement of a colour tested at once.

A placement is legal when the building is in its owner's hand and none of its squares is
taken by a building or the Cathedral or lies in the opponent's territory; Light's first
placement is always the Cathedral, which only has to keep off Dark's buildings. The test runs
over the whole table of placements (``pieces.PLACEMENT_LOW`` / ``PLACEMENT_HIGH``) with a
handful of numpy operations and returns a bool mask over the action space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cathedral.games.classic.pieces import (
    BLOCKS,
    DARK,
    IN_HAND,
    LIGHT,
    PLACEMENT_HIGH,
    PLACEMENT_LOW,
    PLACEMENTS,
    PLAYER_BUILDINGS,
    Building,
    block_of,
)

if TYPE_CHECKING:
    from cathedral.games.classic.state import Position

_LOW = (1 << 64) - 1
_CATHEDRAL_BLOCK = BLOCKS[(Building.CATHEDRAL, None)]
_CATHEDRAL_MASK = np.zeros(len(PLACEMENTS), dtype=bool)
_CATHEDRAL_MASK[_CATHEDRAL_BLOCK.start : _CATHEDRAL_BLOCK.stop] = True

ALL_KINDS = sum(1 << b for b in PLAYER_BUILDINGS)
"""Every building kind, one bit per ``Building``: a full hand's ``kinds``."""
_AVAILABLE: dict[tuple[int, int], np.ndarray] = {}


def available(colour: int, kinds: int) -> np.ndarray:
    """Returns the bool mask of actions whose building kind is in ``kinds`` (a bit per kind)
    for this colour (cached: at most 2 × 2^11 distinct masks, 2.7 kB each)."""
    key = (colour, kinds)
    mask = _AVAILABLE.get(key)
    if mask is None:
        mask = np.zeros(len(PLACEMENTS), dtype=bool)
        for building in PLAYER_BUILDINGS:
            if kinds >> building & 1:
                block = block_of(building, colour)
                mask[block.start : block.stop] = True
        _AVAILABLE[key] = mask
    return mask


def placement_mask(position: Position, colour: int) -> np.ndarray:
    """Returns the bool mask of every legal placement for ``colour`` in ``position``."""
    if colour == LIGHT and position.cathedral_state == IN_HAND:
        # Light's first placement is always the Cathedral (both openings).
        blocked = position.walls[DARK]
        allowed = _CATHEDRAL_MASK
    else:
        blocked = position.walls[LIGHT] | position.walls[DARK] | position.cathedral
        blocked |= position.territory[1 - colour]
        allowed = available(colour, position.kinds[colour])
    free = (PLACEMENT_LOW & np.uint64(blocked & _LOW)) | (
        PLACEMENT_HIGH & np.uint64(blocked >> 64)
    )
    return (free == 0) & allowed
