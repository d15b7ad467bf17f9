"""Cheap evaluations of classic positions for computer players.

``evaluate`` is the static value search uses at its horizon; ``action_scores`` is the one-ply
score the ``greedy`` player maximises: squares placed, territory gained, opponent buildings
captured, and opponent placements taken away.
"""

from __future__ import annotations

import math

from cathedral.games.classic.pieces import ACTION_SIZE, DARK, LIGHT
from cathedral.games.classic.rules import Position


def evaluate(position: Position) -> list[float]:
    """Returns [Light, Dark] values in (-1, 1): unplaced squares and free territory."""
    light = position.unplaced(DARK) - position.unplaced(LIGHT)
    free = ~(position.walls[0] | position.walls[1] | position.cathedral)
    light += 0.5 * (
        (position.territory[LIGHT] & free).bit_count()
        - (position.territory[DARK] & free).bit_count()
    )
    value = math.tanh(light / 12)
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
            remaining = len(child.legal)
        else:
            remaining = int(child.placement_mask(opponent).sum())
        score = ACTION_SIZE[action] + gained + 2 * captured + 0.02 * (before_opponent - remaining)
        scored.append((action, score))
    return scored
