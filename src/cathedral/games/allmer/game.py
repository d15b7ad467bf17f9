"""The ``allmer`` game: parameters, static facts and the factory of states.

Simon Allmer's Cathedral ("The Conversion") for 2 or 4 players on a cross of five 5 x 5
fields; the rules as implemented are ``rules.md`` here (``cathedral rules allmer``).
"""

from __future__ import annotations

from importlib import resources

from cathedral.core.contract import Game, GameInfo
from cathedral.core.params import Param
from cathedral.games.allmer.geometry import DIRECTION_NAMES, MOUTHS, NUM_POINTS, SIZE
from cathedral.games.allmer.movegen import (
    MAX_DISTANCE,
    MIN_ALIVE,
    NUM_ACTIONS,
    PASSAGE_BASE,
    STOP,
)
from cathedral.games.allmer.observation import observation_layout, plane_names
from cathedral.games.allmer.serialize import state_from_dict
from cathedral.games.allmer.state import AllmerState, Config

DEFAULT_TURN_LIMIT = {2: 400, 4: 1000}
"""The turn cap used when ``max_turns`` is None."""
UNBOUNDED = 2**31 - 1
"""``max_game_length`` when the turn cap is switched off (nothing else bounds a game)."""

INFO = GameInfo(
    name="allmer",
    title="Cathedral (Simon Allmer)",
    rules_version=1,
    seat_names=("White", "Blue", "Black", "Red"),
    parameters=(
        Param("players", 2, int, "number of players", choices=(2, 4)),
        Param(
            "field",
            "middle4",
            str,
            "strong points: middle4 (the centre point is weak) or middle8 (it is strong)",
            choices=("middle4", "middle8"),
        ),
        Param("withdraw", False, bool, "also convert by withdrawing from an enemy line"),
        Param(
            "repetition",
            3,
            int,
            "end the game when a turn-start position occurs this often (0: never)",
            minimum=0,
        ),
        Param(
            "quiet_turns",
            100,
            int,
            "end the game after this many turns in a row without a conversion (0: never)",
            minimum=0,
        ),
        Param(
            "max_turns",
            None,
            int,
            "end the game after this many turns (None: 400 with 2 players, 1000 with 4; 0: never)",
            minimum=0,
            optional=True,
        ),
    ),
    summary=(
        "Simon Allmer's Cathedral: stones slide along the lines of a cross as far as their "
        "friendly line reaches and convert enemy lines by approach; reduce every rival below "
        "4 stones."
    ),
)


class AllmerGame(Game):
    """Allmer's Cathedral with its parameters fixed (see ``INFO.parameters``)."""

    info = INFO

    def __init__(self, **params) -> None:
        super().__init__(**params)
        n = self.params["players"]
        cap = self.params["max_turns"]
        self.turn_limit: int = DEFAULT_TURN_LIMIT[n] if cap is None else cap
        self._config = Config(self)

    @property
    def num_players(self) -> int:
        return self.params["players"]

    def player_names(self) -> list[str]:
        if self.num_players == 2:
            return ["White", "Black"]
        return ["White", "Blue", "Black", "Red"]

    def colour_letters(self) -> str:
        """Returns the board letter of each colour, index 0 (empty) first."""
        return ".WB" if self.num_players == 2 else ".WUBR"

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def observation_planes(self) -> list[str]:
        """Returns the name of each plane of ``observation_tensor``, in order."""
        return plane_names(self.num_players)

    def observation_layout(self) -> tuple[dict, ...]:
        """Returns the planes of ``observation_tensor`` in order, with shapes, bounds and
        meanings (``cathedral rules allmer`` and the research interfaces print and use it)."""
        return observation_layout(self.num_players)

    def action_layout(self) -> tuple[tuple[str, int, int, str], ...]:
        """Returns ``(name, first, last, meaning)`` for each block of the action space."""
        return (
            ("step", 0, PASSAGE_BASE - 1,
             f"((from * 8 + direction) * {MAX_DISTANCE} + distance - 1) * 2 + kind: from the "
             f"point 0-{NUM_POINTS - 1} (row by row from the north), direction "
             f"{', '.join(DIRECTION_NAMES)} (0-7), distance 1-{MAX_DISTANCE}, kind 0 a walk "
             "or approach, 1 a withdrawal"),
            ("passage", PASSAGE_BASE, STOP - 1,
             f"a passage: {PASSAGE_BASE} + the index (0-{len(MOUTHS) - 1}) of the mouth it "
             "starts from"),
            ("stop", STOP, STOP, "end the chain in progress"),
        )

    def observation_shape(self) -> tuple[int, ...]:
        return (2 * self.num_players + 5, SIZE, SIZE)

    def max_game_length(self) -> int:
        if not self.turn_limit:
            return UNBOUNDED
        # A turn: one walk, or a chain converting 1+ enemy stone a step, then stop.
        per_turn = 15 * self.num_players - MIN_ALIVE + 1
        return self.turn_limit * per_turn

    def new_initial_state(self) -> AllmerState:
        return AllmerState(self)

    def _state_from_dict(self, data: dict) -> AllmerState:
        return state_from_dict(self, data)

    def rules_text(self) -> str:
        return resources.files(__package__).joinpath("rules.md").read_text(encoding="utf-8")
