"""Quiet placements of classic Cathedral: the ones that settle nothing, found without placing
them.

Most placements settle nothing: no region is closed, nothing captured. Their one-ply score
needs no copy of the position, only how many of the opponent's placements they overlap, so
``action_scores`` finds them first and places only the rest (how many, in
benchmarks/RESULTS.md). A placement P of ``colour`` is quiet when the region R of
squares not walled by ``colour`` that holds it (8-connected, as in
``Position.settle_territory``) holds at least two opponent buildings (the Cathedral counting as
one) and R - P is still one region: then the rule's only region to examine is R - P, which
holds as many buildings as R. R - P is one region whenever P's ring (its 8-neighbours)
within R is itself 8-connected, since a path through P can go round it on the ring instead;
the ring is tested, not R. A region of the own territory holds no building, and every part
of it is claimed again unchanged.

The one-ply scores (``heuristic.action_scores``) and the set-ups (``threats``) both ask it,
and both take the regions a placement that is not quiet leaves (``parts``) from tables keyed
by the placing colour's walls: the opponent's buildings never change them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from cathedral.games.classic.pieces import (
    ACTION_SQUARES,
    BLOCKS,
    FULL,
    PLACEMENT_HIGH,
    PLACEMENT_LOW,
    PLACEMENTS,
    Building,
    dilate,
    flood,
)

if TYPE_CHECKING:
    from cathedral.games.classic.state import Position

_LOW = (1 << 64) - 1


@functools.cache
def tables() -> tuple[np.ndarray, list[int], tuple[np.ndarray, np.ndarray], np.ndarray]:
    """Returns, built on first use: the overlap bitsets (row a: np.packbits of the placements
    sharing a square with placement a, about 1 MB), each placement's ring, the rings as uint64
    halves, and whether each ring is 8-connected on its own."""
    cover = np.zeros((100, len(PLACEMENTS)), dtype=bool)
    for action, squares in enumerate(ACTION_SQUARES):
        cover[list(squares), action] = True
    packed = np.packbits(cover, axis=1)
    overlap = np.array([np.bitwise_or.reduce(packed[list(squares)], axis=0)
                        for squares in ACTION_SQUARES])
    rings = [dilate(mask) & ~mask for mask in PLACEMENTS]
    ring_low = np.array([r & _LOW for r in rings], dtype=np.uint64)
    ring_high = np.array([r >> 64 for r in rings], dtype=np.uint64)
    # A building in a notch of the board edge leaves a square cut off: that ring is not whole.
    whole = np.array([flood(r & -r, r) == r for r in rings])
    return overlap, rings, (ring_low, ring_high), whole


_CATHEDRAL_START = BLOCKS[(Building.CATHEDRAL, None)].start  # the last block
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int32)


def overlaps(actions: np.ndarray, placements: np.ndarray) -> np.ndarray:
    """Returns, per action, how many of ``placements`` (a bool mask) share a square with it."""
    rows = tables()[0][actions] & np.packbits(placements)
    if hasattr(np, "bitwise_count"):  # numpy 2
        return np.bitwise_count(rows).sum(axis=1, dtype=np.int64)
    return _POPCOUNT[rows].sum(axis=1)


def touches(actions: np.ndarray, masks: tuple[np.ndarray, np.ndarray], mask: int) -> np.ndarray:
    """Returns, per action, whether its mask in ``masks`` (uint64 halves) meets ``mask``."""
    low, high = masks
    return ((low[actions] & np.uint64(mask & _LOW)) | (high[actions] & np.uint64(mask >> 64))) != 0


def is_quiet(position: Position, actions: list[int], absent: int = 0) -> np.ndarray:
    """Returns, per action of the colour to move, whether placing it is quiet (see above).
    ``absent`` pieces not yet placed are counted in every region (``threats`` looks ahead to
    a time when the opponent's first building will stand somewhere)."""
    colour = position.to_move
    index = np.asarray(actions, dtype=np.intp)
    buildings = index < _CATHEDRAL_START  # the Cathedral's own placement is placed to score it
    if not position.built[colour]:
        return buildings  # a first building settles nothing
    _, rings, ring_halves, whole = tables()
    own = position.walls[colour]
    space = FULL & ~own
    unsettled = space & ~position.territory[colour]
    pieces = opponent_pieces(position, colour)
    weak = 0  # regions holding fewer than two buildings: placing there may settle them
    settled = 0  # empty regions wholly of the own territory: placing there changes nothing
    for region in regions(own):
        held = pieces_in(region, pieces, absent)
        if not held and not region & unsettled:
            settled |= region
        elif held < 2:
            weak |= region
    placements = (PLACEMENT_LOW, PLACEMENT_HIGH)
    quiet = buildings & ~touches(index, placements, weak)
    # A whole ring clear of the own buildings stays whole; only the others are flooded.
    uncertain = (quiet & ~touches(index, placements, settled)
                 & (touches(index, ring_halves, own) | ~whole[index]))
    for i in np.flatnonzero(uncertain).tolist():
        action = actions[i]
        key = (action, rings[action] & own)
        whole_ring = _WHOLE_RINGS.get(key)
        if whole_ring is None:
            ring = rings[action] & space
            whole_ring = not ring or flood(ring & -ring, ring) == ring
            if len(_WHOLE_RINGS) > 1 << 20:
                _WHOLE_RINGS.clear()
            _WHOLE_RINGS[key] = whole_ring
        if not whole_ring:
            quiet[i] = False
    return quiet


# (placement, own buildings on its ring) -> ring whole: the same few recur at every node.
_WHOLE_RINGS: dict[tuple[int, int], bool] = {}


def opponent_pieces(position: Position, colour: int) -> list[int]:
    """Returns the masks of the pieces that ``colour``'s walls may enclose: the opponent's
    buildings and the Cathedral when it stands."""
    pieces = [PLACEMENTS[a] for a in position.pieces[1 - colour]]
    if position.cathedral:
        pieces.append(position.cathedral)
    return pieces


def pieces_in(region: int, pieces: list[int], absent: int = 0) -> int:
    """Returns how many of ``pieces`` (masks) lie in ``region``, plus ``absent``, counted
    only up to 2: the rule asks whether a region holds none, one, or more."""
    held = absent
    for piece in pieces:
        if held > 1:
            break
        if piece & region:
            held += 1
    return held


def parts(walls: int, action: int) -> tuple[int, ...]:
    """Returns the regions (8-connected) that the building of ``action`` leaves of the region
    of squares not in ``walls`` it stands in: the regions ``Position.settle_territory``
    examines when a colour with these ``walls`` places it. They depend on the walls alone, not
    on the opponent's buildings, so sibling positions of a search share them (kept in a
    table)."""
    key = (walls, action)
    found = _PARTS.get(key)
    if found is None:
        mask = PLACEMENTS[action]
        rest = next(region for region in regions(walls) if region & mask) & ~mask
        seeds = dilate(mask) & rest
        found = []
        while seeds:
            # Every part of the region left touches the building, so once the part flooded
            # holds every seed left it is all the rest: the flood stops there.
            part = seeds & -seeds
            while seeds & ~part:
                grown = dilate(part) & rest
                if grown == part:
                    break
                part = grown
            else:
                part = rest
            seeds &= ~part
            rest &= ~part
            found.append(part)
        found = tuple(found)
        if len(_PARTS) > 1 << 17:
            _PARTS.clear()
        _PARTS[key] = found
    return found


def regions(walls: int) -> tuple[int, ...]:
    """Returns the regions (8-connected) of the squares not in ``walls`` (kept in a table)."""
    found = _REGIONS.get(walls)
    if found is None:
        space = FULL & ~walls
        found = []
        while space:
            region = flood(space & -space, space)
            found.append(region)
            space &= ~region
        found = tuple(found)
        if len(_REGIONS) > 1 << 14:
            _REGIONS.clear()
        _REGIONS[walls] = found
    return found


_PARTS: dict[tuple[int, int], tuple[int, ...]] = {}
_REGIONS: dict[int, tuple[int, ...]] = {}
