"""Classic Cathedral's rules: placements, territory and capture, passes, the end and scores.

The position is a handful of 100-bit masks (see ``pieces``): each colour's buildings, the
Cathedral, each colour's territory; plus each colour's placed buildings as action numbers (so a
captured building can go back to its owner's hand). Legal placements of the player to move are
computed once per position with numpy and cached; ``apply_action`` needs them anyway to decide
whether the next player must be skipped.
"""

from __future__ import annotations

import numpy as np

from cathedral.core.contract import TERMINAL
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    BLOCKS,
    COPIES,
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

_LOW = (1 << 64) - 1
_CATHEDRAL_BLOCK = BLOCKS[(Building.CATHEDRAL, None)]
_CATHEDRAL_MASK = np.zeros(len(PLACEMENTS), dtype=bool)
_CATHEDRAL_MASK[_CATHEDRAL_BLOCK.start : _CATHEDRAL_BLOCK.stop] = True

# The Cathedral: in Light's hand, on the board, or gone for good (captured).
IN_HAND, ON_BOARD, GONE = 0, 1, 2

ALL_KINDS = sum(1 << b for b in PLAYER_BUILDINGS)
_AVAILABLE: dict[tuple[int, int], np.ndarray] = {}


def _available(colour: int, kinds: int) -> np.ndarray:
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


