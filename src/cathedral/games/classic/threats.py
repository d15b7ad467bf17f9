"""Set-ups: the classic placements whose worth shows only one placement later.

A wall rarely claims anything when it is built: land is claimed by the building that closes
the wall, and the one before it claimed nothing. The one-ply score that orders a search's
moves (``heuristic.action_scores``) ranks such a placement by its squares and by the
opponent's placements it overlaps, which favours the open middle over the edge where walls
close; in a search that keeps only the first few moves at each node (forward pruning), a
set-up ranked 90th of a thousand is never looked at, for either side. A deeper search then
plays as if neither side could build a wall (``heuristic.ClassicEvaluation`` hands these to
``cathedral.ai.alphabeta``).

``threat_actions`` finds a colour's best set-ups directly: the placements that claim nothing
themselves but after which that colour's next placement would claim most, if the opponent
passed in between. Both placements are looked for only next to the colour's own buildings (a
wall grows from one; the closing building touches the wall it closes), which keeps the cost
to some 35 ms a colour on average over the positions of whole games, 0.3-0.5 s at worst in
the opening, where the city is open and every building has hundreds of neighbours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    IN_HAND,
    LIGHT,
    PLACEMENTS,
    block_of,
)
from cathedral.games.classic.quiet import (
    is_quiet,
    opponent_pieces,
    parts,
    pieces_in,
    tables,
    touches,
)

if TYPE_CHECKING:
    from cathedral.games.classic.state import Position


def threat_actions(position: Position, colour: int, limit: int) -> list[tuple[int, int]]:
    """Returns ``colour``'s best set-ups, most first: up to ``limit`` pairs (placement,
    squares) of a legal placement that claims nothing itself and after which ``colour``'s
    next placement would claim ``squares`` free squares (the opponent passing). Placements
    that set up nothing are left out, so the list may be shorter or empty."""
    if limit <= 0 or not position.built[colour] or position.to_move < 0:
        return []
    if colour == LIGHT and position.cathedral_state == IN_HAND:
        return []
    legal = position.placement_mask(colour)
    own = position.walls[colour]
    rings = tables()[2]
    actions = np.flatnonzero(legal)
    candidates = actions[touches(actions, rings, own)].tolist()
    if not candidates:
        return []
    mover = position.copy()
    mover.to_move = colour  # ``is_quiet`` reads the colour to move
    found: list[tuple[int, int]] = []
    absent = _absent(mover, colour)
    for action, quiet in zip(candidates, is_quiet(mover, candidates, absent).tolist()):
        if not quiet and claimed(mover, colour, own, action):
            continue  # it claims at once: the one-ply score sees that
        squares = _best_claim_after(mover, colour, legal, action)
        if squares:
            found.append((action, squares))
    found.sort(key=lambda item: (-item[1], item[0]))
    return found[:limit]


def _best_claim_after(position: Position, colour: int, legal: np.ndarray, action: int) -> int:
    """Returns the most ``colour`` could claim with one placement after ``action``."""
    placed = PLACEMENTS[action]
    after = position.copy()
    after.walls[colour] |= placed
    after.pieces[colour] = [*after.pieces[colour], action]
    walls = after.walls[colour]
    overlap = np.unpackbits(tables()[0][action], count=len(PLACEMENTS)).astype(bool)
    allowed = legal & ~overlap
    building = ACTION_BUILDING[action]
    if position.hands[colour][building] == 1:  # its last copy: no second one to close with
        block = block_of(building, colour)
        allowed[block.start : block.stop] = False
    closers = np.flatnonzero(allowed)
    closers = closers[touches(closers, tables()[2], walls)].tolist()
    if not closers:
        return 0
    best = 0
    for closer, quiet in zip(closers, is_quiet(after, closers, _absent(after, colour)).tolist()):
        if not quiet:
            best = max(best, claimed(after, colour, walls, closer))
    return best


def _absent(position: Position, colour: int) -> int:
    """Before the opponent's first building the only piece a region can hold is the
    Cathedral; that building will stand somewhere by the time a set-up is closed, so every
    region counts it once (else a wall round the Cathedral would claim the whole city)."""
    return 0 if position.built[1 - colour] else 1


def claimed(position: Position, colour: int, walls: int, action: int) -> int:
    """Returns the squares ``colour`` would claim by placing ``action`` next to ``walls`` (its
    buildings): the squares, not already its own, of each region the placement closes that
    holds at most one other piece, which that piece leaves when captured (the rules' claim,
    without placing anything)."""
    pieces = opponent_pieces(position, colour)
    own = position.territory[colour]
    absent = _absent(position, colour)
    squares = 0
    for region in parts(walls, action):
        if pieces_in(region, pieces, absent) <= 1:
            squares += (region & ~own).bit_count()
    return squares
