"""Classic Cathedral's rules: placements, territory and capture, passes, the end and scores,
and the contract's State around them.

``Position`` is the game itself in a handful of 100-bit masks (see ``pieces``): each colour's
buildings, the Cathedral, each colour's territory; plus each colour's placed buildings as
action numbers (so a captured building can go back to its owner's hand). Legal placements of
the player to move are computed once per position (``movegen``) and cached; ``place`` needs
them anyway to decide whether the next player must be skipped.

``ClassicState`` translates: player 0 is Light, player 1 Dark, an action is a placement
number, and an illegal placement is refused with the rule that forbids it.
"""

from __future__ import annotations

import numpy as np

from cathedral.core.contract import TERMINAL, Game, State, ranked_returns
from cathedral.core.errors import IllegalActionError, NotationError
from cathedral.games.classic import notation
from cathedral.games.classic.movegen import ALL_KINDS, placement_mask
from cathedral.games.classic.observation import observe
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_OF,
    ACTION_SQUARES,
    COLOUR_NAMES,
    COPIES,
    DARK,
    FULL,
    GONE,
    IN_HAND,
    LIGHT,
    NUM_ACTIONS,
    ON_BOARD,
    PLACEMENTS,
    PLAYER_BUILDINGS,
    SQUARES_OF_BUILDING,
    Building,
    dilate,
    flood,
    mask_of,
    square_name,
    squares_of,
)


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
        """Returns the bool mask of every legal placement for ``colour`` (``movegen``)."""
        return placement_mask(self, colour)

    def ensure_mask(self) -> None:
        if self.legal_mask is None:
            self.legal_mask = self.placement_mask(self.to_move)

    def ensure_legal(self) -> None:
        # The mask is often all that is wanted (pass_turn, the research interfaces).
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
            # Either opening: the colour that has not built yet moves (rules.md, Order of play).
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
        just placed (rules.md, Territory and capture, steps 1-4)."""
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


class ClassicState(State):
    """A position of classic Cathedral and the actions that led to it."""

    def __init__(self, game: Game, position: Position) -> None:
        super().__init__(game)
        self.position = position

    # ----- the contract -------------------------------------------------------------------

    def current_player(self) -> int:
        return self.position.to_move

    def _legal_actions(self) -> list[int]:
        position = self.position
        if position.legal is None:
            position.ensure_legal()
        return list(position.legal)

    def _is_legal(self, action: int) -> bool:
        position = self.position
        if position.to_move == TERMINAL:
            return False
        position.ensure_mask()
        return bool(position.legal_mask[action])

    def legal_actions_mask(self) -> np.ndarray:
        if self.position.to_move == TERMINAL:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        self.position.ensure_mask()
        return self.position.legal_mask.copy()

    def position_key(self) -> tuple:
        # Which buildings stand where (not just the squares) decides hands and captures.
        position = self.position
        return (
            position.to_move,
            tuple(sorted(position.pieces[0])),
            tuple(sorted(position.pieces[1])),
            position.cathedral,
            position.cathedral_state,
            position.territory[0],
            position.territory[1],
            position.built[0],
            position.built[1],
        )

    def _forget_caches(self) -> None:
        self.position.legal = None
        self.position.legal_mask = None

    def _apply_action(self, action: int) -> None:
        self.position.place(action)

    def clone(self) -> ClassicState:
        other = ClassicState.__new__(ClassicState)
        other.game = self.game
        other._history = self._history[:]
        other.position = self.position.copy()
        return other

    def returns(self) -> list[float]:
        if self.position.to_move != TERMINAL:
            return [0.0, 0.0]
        return ranked_returns(self.scores(), higher_is_better=False)

    def scores(self) -> list[float]:
        """Returns each colour's unplaced squares (lower is better)."""
        return [float(self.position.unplaced(LIGHT)), float(self.position.unplaced(DARK))]

    def result_string(self) -> str:
        if not self.is_terminal():
            return ""
        light, dark = (int(s) for s in self.scores())
        if light == dark:
            return f"Draw: Light and Dark both have {light} unplaced squares."
        winner = LIGHT if light < dark else DARK
        return (
            f"{COLOUR_NAMES[winner]} wins: Light {light}, Dark {dark} unplaced squares "
            "(lower wins)."
        )

    def _action_to_string(self, action: int) -> str:
        return notation.action_string(action)

    def _string_to_action(self, text: str) -> int:
        building, squares = notation.parse_placement(text)
        colour = self.position.to_move
        mask = mask_of(squares)
        action = ACTION_OF[colour].get((building, mask))
        placement = f"placement {text.strip()!r}"
        if action is None:
            other = ACTION_OF[1 - colour].get((building, mask))
            if other is not None:
                raise NotationError(
                    f"{placement}: those squares form {COLOUR_NAMES[1 - colour]}'s "
                    f"{building.title}; {COLOUR_NAMES[colour]}'s is its mirror image and "
                    "buildings are never reflected"
                )
            size = SQUARES_OF_BUILDING[building]
            if len(squares) != size:
                raise NotationError(
                    f"{placement}: the {building.title} covers {size} squares, "
                    f"{len(squares)} given"
                )
            raise NotationError(
                f"{placement}: those squares do not form the {building.title} in any rotation"
            )
        self._explain_illegal(action, placement)
        return action

    def _explain_illegal(self, action: int, placement: str) -> None:
        """Raises IllegalActionError naming the rule that forbids ``action``, if any."""
        position = self.position
        colour = position.to_move
        name = COLOUR_NAMES[colour]
        building = ACTION_BUILDING[action]
        if building is Building.CATHEDRAL:
            if position.cathedral_state == ON_BOARD:
                raise IllegalActionError(f"illegal {placement}: the Cathedral is already placed")
            if position.cathedral_state == GONE:
                raise IllegalActionError(
                    f"illegal {placement}: the Cathedral was captured and is out of the game"
                )
            if colour != LIGHT:
                raise IllegalActionError(f"illegal {placement}: Light places the Cathedral")
        elif colour == LIGHT and position.cathedral_state == IN_HAND:
            raise IllegalActionError(f"illegal {placement}: Light must place the Cathedral first")
        elif position.hands[colour][building] == 0:
            raise IllegalActionError(
                f"illegal {placement}: {name} has no {building.title} in hand"
            )
        for square in ACTION_SQUARES[action]:
            bit = 1 << square
            owner = self._occupant(square)
            if owner:
                raise IllegalActionError(f"illegal {placement}: {square_name(square)} is "
                                         f"occupied by {owner}")
            if position.territory[1 - colour] & bit and building is not Building.CATHEDRAL:
                raise IllegalActionError(
                    f"illegal {placement}: {square_name(square)} is in "
                    f"{COLOUR_NAMES[1 - colour]}'s territory"
                )
        if not self._is_legal(action):  # pragma: no cover - every rule is named above
            raise IllegalActionError(f"illegal {placement}")

    def _occupant(self, square: int) -> str:
        position = self.position
        if position.cathedral >> square & 1:
            return "the Cathedral"
        for colour in (LIGHT, DARK):
            for action in position.pieces[colour]:
                if PLACEMENTS[action] >> square & 1:
                    return f"{COLOUR_NAMES[colour]}'s {ACTION_BUILDING[action].title}"
        return ""

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        position = self.position
        return observe(position, position.to_move if player is None else player)

    def _to_dict(self) -> dict:
        position = self.position
        return {
            "to_move": position.to_move,
            "cathedral": cathedral_action(position.cathedral),
            "cathedral_captured": position.cathedral_state == GONE,
            "pieces": [sorted(position.pieces[0]), sorted(position.pieces[1])],
            "territory": [squares_of(position.territory[0]), squares_of(position.territory[1])],
            "built": list(position.built),
            "history": list(self._history),
        }

    def skipped_after(self, action: int) -> list[int]:
        """The colours whose turn ``action`` skips: the opponent, when it cannot place."""
        before = self.position
        after = before.copy()
        after.place(action)
        return [1 - before.to_move] if skips(after, before.to_move, action) else []

    def last_mover(self) -> int:
        """Returns the colour of the last placement (the Cathedral counts as Light's)."""
        # A building is never captured by its own placement, so it is still on the board.
        last = self._history[-1]
        if ACTION_BUILDING[last] is Building.CATHEDRAL or last in self.position.pieces[LIGHT]:
            return LIGHT
        return DARK


def skips(after: Position, colour: int, action: int) -> bool:
    """Whether the opponent of ``colour`` loses their turn in ``after``, the position after
    ``action``: the same colour is to move again (the Cathedral, placed for Light before
    Light's first building, is not a turn of its own)."""
    return after.to_move == colour and ACTION_BUILDING[action] is not Building.CATHEDRAL


def cathedral_action(mask: int) -> int | None:
    """Returns the action that placed the Cathedral on ``mask`` (None: not on the board)."""
    if not mask:
        return None
    return ACTION_OF[LIGHT][(Building.CATHEDRAL, mask)]