class Position:
    """The mutable position of classic Cathedral, without history or contract concerns.

    Attributes:
        walls: each colour's buildings on the board, as masks.
        cathedral: the Cathedral's squares (0 unless on the board).
        cathedral_state: IN_HAND, ON_BOARD or GONE.
        territory: each colour's territory, as masks (may lie under its own buildings).
        pieces: each colour's buildings on the board, as the actions that placed them.
        hands: each colour's count in hand per building kind (``Building`` order).
        kinds: each colour's kinds in hand, one bit per ``Building`` (derived from hands).
        built: whether each colour has made its first building placement.
        to_move: the colour to move, or TERMINAL.
    """

    __slots__ = (
        "built",
        "cathedral",
        "cathedral_state",
        "hands",
        "kinds",
        "legal",
        "legal_mask",
        "pieces",
        "territory",
        "to_move",
        "walls",
    )

    def __init__(self, first: int) -> None:
        self.walls = [0, 0]
        self.cathedral = 0
        self.cathedral_state = IN_HAND
        self.territory = [0, 0]
        self.pieces: list[list[int]] = [[], []]
        self.hands = [[COPIES[b] for b in PLAYER_BUILDINGS] for _ in (LIGHT, DARK)]
        self.kinds = [ALL_KINDS, ALL_KINDS]
        self.built = [False, False]
        self.to_move = first
        # The legal placements of ``to_move``, once computed: a sorted list and a bool mask.
        self.legal: list[int] | None = None
        self.legal_mask: np.ndarray | None = None

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.walls = self.walls[:]
        other.cathedral = self.cathedral
        other.cathedral_state = self.cathedral_state
        other.territory = self.territory[:]
        other.pieces = [self.pieces[0][:], self.pieces[1][:]]
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.kinds = self.kinds[:]
        other.built = self.built[:]
        other.to_move = self.to_move
        other.legal = self.legal  # shared read-only: replaced, never mutated
        other.legal_mask = self.legal_mask
        return other

    # ----- legality -----------------------------------------------------------------------

    def placement_mask(self, colour: int) -> np.ndarray:
        """Returns the bool mask of every legal placement for ``colour`` in this position."""
        if colour == LIGHT and self.cathedral_state == IN_HAND:
            # Light's first placement is always the Cathedral (both openings).
            blocked = self.walls[DARK]
            allowed = _CATHEDRAL_MASK
        else:
            blocked = self.walls[LIGHT] | self.walls[DARK] | self.cathedral
            blocked |= self.territory[1 - colour]
            allowed = _available(colour, self.kinds[colour])
        free = (PLACEMENT_LOW & np.uint64(blocked & _LOW)) | (
            PLACEMENT_HIGH & np.uint64(blocked >> 64)
        )
        return (free == 0) & allowed

    def ensure_mask(self) -> None:
        if self.legal_mask is None:
            self.legal_mask = self.placement_mask(self.to_move)

    def ensure_legal(self) -> None:
        # the mask comes first and often alone (pass_turn makes it; the research interfaces
        # want only it), the list of actions only when asked for
        if self.legal is None:
            self.ensure_mask()
            self.legal = np.flatnonzero(self.legal_mask).tolist()

    # ----- placing ------------------------------------------------------------------------

    def place(self, action: int) -> None:
        """Places the building of ``action`` for the colour to move and settles territory,
        captures and who moves next. Trusts that the action is legal."""
        colour = self.to_move
        building = ACTION_BUILDING[action]
        mask = PLACEMENTS[action]
        if building is Building.CATHEDRAL:
            self.cathedral = mask
            self.cathedral_state = ON_BOARD
            # Standard: Dark builds first; Lehmann: Light follows the Cathedral with its own
            # first building. Either way the colour that has not built yet moves.
            self.to_move = LIGHT if self.built[DARK] else DARK
            self.legal = None
            self.legal_mask = None
            self.ensure_mask()
            return
        self.walls[colour] |= mask
        self.pieces[colour].append(action)
        self.hands[colour][building] -= 1
        if not self.hands[colour][building]:
            self.kinds[colour] &= ~(1 << building)
        if self.built[colour]:
            self.settle_territory(colour, mask)
        else:
            self.built[colour] = True  # the first building claims and captures nothing
        self.pass_turn(colour)

    def settle_territory(self, colour: int, placed: int) -> None:
        """Examines every region of squares not walled by ``colour`` that touches the building
        just placed (classic.md, Territory and capture, steps 1-4)."""
        opponent = 1 - colour
        space = FULL & ~self.walls[colour]
        seeds = dilate(placed) & space
        while seeds:
            region = flood(seeds & -seeds, space)
            seeds &= ~region
            inside = [a for a in self.pieces[opponent] if PLACEMENTS[a] & region]
            count = len(inside) + (1 if self.cathedral & region else 0)
            if count > 1:
                continue
            if count == 1:
                if inside:
                    captured = inside[0]
                    self.pieces[opponent].remove(captured)
                    self.walls[opponent] &= ~PLACEMENTS[captured]
                    self.take_back(opponent, captured)
                else:
                    self.cathedral = 0
                    self.cathedral_state = GONE
            self.territory[colour] |= region
            self.territory[opponent] &= ~region

    def take_back(self, colour: int, action: int) -> None:
        """Returns a building placed by ``action`` to its owner's hand."""
        building = ACTION_BUILDING[action]
        self.hands[colour][building] += 1
        self.kinds[colour] |= 1 << building

    def set_hands(self) -> None:
        """Derives hands and kinds from the buildings on the board (used when loading)."""
        for colour in (LIGHT, DARK):
            self.hands[colour] = [COPIES[b] for b in PLAYER_BUILDINGS]
            for action in self.pieces[colour]:
                self.hands[colour][ACTION_BUILDING[action]] -= 1
            self.kinds[colour] = sum(1 << b for b, n in enumerate(self.hands[colour]) if n)

    def pass_turn(self, colour: int) -> None:
        """Gives the move to the opponent, or back to ``colour`` if the opponent cannot place,
        or ends the game if neither can."""
        for candidate in (1 - colour, colour):
            mask = self.placement_mask(candidate)
            if mask.any():
                self.to_move = candidate
                self.legal_mask = mask
                self.legal = None  # made from the mask when asked for
                return
        self.to_move = TERMINAL
        self.legal = []
        self.legal_mask = None

    # ----- scores -------------------------------------------------------------------------

    def unplaced(self, colour: int) -> int:
        """Returns the squares of ``colour``'s buildings not on the board."""
        return sum(
            count * SQUARES_OF_BUILDING[b] for b, count in zip(PLAYER_BUILDINGS, self.hands[colour])
        )
