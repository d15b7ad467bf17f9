"""Classic Cathedral behind the contract: player numbers, actions, notation, JSON, observations.

Player 0 is Light, player 1 Dark. ``rules.Position`` holds the game itself; this module
translates.
"""

from __future__ import annotations

from importlib import resources

import numpy as np

from cathedral.core.contract import TERMINAL, Game, GameInfo, State, check_history, ranked_returns
from cathedral.core.errors import IllegalActionError, NotationError, StateError
from cathedral.core.params import Param
from cathedral.games.classic import heuristic, narrate, notation, threats
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_OF,
    ACTION_SQUARES,
    BLOCKS,
    COLOUR_NAMES,
    COPIES,
    DARK,
    LIGHT,
    NUM_ACTIONS,
    PLACEMENTS,
    PLAYER_BUILDINGS,
    SQUARES_OF_BUILDING,
    Building,
    block_of,
    mask_of,
    square_name,
    squares_of,
)
from cathedral.games.classic.render import board_text, terminal_text
from cathedral.games.classic.rules import GONE, IN_HAND, ON_BOARD, Position

INFO = GameInfo(
    name="classic",
    title="Cathedral (Robert P. Moore, 1978)",
    rules_version=1,
    seat_names=COLOUR_NAMES,
    parameters=(
        Param(
            "opening",
            "standard",
            str,
            "who places the Cathedral: standard (Light, before Dark's first building) or "
            "lehmann (Light, after Dark's first building)",
            choices=("standard", "lehmann"),
        ),
    ),
    summary="Two players place polyomino buildings on a walled 10x10 city and claim territory.",
    lower_score_wins=True,
)

# The observation: named parts of one flat float32 vector, from the observer's side.
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
OBSERVATION_SIZE = sum(int(np.prod(shape)) for _, shape in OBSERVATION_LAYOUT)
_BITS = np.array([1 << i for i in range(64)], dtype=np.uint64)


def _mask_plane(mask: int) -> np.ndarray:
    low = np.uint64(mask & ((1 << 64) - 1))
    high = np.uint64(mask >> 64)
    return np.concatenate([(low & _BITS) != 0, (high & _BITS[:36]) != 0]).astype(np.float32)


class ClassicGame(Game):
    """Classic Cathedral with its opening fixed. Parameters: ``opening``."""

    info = INFO

    @property
    def num_players(self) -> int:
        return 2

    def player_names(self) -> list[str]:
        return list(COLOUR_NAMES)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def observation_shape(self) -> tuple[int, ...]:
        return (OBSERVATION_SIZE,)

    def max_game_length(self) -> int:
        # Every placement puts 1+ squares on a 100-square board and a capture frees at most
        # what it removes, so the bound is loose; but a capture needs a new wall piece, and
        # each colour has only 14 buildings, 47 squares: 100 placements is far above any game.
        return 200

    def new_initial_state(self) -> ClassicState:
        first = LIGHT if self.params["opening"] == "standard" else DARK
        return ClassicState(self, Position(first))

    def rules_text(self) -> str:
        return resources.files("cathedral.games.classic").joinpath("rules.md").read_text("utf-8")

    def _state_from_dict(self, data: dict) -> ClassicState:
        return _state_from_dict(self, data)


