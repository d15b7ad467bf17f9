"""Classic Cathedral as a ``Game``: its static facts, its one parameter and the state factory.

Player 0 is Light, player 1 Dark. The rules are ``state`` (``Position`` and ``ClassicState``);
``view`` shows a state to people and ``heuristic`` judges it for computer players, both
registered beside the game in ``cathedral.games``.
"""

from __future__ import annotations

from importlib import resources

from cathedral.core.contract import Game, GameInfo
from cathedral.core.params import Param
from cathedral.games.classic.observation import OBSERVATION_SIZE, observation_layout
from cathedral.games.classic.pieces import (
    BLOCKS,
    COLOUR_NAMES,
    COPIES,
    DARK,
    LIGHT,
    NUM_ACTIONS,
    SQUARES_OF_BUILDING,
)
from cathedral.games.classic.serialize import state_from_dict
from cathedral.games.classic.state import ClassicState, Position

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

    def observation_layout(self) -> tuple[dict, ...]:
        """Returns the named parts of ``observation_tensor`` in order, with shapes, bounds and
        meanings (``cathedral rules classic`` and the research interfaces print and use it)."""
        return observation_layout()

    def action_layout(self) -> tuple[tuple[str, int, int, str], ...]:
        """Returns ``(name, first, last, meaning)`` for each block of the action space."""
        out = []
        for (building, colour), block in BLOCKS.items():
            name = building.title if colour is None else f"{COLOUR_NAMES[colour]} {building.title}"
            size = SQUARES_OF_BUILDING[building]
            note = ""
            if COPIES.get(building) == 2:
                note = "; both copies share the block"
            elif colour is not None:
                note = f"; {COLOUR_NAMES[colour]}'s shape (the colours' shapes mirror)"
            out.append((name, block.start, block.stop - 1,
                        f"a placement of its {size} square{'s' * (size > 1)}, the block "
                        f"sorted by squares{note}"))
        return tuple(out)

    def max_game_length(self) -> int:
        # Loose: 14 buildings a colour, and each capture needs another building placed.
        return 200

    def new_initial_state(self) -> ClassicState:
        first = LIGHT if self.params["opening"] == "standard" else DARK
        return ClassicState(self, Position(first))

    def rules_text(self) -> str:
        return resources.files("cathedral.games.classic").joinpath("rules.md").read_text("utf-8")

    def _state_from_dict(self, data: dict) -> ClassicState:
        return state_from_dict(self, data)
