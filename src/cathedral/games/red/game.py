"""The Red Cathedral as a ``Game``: parameters, static facts and the state factory."""

from __future__ import annotations

from functools import cached_property
from importlib import resources

from cathedral.core.contract import Game, GameInfo
from cathedral.core.params import Param
from cathedral.games.red import actions as A
from cathedral.games.red.components import (
    LEGACY_SETS,
    MAX_HEIGHT,
    SHIPPED,
    Components,
    check_components_param,
    load_components,
)
from cathedral.games.red.observation import observation_layout, observation_size
from cathedral.games.red.scoring import Track
from cathedral.games.red.serialize import state_from_dict
from cathedral.games.red.state import RedState

SEATS = ("Red", "Blue", "Yellow", "Green")


class RedGame(Game):
    """The Red Cathedral (Devir 2020) for 2 to 4 players, on a documented component set."""

    info = GameInfo(
        name="red",
        title="The Red Cathedral",
        rules_version=2,
        seat_names=SEATS,
        parameters=(
            Param("players", 2, int, "number of players (2-4)", choices=(2, 3, 4)),
            Param("workshop", "basic", str, "workshop board side", choices=("basic", "advanced")),
            Param(
                "components", SHIPPED, str,
                "component data: 'reconstructed' (shipped), 'reconstructed-1' (the set of "
                "rules version 1) or the path of a JSON file",
                check=check_components_param,
            ),
            Param(
                "two_player_towers", "thirds", str,
                "tower scoring with 2 players: 'thirds' (published: the greater presence takes "
                "the value, the other a third rounded down, a tie scores nothing) or 'seed' "
                "(the seed's ladder: the second takes half, ties split)",
                choices=("thirds", "seed"),
            ),
            Param(
                "lower_places", "one", str,
                "tower scoring with 3-4 players, third place and below: 'one' (the seed: the "
                "next player takes 1 point) or 'halving' (published: each place half of the "
                "one before, rounded down)",
                choices=("one", "halving"),
            ),
            Param(
                "rubles_timing", "one_moment", str,
                "when prestige may be sold for rubles: 'one_moment' (published: as often as "
                "wanted, but all at one moment of the turn) or 'any_moment' (rules version "
                "1: interleaved anywhere in the turn)",
                choices=("one_moment", "any_moment"),
            ),
            Param(
                "influence_layout", "random", str,
                "which influence group sits on which market quadrant: 'random' (a setup "
                "chance outcome; the seed says the position does not matter) or 'fixed' "
                "(rules version 1: artisans, carriers, merchants, clergy on spaces 1-2 to 7-8)",
                choices=("random", "fixed"),
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
        p = self.params
        self.thirds = p["two_player_towers"] == "thirds"
        self.halving = p["lower_places"] == "halving"
        self.sale_once = p["rubles_timing"] == "one_moment"
        self.random_layout = p["influence_layout"] == "random"
        self._plan_slots: dict[int, tuple[int, ...]] = {}
        self._fill_order: dict[int, tuple[int, ...]] = {}

    @classmethod
    def params_for_rules_version(cls, version: int, params: dict) -> dict | None:
        """Returns the parameters that play a record of rules ``version`` exactly under the
        current rules, or None when that version cannot be replayed.

        Rules version 1 (the first published here) is rules version 2 with the options of then:
        the seed's tower ladder, sales of prestige at any moment, the fixed influence layout
        and the component set of that time (``reconstructed-1``, its 90-space track).
        """
        if version != 1 or not isinstance(params, dict):
            return None
        old = dict(params)
        if old.get("components", SHIPPED) == SHIPPED:
            old["components"] = LEGACY_SETS[1]
        old.setdefault("two_player_towers", "seed")
        old.update(lower_places="one", rubles_timing="any_moment", influence_layout="fixed")
        return old

    @property
    def num_players(self) -> int:
        return self.params["players"]

    def player_names(self) -> list[str]:
        return list(SEATS[: self.num_players])

    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    def observation_shape(self) -> tuple[int, ...]:
        return (observation_size(),)

    def observation_layout(self) -> tuple[dict, ...]:
        """Returns the named parts of ``observation_tensor`` in order, with shapes, bounds and
        meanings (``cathedral rules red`` and the research interfaces print and use it)."""
        return observation_layout(self)

    def action_layout(self) -> tuple[tuple[str, int, int, str], ...]:
        """Returns ``(name, first, last, meaning)`` for each block of the action space."""
        return tuple(
            (name, start, start + size - 1, A.BLOCK_MEANINGS[name])
            for name, start, size in A.BLOCKS
        )

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
        # reroll + rolls, claim or build, market (move, take, activate, influences), done
        decisions = 4 + 18 + 1 + 2
        return decisions, gain

    def max_game_length(self) -> int:
        n = self.num_players
        c = self.components
        slots = max(sum(t) for t, k in zip(c.plan_towers, c.plan_players, strict=True) if k == n)
        setup = 8 + 4 + 1 + 2 * slots + 10
        turns = self.turn_cap * n + n
        decisions, gain = self.turn_bound
        # Each sale moves a marker down a space: no more sales than steps ever gained.
        rubles = turns * gain + n * c.track_start
        return setup + turns * decisions + rubles

    def new_initial_state(self) -> RedState:
        return RedState(self)

    def _state_from_dict(self, data: dict) -> RedState:
        return state_from_dict(self, data)

    def rules_text(self) -> str:
        text = resources.files("cathedral.games.red").joinpath("rules.md").read_text("utf-8")
        c = self.components
        options = "\n".join(
            f"- `{prm.name}` = `{self.params[prm.name]}` (default `{prm.default}`; "
            f"{prm.expected()}): {prm.help}"
            for prm in self.info.parameters
        )
        shipped = resources.files("cathedral.games.red").joinpath("data", "reconstructed.json")
        track = f"\n\nThe score track: {c.track_provenance}" if c.track_provenance else ""
        return (
            f"{text}\n## This game's options\n\n{options}\n"
            f"\n## This game's component set\n\n`{self.params['components']}` "
            f"({c.name}): {c.provenance}{track}\n\nThe shipped set is installed with this "
            f"package at `{shipped}`.\n"
        )