class ClassicState(State):
    """A position of classic Cathedral and the actions that led to it."""

    def __init__(self, game: ClassicGame, position: Position) -> None:
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

    def prompt_hint(self) -> str:
        position = self.position
        if position.to_move == LIGHT and position.cathedral_state == IN_HAND:
            return "Light places the Cathedral first (e.g. 'Cathedral e4 d5 e5 f5 e6 e7')."
        return ""

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
        me = position.to_move if player is None else player
        if me not in (LIGHT, DARK):
            me = LIGHT
        them = 1 - me
        parts = [
            _mask_plane(position.walls[me]),
            _mask_plane(position.walls[them]),
            _mask_plane(position.cathedral),
            _mask_plane(position.territory[me]),
            _mask_plane(position.territory[them]),
            np.array(position.hands[me], dtype=np.float32) / 2,
            np.array(position.hands[them], dtype=np.float32) / 2,
            np.array([position.cathedral_state == IN_HAND], dtype=np.float32),
            np.array([position.to_move == me], dtype=np.float32),
        ]
        return np.concatenate(parts)

    def _to_dict(self) -> dict:
        position = self.position
        return {
            "to_move": position.to_move,
            "cathedral": _cathedral_action(position.cathedral),
            "cathedral_captured": position.cathedral_state == GONE,
            "pieces": [sorted(position.pieces[0]), sorted(position.pieces[1])],
            "territory": [squares_of(position.territory[0]), squares_of(position.territory[1])],
            "built": list(position.built),
            "history": list(self._history),
        }

    def __str__(self) -> str:
        return self.render()

    def picture(self) -> dict:
        from cathedral.games.classic.picture import picture

        return picture(self)

    def describe_action(self, action: int) -> str:
        return narrate.describe(self, action)

    def skipped_after(self, action: int) -> list[int]:
        return narrate.skipped(self, action)

    def render(self, *, color: bool = False, width: int | None = None,
               height: int | None = None) -> str:
        """Returns the text board; given a terminal ``width``, the terminal's layout (the
        shapes in hand beside the board, the last placement marked even without colour)."""
        last = self._history[-1] if self._history else None
        if width is None:
            text = board_text(self.position, last_action=last, color=color)
        else:
            text = "\n".join(terminal_text(self.position, last_action=last, color=color,
                                           width=width))
        if last is not None:
            mover = self._last_mover()
            text += f"\nLast: {COLOUR_NAMES[mover]} {notation.action_string(last)}"
        if self.is_terminal():
            text += "\n" + self.result_string()
        elif self.position.to_move in (LIGHT, DARK):
            text += f"\n{COLOUR_NAMES[self.position.to_move]} to move."
        return text

    def _last_mover(self) -> int:
        """Returns the colour of the last placement (the Cathedral counts as Light's)."""
        # A building is never captured by its own placement, so it is still on the board.
        last = self._history[-1]
        if ACTION_BUILDING[last] is Building.CATHEDRAL or last in self.position.pieces[LIGHT]:
            return LIGHT
        return DARK

    # ----- heuristics (search hooks, see ``heuristic``) -------------------------------------

    def evaluate(self) -> list[float]:
        if self.is_terminal():
            return self.returns()
        return heuristic.evaluate(self.position)

    def action_heuristics(self) -> list[tuple[int, float]]:
        return heuristic.action_scores(self.position, self._legal_actions())

    def threat_actions(self, player: int, limit: int) -> list[int]:
        """Returns ``player``'s best set-ups (``threats.threat_actions``): placements whose
        worth shows one placement later, which search keeps in view beyond its width."""
        return [action for action, _ in threats.threat_actions(self.position, player, limit)]


def _cathedral_action(mask: int) -> int | None:
    if not mask:
        return None
    return ACTION_OF[LIGHT][(Building.CATHEDRAL, mask)]


def _state_from_dict(game: ClassicGame, data: dict) -> ClassicState:
    """Rebuilds and checks a state; StateError says what is impossible and what was expected."""
    history = check_history(data, game)
    to_move = data["to_move"]
    if to_move not in (LIGHT, DARK, TERMINAL):
        raise StateError(f"corrupt state: to_move {to_move!r}, expected 0, 1 or {TERMINAL}")
    position = Position(to_move)
    cathedral = data["cathedral"]
    if cathedral is not None:
        if cathedral not in BLOCKS[(Building.CATHEDRAL, None)]:
            raise StateError(f"corrupt state: cathedral {cathedral!r} is not a Cathedral placement")
        position.cathedral = PLACEMENTS[cathedral]
        position.cathedral_state = ON_BOARD
        if data["cathedral_captured"] is not False:
            raise StateError("corrupt state: the Cathedral is both on the board and captured")
    elif data["cathedral_captured"] is True:
        position.cathedral_state = GONE
    occupied = position.cathedral
    for colour in (LIGHT, DARK):
        pieces = data["pieces"][colour]
        counts = dict.fromkeys(PLAYER_BUILDINGS, 0)
        for action in pieces:
            if not isinstance(action, int) or isinstance(action, bool) or not any(
                action in block_of(b, colour) for b in PLAYER_BUILDINGS
            ):
                raise StateError(
                    f"corrupt state: {action!r} is not a {COLOUR_NAMES[colour]} placement"
                )
            if PLACEMENTS[action] & occupied:
                raise StateError(f"corrupt state: {notation.action_string(action)} overlaps")
            occupied |= PLACEMENTS[action]
            counts[ACTION_BUILDING[action]] += 1
        for building, count in counts.items():
            if count > COPIES[building]:
                raise StateError(
                    f"corrupt state: {COLOUR_NAMES[colour]} has {count} {building.title} on the "
                    f"board, expected at most {COPIES[building]}"
                )
        position.pieces[colour] = list(pieces)
        position.walls[colour] = mask_of(s for a in pieces for s in ACTION_SQUARES[a])
        squares = data["territory"][colour]
        if not all(isinstance(s, int) and 0 <= s < 100 for s in squares):
            raise StateError("corrupt state: territory must list squares 0..99")
        position.territory[colour] = mask_of(squares)
        built = data["built"][colour]
        if not isinstance(built, bool):
            raise StateError("corrupt state: built must be two booleans")
        position.built[colour] = built
    position.set_hands()
    if position.territory[0] & position.territory[1]:
        raise StateError("corrupt state: a square is in both colours' territory")
    if to_move != TERMINAL:
        position.ensure_legal()
        if not position.legal:
            raise StateError(f"corrupt state: {COLOUR_NAMES[to_move]} is to move but cannot place")
    else:
        position.legal = []
    state = ClassicState(game, position)
    state._history = history
    return state
