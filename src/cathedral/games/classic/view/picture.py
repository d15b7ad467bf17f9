"""Classic Cathedral's picture for graphical front ends: the city, both trays, and what every
legal placement would claim and capture.

Squares are indexes 0..99 (``pieces``: ``rank * 10 + file``, a1 = 0, j10 = 99). A building's
shapes are its distinct rotations as ``[file, rank]`` offsets from the lower-left corner of its
bounding box, so a front end finds the placement under the pointer by adding an anchor square
and looking the squares up in ``moves``. What a placement claims and captures is worked out by
playing it on a copy of the position, with the rules' own code.
"""

from __future__ import annotations

from cathedral.core.contract import TERMINAL
from cathedral.games.classic import notation
from cathedral.games.classic.pieces import (
    ACTION_BUILDING,
    ACTION_SQUARES,
    COLOUR_NAMES,
    COPIES,
    DARK,
    FILES,
    GONE,
    IN_HAND,
    LIGHT,
    PLAYER_BUILDINGS,
    SIZE,
    SQUARES_OF_BUILDING,
    Building,
    rotations,
    shape,
    squares_of,
)
from cathedral.games.classic.state import ClassicState
from cathedral.games.classic.view.render import LETTERS, prompt_hint

CATHEDRAL_STATES = {IN_HAND: "hand", GONE: "gone"}


def _shapes(building: Building, colour: int) -> list[list[list[int]]]:
    return [sorted([x, y] for x, y in cells) for cells in rotations(shape(building, colour))]


def _tray(state: ClassicState, colour: int) -> list[dict]:
    position = state.position
    tray = []
    for building in PLAYER_BUILDINGS:
        tray.append(
            {
                "building": building.title,
                "letter": LETTERS[building],
                "in_hand": position.hands[colour][building],
                "copies": COPIES[building],
                "size": SQUARES_OF_BUILDING[building],
                "shapes": _shapes(building, colour),
            }
        )
    if colour == LIGHT and position.cathedral_state == IN_HAND:
        tray.insert(
            0,
            {
                "building": "Cathedral",
                "letter": "#",
                "in_hand": 1,
                "copies": 1,
                "size": SQUARES_OF_BUILDING[Building.CATHEDRAL],
                "shapes": _shapes(Building.CATHEDRAL, LIGHT),
            },
        )
    return tray


def _moves(state: ClassicState) -> list[dict]:
    """Returns every legal placement with the squares it would claim and capture."""
    position = state.position
    colour = position.to_move
    if colour == TERMINAL:
        return []
    opponent = 1 - colour
    out = []
    for action in state.legal_actions():
        after = position.copy()
        after.place(action)
        entry: dict = {
            "action": action,
            "notation": notation.action_string(action),
            "squares": list(ACTION_SQUARES[action]),
        }
        if ACTION_BUILDING[action] is not Building.CATHEDRAL:
            claims = after.territory[colour] & ~position.territory[colour]
            if claims:
                entry["claims"] = squares_of(claims)
            captured = (position.walls[opponent] & ~after.walls[opponent]) | (
                position.cathedral & ~after.cathedral
            )
            if captured:
                entry["captures"] = squares_of(captured)
        out.append(entry)
    return out


def _last_move(state: ClassicState) -> dict | None:
    history = state.history()
    if not history:
        return None
    last = history[-1]
    return {
        "action": last,
        "notation": notation.action_string(last),
        "squares": list(ACTION_SQUARES[last]),
        "player": state.last_mover(),
    }


def picture(state: ClassicState) -> dict:
    """Returns the JSON-ready picture of a classic position (see the module docstring)."""
    position = state.position
    buildings = [
        {
            "player": colour,
            "building": ACTION_BUILDING[action].title,
            "letter": LETTERS[ACTION_BUILDING[action]],
            "action": action,
            "squares": list(ACTION_SQUARES[action]),
        }
        for colour in (LIGHT, DARK)
        for action in position.pieces[colour]
    ]
    to_move = position.to_move
    return {
        "game": "classic",
        "size": SIZE,
        "files": FILES,
        "players": list(COLOUR_NAMES),
        "to_move": to_move,
        "opening": state.game.params["opening"],
        "cathedral": {
            "state": CATHEDRAL_STATES.get(position.cathedral_state, "board"),
            "squares": squares_of(position.cathedral),
        },
        "buildings": buildings,
        "territory": [squares_of(position.territory[LIGHT]), squares_of(position.territory[DARK])],
        "trays": [_tray(state, LIGHT), _tray(state, DARK)],
        "unplaced": [position.unplaced(LIGHT), position.unplaced(DARK)],
        "last_move": _last_move(state),
        "moves": _moves(state),
        "hint": prompt_hint(state),
        "result": state.result_string(),
    }
