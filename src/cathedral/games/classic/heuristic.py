"""Cheap evaluations of classic positions for computer players.

``evaluate`` is the static value search uses at its horizon; ``action_scores`` is the one-ply
score the ``greedy`` player maximises: squares placed, territory gained, opponent buildings
captured, and opponent placements taken away.

The evaluation is a margin in squares, Light minus Dark, of weighted features per colour:

- ``placed``: squares already placed (the final score counts the ones that are not);
- ``territory``: free squares of its own territory (room the opponent may not use);
- ``dead``: squares of buildings in hand that fit nowhere any more, counted as lost already
  (space only shrinks, except when a capture frees some, which search sees);
- ``risk``: squares of buildings that fit only in open space, where the opponent can take
  their room away (buildings that fit into their owner's free territory are safe, fitted
  largest first against its size);
- ``mobility``: the log of the number of legal placements.

The margin goes through ``tanh`` to stay in (-1, 1). The weights were compared in self-play
(``benchmarks/arena_classic_tune.py``, depth-2 and 0.5 s alpha-beta, 40 games each, colours
swapped): counting dead buildings scored 55-56% against the evaluation without it, while
``risk`` and ``mobility`` showed no gain within the noise (46-51%), so they stay at 0 and
their extra pass is skipped.
"""

from __future__ import annotations

import math

import numpy as np

from cathedral.games.classic.pieces import (
    ACTION_SIZE,
    BLOCK_KEYS,
    BLOCKS,
    DARK,
    FULL,
    LIGHT,
    PLACEMENT_HIGH,
    PLACEMENT_LOW,
    PLAYER_BUILDINGS,
    SQUARES_OF_BUILDING,
    block_of,
)
from cathedral.games.classic.rules import IN_HAND, Position, _available

WEIGHTS = {
    "placed": 1.0,  # per square already placed (the score itself)
    "territory": 0.5,  # per free square of own territory
    "dead": 1.0,  # per square of a building in hand that fits nowhere any more
    "risk": 0.0,  # per square of a building that fits only in open space
    "mobility": 0.0,  # per unit of log(legal placements)
    "scale": 12.0,  # squares of advantage that make tanh reach 0.76
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
    w = WEIGHTS
    margin = 0.0
    for colour, sign in ((LIGHT, 1.0), (DARK, -1.0)):
        unplaced, territory, dead, risky, moves = features(position, colour)
        margin += sign * (
            -w["placed"] * unplaced
            + w["territory"] * territory
            - w["dead"] * dead
            - w["risk"] * risky
            + w["mobility"] * math.log1p(moves)
        )
    value = math.tanh(margin / w["scale"])
    return [value, -value]


def action_scores(position: Position, actions: list[int]) -> list[tuple[int, float]]:
    """Returns (action, one-ply score) for each action of the colour to move."""
    colour = position.to_move
    opponent = 1 - colour
    before_territory = position.territory[colour].bit_count()
    before_opponent = int(position.placement_mask(opponent).sum())
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
