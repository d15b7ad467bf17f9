"""Classic Cathedral's state JSON read back: every field checked, impossible positions refused.

``ClassicState._to_dict`` writes the position (who is to move, the Cathedral's placement, each
colour's placements, territories and first-building flags, the history); hands are not stored
but derived from the buildings on the board. Reading it back checks each field and the
invariants between them, and says what was found and what was expected.
"""

from __future__ import annotations

from cathedral.core.contract import TERMINAL, Game, check_history
from cathedral.core.errors import StateError
from cathedral.games.classic import notation
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_SQUARES,
    BLOCKS,
    COLOUR_NAMES,
    COPIES,
    DARK,
    GONE,
    LIGHT,
    ON_BOARD,
    PLACEMENTS,
    PLAYER_BUILDINGS,
    Building,
    block_of,
    mask_of,
)
from cathedral.games.classic.state import ClassicState, Position


def state_from_dict(game: Game, data: dict) -> ClassicState:
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
