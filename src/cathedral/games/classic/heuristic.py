"""Cheap evaluations of classic positions for computer players.

``evaluate`` is the static value search uses at its horizon; ``action_scores`` is the one-ply
score the ``greedy`` player maximises: squares placed, territory gained, opponent buildings
captured, and opponent placements taken away. Searches order their moves by it at every node,
so it is their hot path: the placements that settle nothing (most of them) are scored without
being placed, five times faster overall (see "quiet placements" below).

The evaluation is a margin in squares, Light minus Dark, of weighted features per colour:

- ``placed``: squares already placed (the final score counts the ones that are not);
- ``territory``: free squares of its own territory (room the opponent may not use);
- ``dead``: squares of buildings in hand that fit nowhere any more, counted as lost already
  (space only shrinks, except when a capture frees some, which search sees);
- ``risk``: squares of buildings that fit only in open space, where the opponent can take
  their room away (buildings that fit into their owner's free territory are safe, fitted
  largest first against its size);
- ``mobility``: the log of the number of legal placements.

The value's scale: the margin goes through ``tanh`` to stay in (-1, 1), divided first by
1 + 0.15 x the unplaced squares of both colours (14 at the start, 2.5 with ten squares
left), because front ends read the value as an expected score, (value + 1) / 2, and a lead
of a few squares decides a game near its end but not at its start. The divisor was fitted
to game outcomes (``benchmarks/fit_classic_scale.py``, 2026-12-03): the log loss of the
expected score fell from 0.479 with the old fixed divisor 12 to 0.423 on 13,303 positions
of 600 depth-2 self-play games, and from 0.493 to 0.429 on 4,403 positions of the ladder's
games between medium, hard and max. Play hardly changes (a search compares values, and the
transform is the same for positions as full as each other): 50.6% in 400 depth-2 games
against the fixed divisor.

The weights were compared in self-play
(``benchmarks/arena_tune.py``, depth-2 and 0.5 s alpha-beta, 40 games each, colours
swapped): counting dead buildings scored 55-56% against the evaluation without it, while
``risk`` and ``mobility`` showed no gain within the noise (46-51%), so they stay at 0 and
their extra pass is skipped. An influence term (open squares a colour's walls and territory
reach in fewer king steps than the other's, Voronoi-style, as Go programs estimate
territory) lost at every weight tried (2026-12-03, depth-2 alpha-beta, 400 games each,
depth budgets so the machine's load cannot bias it): 38% at 0.15 and 0.3 squares a square,
34% at 0.5, 35% at -0.3, where the evaluation against itself scores 50%. It was dropped.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from cathedral.games.classic.pieces import (
    ACTION_SIZE,
    ACTION_SQUARES,
    BLOCK_KEYS,
    BLOCKS,
    DARK,
    FULL,
    LIGHT,
    PLACEMENT_HIGH,
    PLACEMENT_LOW,
    PLACEMENTS,
    PLAYER_BUILDINGS,
    SQUARES_OF_BUILDING,
    Building,
    block_of,
    dilate,
    flood,
)
from cathedral.games.classic.rules import IN_HAND, Position, _available

WEIGHTS = {
    "placed": 1.0,  # per square already placed (the score itself)
    "territory": 0.5,  # per free square of own territory
    "dead": 1.0,  # per square of a building in hand that fits nowhere any more
    "risk": 0.0,  # per square of a building that fits only in open space
    "mobility": 0.0,  # per unit of log(legal placements)
    # The margin is divided by scale + per_square x (unplaced squares of both) before tanh,
    # so a lead counts for more as the city fills (see "The value's scale" in the docstring).
    "scale": 1.0,
    "per_square": 0.15,
}

_LOW = (1 << 64) - 1
_STARTS = np.array([BLOCKS[key].start for key in BLOCK_KEYS], dtype=np.intp)
# For each colour, the index in BLOCK_KEYS of each of its buildings (PLAYER_BUILDINGS order).
_BLOCK_INDEX = [
    [BLOCK_KEYS.index(next(k for k in BLOCK_KEYS if BLOCKS[k] == block_of(b, colour)))
     for b in PLAYER_BUILDINGS]
    for colour in (LIGHT, DARK)
]
# Buildings largest first, for fitting them into territory.
_BY_SIZE = sorted(PLAYER_BUILDINGS, key=lambda b: -SQUARES_OF_BUILDING[b])


def _fits(blocked: int, allowed: np.ndarray) -> np.ndarray:
    """Returns, per action block, whether some allowed placement avoids every blocked square."""
    free = (PLACEMENT_LOW & np.uint64(blocked & _LOW)) | (PLACEMENT_HIGH & np.uint64(blocked >> 64))
    mask = (free == 0) & allowed
    return np.logical_or.reduceat(mask, _STARTS), int(mask.sum())


def features(position: Position, colour: int) -> tuple[int, int, int, float, int]:
    """Returns ``colour``'s (unplaced squares, free own territory, dead squares, squares at
    risk, legal placements) — see the module docstring."""
    hands = position.hands[colour]
    unplaced = position.unplaced(colour)
    occupied = position.walls[LIGHT] | position.walls[DARK] | position.cathedral
    own_free = position.territory[colour] & ~occupied
    room = own_free.bit_count()
    if not position.kinds[colour]:
        return 0, room, 0, 0.0, 0
    allowed = _available(colour, position.kinds[colour])
    live, moves = _fits(occupied | position.territory[1 - colour], allowed)
    # Fitting into territory only matters when risk is weighed (it costs a second pass).
    safe = _fits(FULL & ~own_free, allowed)[0] if own_free and WEIGHTS["risk"] else None
    index = _BLOCK_INDEX[colour]
    territory = room
    dead = 0
    risky = 0
    for building in _BY_SIZE:
        count = hands[building]
        if not count:
            continue
        size = SQUARES_OF_BUILDING[building]
        block = index[building]
        if not live[block]:
            dead += count * size
            continue
        for _ in range(count):
            if safe is not None and safe[block] and room >= size:
                room -= size
            else:
                risky += size
    return unplaced, territory, dead, risky, moves


def evaluate(position: Position) -> list[float]:
    """Returns [Light, Dark] values in (-1, 1): the estimated final margin (see the module)."""
    if position.cathedral_state == IN_HAND:
        return [0.0, 0.0]  # only the Cathedral is on the way: nothing to tell the sides apart
    lead, left = margin(position)
    value = math.tanh(lead / (WEIGHTS["scale"] + WEIGHTS["per_square"] * left))
    return [value, -value]


def margin(position: Position) -> tuple[float, int]:
    """Returns the weighted margin in squares, Light minus Dark, and the unplaced squares of
    both colours (what the value's divisor grows with)."""
    w = WEIGHTS
    lead = 0.0
    left = 0
    for colour, sign in ((LIGHT, 1.0), (DARK, -1.0)):
        unplaced, territory, dead, risky, moves = features(position, colour)
        left += unplaced
        lead += sign * (
            -w["placed"] * unplaced
            + w["territory"] * territory
            - w["dead"] * dead
            - w["risk"] * risky
            + w["mobility"] * math.log1p(moves)
        )
    return lead, left


def action_scores(position: Position, actions: list[int]) -> list[tuple[int, float]]:
    """Returns (action, one-ply score) for each action of the colour to move."""
    opponent_mask = position.placement_mask(1 - position.to_move)
    quiet = _quiet(position, actions)
    scores = dict(_placed_scores(position, [a for a, q in zip(actions, quiet) if not q],
                                 int(opponent_mask.sum())))
    if quiet.any():
        # A quiet placement only takes away the opponent's placements that overlap it.
        index = np.asarray(actions)[quiet]
        for action, taken in zip(index.tolist(), _overlaps(index, opponent_mask).tolist()):
            scores[action] = ACTION_SIZE[action] + 0.02 * taken
    return [(action, scores[action]) for action in actions]


def _placed_scores(position: Position, actions: list[int],
                   before_opponent: int) -> list[tuple[int, float]]:
    """``action_scores`` the long way: each action placed on a copy of the position."""
    colour = position.to_move
    opponent = 1 - colour
    before_territory = position.territory[colour].bit_count()
    opponent_squares = position.unplaced(opponent)
    scored = []
    for action in actions:
        child = position.copy()
        child.place(action)
        gained = child.territory[colour].bit_count() - before_territory
        captured = child.unplaced(opponent) - opponent_squares
        if child.to_move == opponent:
            remaining = int(child.legal_mask.sum())
        else:
            remaining = int(child.placement_mask(opponent).sum())
        score = ACTION_SIZE[action] + gained + 2 * captured + 0.02 * (before_opponent - remaining)
        scored.append((action, score))
    return scored


# ----- quiet placements ---------------------------------------------------------------------
#
# Most placements settle nothing: no region is closed, nothing captured. Their one-ply score
# needs no copy of the position, only how many of the opponent's placements they overlap, so
# ``action_scores`` finds them first and places only the rest (a tenth to a sixth of them in
# the middle game of greedy games). A placement P of ``colour`` is quiet when the region R of
# squares not walled by ``colour`` that holds it (8-connected, as in
# ``rules.settle_territory``) holds at least two opponent buildings (the Cathedral counting as
# one) and R - P is still one region: then the rule's only region to examine is R - P, which
# holds as many buildings as R. R - P is one region whenever P's ring (its 8-neighbours)
# within R is itself 8-connected, since a path through P can go round it on the ring instead;
# the ring is tested, not R. A region of the own territory holds no building, and every part
# of it is claimed again unchanged.


@functools.cache
def _tables() -> tuple[np.ndarray, list[int], tuple[np.ndarray, np.ndarray], np.ndarray]:
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


def _overlaps(actions: np.ndarray, placements: np.ndarray) -> np.ndarray:
    """Returns, per action, how many of ``placements`` (a bool mask) share a square with it."""
    rows = _tables()[0][actions] & np.packbits(placements)
    if hasattr(np, "bitwise_count"):  # numpy 2
        return np.bitwise_count(rows).sum(axis=1, dtype=np.int64)
    return _POPCOUNT[rows].sum(axis=1)


def _touches(actions: np.ndarray, masks: tuple[np.ndarray, np.ndarray], mask: int) -> np.ndarray:
    """Returns, per action, whether its mask in ``masks`` (uint64 halves) meets ``mask``."""
    low, high = masks
    return ((low[actions] & np.uint64(mask & _LOW)) | (high[actions] & np.uint64(mask >> 64))) != 0


def _quiet(position: Position, actions: list[int], absent: int = 0) -> np.ndarray:
    """Returns, per action of the colour to move, whether placing it is quiet (see above).
    ``absent`` pieces not yet placed are counted in every region (``threats`` looks ahead to
    a time when the opponent's first building will stand somewhere)."""
    colour = position.to_move
    index = np.asarray(actions, dtype=np.intp)
    buildings = index < _CATHEDRAL_START  # the Cathedral's own placement is placed to score it
    if not position.built[colour]:
        return buildings  # a first building settles nothing
    _, rings, ring_halves, whole = _tables()
    own = position.walls[colour]
    space = FULL & ~own
    unsettled = space & ~position.territory[colour]
    opponent_pieces = position.pieces[1 - colour]
    weak = 0  # regions holding fewer than two buildings: placing there may settle them
    settled = 0  # empty regions wholly of the own territory: placing there changes nothing
    rest = space
    while rest:
        region = flood(rest & -rest, space)
        rest &= ~region
        held = absent + sum(1 for a in opponent_pieces if PLACEMENTS[a] & region)
        held += 1 if position.cathedral & region else 0
        if not held and not region & unsettled:
            settled |= region
        elif held < 2:
            weak |= region
    placements = (PLACEMENT_LOW, PLACEMENT_HIGH)
    quiet = buildings & ~_touches(index, placements, weak)
    # A whole ring clear of the own buildings stays whole; the others are followed square by
    # square.
    uncertain = (quiet & ~_touches(index, placements, settled)
                 & (_touches(index, ring_halves, own) | ~whole[index]))
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


# Whether a placement's ring is whole, given the own buildings on it: the same few patterns
# come back at every node of a search (a building's neighbours change rarely).
_WHOLE_RINGS: dict[tuple[int, int], bool] = {}
