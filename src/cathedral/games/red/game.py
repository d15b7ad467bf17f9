"""The Red Cathedral as a ``Game``: parameters, static facts and the state factory."""

from __future__ import annotations

from functools import cached_property
from importlib import resources

from cathedral.core.contract import Game, GameInfo
from cathedral.core.params import Param
from cathedral.games.red import actions as A
from cathedral.games.red.components import (
    MAX_HEIGHT,
    SHIPPED,
    Components,
    check_components_param,
    load_components,
)
from cathedral.games.red.scoring import Track

SEATS = ("Red", "Blue", "Yellow", "Green")


class RedGame(Game):
    """The Red Cathedral (Devir 2020) for 2 to 4 players, on a documented component set."""

    info = GameInfo(
        name="red",
        title="The Red Cathedral",
        rules_version=1,
        seat_names=SEATS,
        parameters=(
            Param("players", 2, int, "number of players (2-4)", choices=(2, 3, 4)),
            Param("workshop", "basic", str, "workshop board side", choices=("basic", "advanced")),
            Param(
                "components", SHIPPED, str,
                "component data: 'reconstructed' (shipped) or the path of a JSON file",
                check=check_components_param,
            ),
            Param(
                "two_player_towers", "seed", str,
                "tower scoring with 2 players: 'seed' (2nd takes half) or 'thirds' (the "
                "published variant: the loser takes a third, a tie scores nothing)",
                choices=("seed", "thirds"),
            ),
            Param(
                "turn_cap", 100, int,
                "safety cap (this project's addition): the game is scored after this many "
                "rounds if nobody has completed a sixth section",
                minimum=1,
            ),
        ),
        summary="The Red Cathedral: build and adorn St Basil's with dice, materials and "
        "influence (2-4 players; reconstructed components)",
    )

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.components: Components = load_components(self.params["components"])
        c = self.components
        self.advanced = self.params["workshop"] == "advanced"
        side = self.params["workshop"]
        self.board_die = c.board_die[side]
        self.board_cost = c.board_cost[side]
        self.board_ornament = c.board_ornament[side]
        self.turn_cap = self.params["turn_cap"]
        self.track = Track(c.track_length, c.prestige_spaces)
        self._plan_slots: dict[int, tuple[int, ...]] = {}
        self._fill_order: dict[int, tuple[int, ...]] = {}

    @property
    def num_players(self) -> int:
        return self.params["players"]

    def player_names(self) -> list[str]:
        return list(SEATS[: self.num_players])

    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    def observation_shape(self) -> tuple[int, ...]:
        from cathedral.games.red.observation import observation_size

        return (observation_size(),)

    def plan_slots(self, plan: int) -> tuple[int, ...]:
        """Returns the slots a plan uses, sorted."""
        if plan not in self._plan_slots:
            towers = self.components.plan_towers[plan]
            self._plan_slots[plan] = tuple(
                t * MAX_HEIGHT + h for t, height in enumerate(towers) for h in range(height)
            )
        return self._plan_slots[plan]

    def fill_order(self, plan: int) -> tuple[int, ...]:
        """Returns the slots in setup order: every foundation, then the middle sections tower
        by tower from the bottom, then every dome (the seed's setup step 11)."""
        if plan not in self._fill_order:
            towers = self.components.plan_towers[plan]
            bases = [t * MAX_HEIGHT for t in range(len(towers))]
            middles = [t * MAX_HEIGHT + h for t, height in enumerate(towers)
                       for h in range(1, height - 1)]
            domes = [t * MAX_HEIGHT + height - 1 for t, height in enumerate(towers)]
            self._fill_order[plan] = tuple(bases + middles + domes)
        return self._fill_order[plan]

    @cached_property
    def turn_bound(self) -> tuple[int, int]:
        """Returns (decisions per turn without the rubles action, recognition steps a turn
        can gain at most): the two numbers ``max_game_length`` is built from."""
        c = self.components
        gap = self.track.max_gap
        infl_steps = max(
            a.gain[7] + a.gain[8] * gap for card in c.influence_actions for a in card
        )
        tile_steps = max([g[7] for g in c.workshop_gain] + list(c.tile_yield))
        gain = (
            3 * max(c.card_recognition)       # three completions in one build
            + 6 * gap                         # gems (3 prestige) and the sixth completion (3)
            + 4 * max(c.tile_yield) * 3       # a recognition take
            + 2 * tile_steps                  # a face-up tile and an activation
            + 12 * infl_steps                 # influence, repeated at most ~11 times
        )
        # reroll (1 + 3 rolls), claim (2) or build (3 + done) or market (move, take,
        # activate, 11 influences, done, 3 rolls), done
        decisions = 4 + 18 + 1 + 2
        return decisions, gain

    def max_game_length(self) -> int:
        n = self.num_players
        c = self.components
        slots = max(sum(t) for t, k in zip(c.plan_towers, c.plan_players, strict=True) if k == n)
        setup = 8 + 4 + 1 + 2 * slots + 10
        turns = self.turn_cap * n + n
        decisions, gain = self.turn_bound
        # every rubles action moves a marker down at least one space, so there are at most
        # as many as the recognition steps gained in the whole game (plus the start)
        rubles = turns * gain + n * c.track_start
        return setup + turns * decisions + rubles

    def new_initial_state(self):
        from cathedral.games.red.state import RedState

        return RedState(self)

    def _state_from_dict(self, data: dict):
        from cathedral.games.red.state import state_from_dict

        return state_from_dict(self, data)

    def rules_text(self) -> str:
        text = resources.files("cathedral.games.red").joinpath("rules.md").read_text("utf-8")
        c = self.components
        return (
            f"{text}\n## This game's component set\n\n`{self.params['components']}` "
            f"({c.name}): {c.provenance}\n"
        )
