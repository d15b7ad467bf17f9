"""Cheap evaluations of classic positions for computer players.

``evaluate`` is the static value search uses at its horizon; ``action_scores`` is the one-ply
score the ``greedy`` player maximises: squares placed, territory gained, opponent buildings
captured, and opponent placements taken away. Searches order their moves by it at every node,
so it is their hot path: the placements that settle nothing (most of them) are scored without
being placed (see ``quiet``), and the others from the regions they leave (``quiet.parts``, a
table that sibling positions share) without a copy of the position (the speed-ups are in
benchmarks/RESULTS.md).

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
of a few squares decides a game near its end but not at its start. The divisor is fitted to
game outcomes (``benchmarks/fit_classic_scale.py``); a search compares values, so it hardly
changes play.

A learned correction (``network``, weights shipped in ``data/value.npz``, trained by
``cathedral.jax.train_classic`` on self-play games) is added to the margin, in squares, from
the mover's side, before the ``tanh``, once ``use_network()`` turns it on: it sees the
whole board and both hands, where the weighted features see counts. docs/jax.md has its
training and what it is worth (not yet enough to be on by default).

The weights are those that won in self-play (``benchmarks/arena_tune.py``): dead buildings
count; ``risk`` and ``mobility`` showed no gain, so they stay at 0 and their extra pass is
skipped; an influence term (open squares a colour reaches first) lost at every weight and
was dropped. The runs are in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import math

import numpy as np

from cathedral.core.hooks import Evaluation
from cathedral.games.classic.movegen import available
from cathedral.games.classic.network import ValueNetwork, shipped
from cathedral.games.classic.observation import OBSERVATION_SIZE, observe
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_SIZE,
    BLOCK_KEYS,
    BLOCKS,
    DARK,
    FULL,
    IN_HAND,
    LIGHT,
    PLACEMENT_HIGH,
    PLACEMENT_LOW,
    PLACEMENTS,
    PLAYER_BUILDINGS,
    SQUARES_OF_BUILDING,
    Building,
    block_of,
)
from cathedral.games.classic.quiet import (
    is_quiet,
    opponent_pieces,
    overlaps,
    parts,
    pieces_in,
)
from cathedral.games.classic.state import ClassicState, Position
from cathedral.games.classic.threats import threat_actions

WEIGHTS = {
    "placed": 1.0,  # per square already placed (the score itself)
    "territory": 0.5,  # per free square of own territory
    "dead": 1.0,  # per square of a building in hand that fits nowhere any more
    "risk": 0.0,  # per square of a building that fits only in open space
    "mobility": 0.0,  # per unit of log(legal placements)
    # A lead counts for more as the city fills ("The value's scale" in the docstring).
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
    allowed = available(colour, position.kinds[colour])
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
    """Returns [Light, Dark] values in (-1, 1): the estimated final margin (see the module),
    corrected by the learned network when one is in use (``LEARNED``)."""
    if position.cathedral_state == IN_HAND:
        return [0.0, 0.0]  # only the Cathedral is on the way: nothing to tell the sides apart
    both = (features(position, LIGHT), features(position, DARK))
    lead, left = weighted_margin(both)
    network = LEARNED[0]
    if network is not None:
        mover = DARK if position.to_move == DARK else LIGHT
        correction = network.correction(value_input(position, both, mover, (lead, left)))
        lead += correction if mover == LIGHT else -correction
    value = math.tanh(lead / (WEIGHTS["scale"] + WEIGHTS["per_square"] * left))
    return [value, -value]


LEARNED: list[ValueNetwork | None] = [None]
"""The network that corrects ``evaluate`` (None, the default: the hand-weighted margin
alone); ``use_network()`` installs the package's own. Off by default: ``hard`` with it has
not yet beaten the ``hard`` without it at 5 s a move (docs/jax.md)."""


def use_network(network: ValueNetwork | str | None = "shipped") -> None:
    """Makes ``evaluate`` use ``network`` ("shipped": the package's own; None: none, the
    hand-weighted margin alone, the default)."""
    LEARNED[0] = shipped() if network == "shipped" else network


def value_input(position: Position, both, mover: int,
                weighted: tuple[float, int] | None = None) -> np.ndarray:
    """Returns the network's input for ``position`` seen by ``mover``: the observation
    tensor, then each colour's features (mover first) on a scale near 1, then the
    hand-weighted margin for the mover in tens of squares (``weighted``: that margin and the
    unplaced squares, when the caller has them already)."""
    scalars = []
    for colour in (mover, 1 - mover):
        unplaced, territory, dead, _, moves = both[colour]
        scalars += [unplaced / 10, territory / 10, dead / 10, math.log1p(moves) / 5]
    lead, left = weighted or weighted_margin(both)
    scalars += [(lead if mover == LIGHT else -lead) / 10, left / 50]
    return np.concatenate((observe(position, mover), np.asarray(scalars, dtype=np.float32)))


VALUE_INPUTS = OBSERVATION_SIZE + 10


def margin(position: Position) -> tuple[float, int]:
    """Returns the weighted margin in squares, Light minus Dark, and the unplaced squares of
    both colours (what the value's divisor grows with)."""
    return weighted_margin((features(position, LIGHT), features(position, DARK)))


def weighted_margin(both) -> tuple[float, int]:
    """``margin`` from each colour's ``features`` (both, Light first)."""
    w = WEIGHTS
    lead = 0.0
    left = 0
    for colour, sign in ((LIGHT, 1.0), (DARK, -1.0)):
        unplaced, territory, dead, risky, moves = both[colour]
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
    quiet = is_quiet(position, actions)
    scores = dict(_settling_scores(position, [a for a, q in zip(actions, quiet) if not q],
                                   opponent_mask))
    if quiet.any():
        # A quiet placement only takes away the opponent's placements that overlap it.
        index = np.asarray(actions)[quiet]
        for action, taken in zip(index.tolist(), overlaps(index, opponent_mask).tolist()):
            scores[action] = ACTION_SIZE[action] + 0.02 * taken
    return [(action, scores[action]) for action in actions]


def _settling_scores(position: Position, actions: list[int],
                     opponent_mask: np.ndarray) -> list[tuple[int, float]]:
    """``action_scores`` of placements that may settle a region: the regions the building
    leaves (``quiet.parts``) are examined as ``Position.settle_territory`` does, without a
    copy of the position.
    Where nothing is captured (nearly always) the opponent loses the placements that meet the
    building or the territory it claims, counted for all such actions in one numpy pass; a
    capture (which gives squares back) and the Cathedral are placed the long way."""
    colour = position.to_move
    if not position.built[colour] or not actions:
        return _placed_scores(position, actions, int(opponent_mask.sum()))
    own = position.walls[colour]
    territory = position.territory[colour]
    pieces = opponent_pieces(position, colour)
    settled: list[tuple[int, int]] = []  # (action, squares claimed that were not own before)
    blocked: list[int] = []  # what the opponent may no longer place on, per settled action
    long_way: list[int] = []
    for action in actions:
        if ACTION_BUILDING[action] is Building.CATHEDRAL:
            long_way.append(action)
            continue
        mask = PLACEMENTS[action]
        claimed = 0
        for region in parts(own, action):
            held = pieces_in(region, pieces)
            if held == 0:
                claimed |= region
            elif held == 1:
                break  # a capture
        else:
            settled.append((action, (claimed & ~territory).bit_count()))
            blocked.append(mask | claimed)
            continue
        long_way.append(action)
    scored = _placed_scores(position, long_way, int(opponent_mask.sum())) if long_way else []
    if settled:
        index = np.flatnonzero(opponent_mask)
        low = np.array([b & _LOW for b in blocked], dtype=np.uint64)[:, None]
        high = np.array([b >> 64 for b in blocked], dtype=np.uint64)[:, None]
        taken = np.count_nonzero(
            (PLACEMENT_LOW[index] & low) | (PLACEMENT_HIGH[index] & high), axis=1
        )
        scored += [
            (action, ACTION_SIZE[action] + gained + 0.02 * lost)
            for (action, gained), lost in zip(settled, taken.tolist())
        ]
    return scored


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


class ClassicEvaluation(Evaluation):
    """Classic's search hooks: ``evaluate`` and ``action_scores`` above, and the set-ups of
    ``threats``."""

    def evaluate(self, state: ClassicState) -> list[float]:
        if state.is_terminal():
            return state.returns()
        return evaluate(state.position)

    def action_heuristics(self, state: ClassicState) -> list[tuple[int, float]]:
        return action_scores(state.position, state._legal_actions())

    def threat_actions(self, state: ClassicState, player: int, limit: int) -> list[int]:
        """Returns ``player``'s best set-ups (``threats.threat_actions``): placements whose
        worth shows one placement later, which search keeps in view beyond its width."""
        return [action for action, _ in threat_actions(state.position, player, limit)]
