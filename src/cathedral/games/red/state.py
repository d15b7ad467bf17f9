"""The Red Cathedral's rules: setup as chance nodes, the turn as a sequence of atomic
decisions, completions and penalties, the end trigger and the final scoring.

Representation (flat lists of ints, so ``clone`` is a handful of list copies):

- the cathedral is 10 towers x 8 heights of *slots* (``slot = tower * 8 + height``); only the
  drawn plan's slots are used. Per slot: the card, its workshop tile, the banner's owner,
  whether it is built, the ornament's owner and gem set, and ``need[slot * 6 + material]``,
  what is still to be delivered (what was delivered sits on the card);
- per player, flat lists indexed ``player * width + i``: inventory (6 materials), workshop
  spaces (tile and face), ornaments available (door, arch, cross);
- the market: the resource tile of each of the 8 spaces, the space and pips of each die.

A turn runs through phases: START (no basic action yet), CLAIMED (place the claimed card's
workshop tile), BUILD (deliveries left), MARKET (after a die move), AFTER (only the optional
actions and ``done`` remain). Dice to roll wait in ``rolls``; while any wait the state is a
chance node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cathedral.core.contract import CHANCE, TERMINAL, State, ranked_returns
from cathedral.games.red import actions as A
from cathedral.games.red.components import (
    GROUPS,
    LEVELS,
    MAX_HEIGHT,
    ORNAMENT_MATERIAL,
    RECOGNITION,
    RUBLES,
)
from cathedral.games.red.movegen import build_actions, legal_actions, market_actions
from cathedral.games.red.notation import action_to_string, string_to_action
from cathedral.games.red.observation import observe
from cathedral.games.red.phases import (
    AFTER,
    BUILD,
    CLAIMED,
    MARKET,
    NOT_SOLD,
    OVER,
    PHASE_NAMES,
    PLAY,
    S_CARDS,
    S_DICE,
    S_INFLUENCE,
    S_PLAN,
    S_TILES,
    S_WTILES,
    SELLING,
    SOLD,
    STAGE_NAMES,
    START,
    W,
)
from cathedral.games.red.scoring import tie_break_key, tower_points

if TYPE_CHECKING:
    from cathedral.games.red.game import RedGame

SLOTS = A.SLOTS

LIST_FIELDS = (
    "market", "infl", "slot_card", "slot_tile", "owner", "built", "need", "orn", "orn_gems",
    "dice_space", "dice_pips", "supply", "inv", "rubles", "pos", "bin", "bout", "ws_tile",
    "ws_up", "orn_avail", "orn_placed", "completed", "rolls", "final",
)
INT_FIELDS = (
    "stage", "step", "plan", "cur", "phase", "rerolled", "dleft", "mspace", "mdie", "took",
    "infl_act", "infl_count", "activated", "claim_slot", "resume", "turns", "trigger",
    "last_left", "sold",
)


def _freeze(value):
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


class RedState(State):
    """A position of The Red Cathedral (see the module docstring for the layout)."""

    game: RedGame

    def __init__(self, game: RedGame, *, _blank: bool = False) -> None:
        super().__init__(game)
        self.c = game.components
        self.n = game.num_players
        self.track = game.track
        if _blank:
            return
        c, n = self.c, self.n
        self.stage = S_TILES
        self.step = 0
        self.market = [-1] * 8
        self.infl = [-1] * 4
        self.plan = -1
        self.slot_card = [-1] * SLOTS
        self.slot_tile = [-1] * SLOTS
        self.owner = [-1] * SLOTS
        self.built = [0] * SLOTS
        self.need = [0] * (SLOTS * 6)
        self.orn = [-1] * SLOTS
        self.orn_gems = [0] * SLOTS
        self.dice_space = [-1] * 5
        self.dice_pips = [0] * 5
        self.supply = list(c.supply)
        self.inv = [0] * (n * 6)
        self.rubles = list(c.starting_rubles[:n])
        self.pos = [c.track_start] * n
        self.bin = [c.banners_in_inventory] * n
        self.bout = [c.banners - c.banners_in_inventory] * n
        self.ws_tile = [-1] * (n * W)
        self.ws_up = [0] * (n * W)
        start_orn = [0, 0, 0] if game.advanced else list(c.ornaments)
        self.orn_avail = start_orn * n
        self.orn_placed = [0] * n
        self.completed = [0] * n
        self.rolls: list[int] = []
        self.final: list[int] = []
        self.cur = 0
        self.phase = START
        self.rerolled = 0
        self.dleft = 0
        self.mspace = -1
        self.mdie = -1
        self.took = 0
        self.infl_act = -1
        self.infl_count = 0
        self.activated = 0
        self.claim_slot = -1
        self.resume = START
        self.turns = 0
        self.trigger = -1
        self.last_left = 0
        self.sold = NOT_SOLD
        self.slots: tuple[int, ...] = ()

    # ----- plan geometry --------------------------------------------------------------------

    def _set_plan(self, plan: int) -> None:
        self.plan = plan
        self.slots = self.game.plan_slots(plan) if plan >= 0 else ()

    def heights(self) -> tuple[int, ...]:
        return self.c.plan_towers[self.plan] if self.plan >= 0 else ()

    def top_of(self, slot: int) -> int:
        """Returns the slot of the dome of ``slot``'s tower."""
        t = slot // MAX_HEIGHT
        return t * MAX_HEIGHT + self.c.plan_towers[self.plan][t] - 1

    def level_of(self, slot: int) -> int:
        return self.c.card_level[self.slot_card[slot]]

    # ----- contract: whose turn ---------------------------------------------------------------

    def current_player(self) -> int:
        if self.stage == PLAY:
            return CHANCE if self.rolls else self.cur
        if self.stage == OVER:
            return TERMINAL
        return CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        values = self._chance_values()
        if not values:
            return []
        p = 1.0 / len(values)
        return [(A.CHANCE + v, p) for v in values]

    def _chance_values(self) -> list[int]:
        """Returns the chance outcome values (see ``actions``) of this chance node."""
        stage, c = self.stage, self.c
        if stage == PLAY:
            return [1, 2, 3, 4, 5, 6] if self.rolls else []
        if stage == S_TILES:
            used = set(self.market)
            return [i for i in range(8) if i not in used]
        if stage == S_INFLUENCE:
            if not self.game.random_layout:
                return [i for i, g in enumerate(c.influence_group) if g == self.step]
            placed = {c.influence_group[x] for x in self.infl if x >= 0}
            return [i for i, g in enumerate(c.influence_group) if g not in placed]
        if stage == S_PLAN:
            return c.plans_for(self.n)
        if stage == S_CARDS:
            slot = self.game.fill_order(self.plan)[self.step]
            level = self._slot_level_by_plan(slot)
            used = {self.slot_card[s] for s in self.slots}
            return [i for i, lv in enumerate(c.card_level) if lv == level and i not in used]
        if stage == S_WTILES:
            used = {self.slot_tile[s] for s in self.slots}
            return [i for i in c.workshop_tiles_for(self.n) if i not in used]
        if stage == S_DICE:
            if self.step % 2 == 1:
                return [1, 2, 3, 4, 5, 6]
            return [d for d in range(5) if self.dice_space[d] < 0]
        return []

    def _slot_level_by_plan(self, slot: int) -> int:
        h = slot % MAX_HEIGHT
        top = self.c.plan_towers[self.plan][slot // MAX_HEIGHT] - 1
        return 0 if h == 0 else 2 if h == top else 1

    def setup_dice_space(self) -> int:
        """Returns the market space the next setup die goes to (clockwise from the space of
        the recognition tile)."""
        start = self.market.index(self.c.tile_resource.index(RECOGNITION))
        return (start + self.step // 2) % 8

    # ----- legal actions ------------------------------------------------------------------------

    def can_lose_prestige(self, p: int) -> bool:
        """Whether a prestige space lies below ``p``'s marker (the first one cannot be lost)."""
        return self.track.prev_space(self.pos[p]) >= 0

    def can_sell(self, p: int) -> bool:
        """Whether ``p`` may sell a prestige point for 2 rubles now: a prestige space below
        the marker and, with ``rubles_timing=one_moment``, no earlier sale this turn that
        another decision has followed."""
        if self.track.prev_space(self.pos[p]) < 0:
            return False
        return not self.game.sale_once or self.sold != SOLD

    def layout(self) -> list[int]:
        """Returns the influence group on each market quadrant (-1 before it is drawn)."""
        return [self.c.influence_group[x] if x >= 0 else -1 for x in self.infl]

    def _sale_opens_influence(self, p: int) -> bool:
        """Whether selling prestige now (as often as the track allows) would make an influence
        action of this market visit affordable: the visit then stays open for the sale."""
        if not self.game.sale_once or not self.can_sell(p):
            return False
        sales, pos = 0, self.pos[p]
        while (pos := self.track.prev_space(pos)) >= 0:
            sales += 1
        self.rubles[p] += 2 * sales
        try:
            scratch: list[int] = []
            market_actions(self, p, scratch)
        finally:
            self.rubles[p] -= 2 * sales
        return any(A.INFLUENCE <= a < A.ACTIVATE for a in scratch)

    def free_slots(self, p: int) -> int:
        b = p * 6
        inv = self.inv
        return (self.c.inventory_slots - self.bin[p] - inv[b] - inv[b + 1] - inv[b + 2]
                - inv[b + 3] - inv[b + 4] - inv[b + 5])

    def _legal_actions(self) -> list[int]:
        return legal_actions(self)

    def take_limit(self, p: int) -> int:
        """Returns the most the market take may give now (0 when nothing)."""
        c = self.c
        tile = self.market[self.mspace]
        amount = c.tile_yield[tile] * self.dice_space.count(self.mspace)
        r = c.tile_resource[tile]
        if r < 6:
            amount = min(amount, self.supply[r], self.free_slots(p))
        return amount

    def _is_legal(self, action: int) -> bool:
        return action in self._legal_actions()

    # ----- applying actions ---------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.stage != PLAY or self.rolls:
            self._apply_chance(action - A.CHANCE)
            return
        p = self.cur
        if action == A.RUBLES:
            self.sold = SELLING
        elif self.sold == SELLING:
            self.sold = SOLD
        if action < A.CLAIM:
            if action == A.DONE:
                if self.phase == MARKET:
                    self._start_rolls(self.mspace, AFTER)
                else:
                    self._end_turn()
                    return
            elif action == A.RUBLES:
                self.pos[p] = self.track.prev_space(self.pos[p])
                self.rubles[p] += 2
            else:
                self.pos[p] = self.track.prev_space(self.pos[p])
                self.rerolled = 1
                self._start_rolls(action - A.REROLL, self.phase)
        elif action < A.TILE:
            slot = action - A.CLAIM
            if self.bin[p]:
                self.bin[p] -= 1
            else:
                self.bout[p] -= 1
            self.owner[slot] = p
            self.claim_slot = slot
            self.phase = CLAIMED
        elif action < A.DELIVER:
            self._place_tile(p, action - A.TILE)
        elif action < A.ORNAMENT:
            slot, m = divmod(action - A.DELIVER, 6)
            self._enter_build()
            self.dleft -= 1
            self.inv[p * 6 + m] -= 1
            k = slot * 6
            self.need[k + m] -= 1
            if not any(self.need[k : k + 6]):
                self._complete(slot)
        elif action < A.DIE:
            self._ornament(p, *divmod(action - A.ORNAMENT, 6))
        elif action < A.TAKE:
            d, extra = divmod(action - A.DIE, 8)
            self.rubles[p] -= extra
            dest = (self.dice_space[d] + self.dice_pips[d] + extra) & 7
            self.dice_space[d] = dest
            self.phase = MARKET
            self.mspace, self.mdie = dest, d
            self.took = self.activated = self.infl_count = 0
            self.infl_act = -1
        elif action < A.INFLUENCE:
            self.took = 1
            tile = self.market[self.mspace]
            self._gain(p, self.c.tile_resource[tile], action - A.TAKE + 1)
        elif action < A.ACTIVATE:
            i, m = divmod(action - A.INFLUENCE, 7)
            self._influence(p, i, m - 1)
        else:
            self.activated = 1
            self._tile_effect(p, self.ws_tile[p * W + action - A.ACTIVATE])
        self._settle()

    def _apply_chance(self, v: int) -> None:
        stage, c = self.stage, self.c
        if stage == PLAY:
            self.dice_pips[self.rolls.pop(0)] = v
            if not self.rolls:
                self.phase = self.resume
                self._settle()
            return
        if stage == S_TILES:
            self.market[self.step] = v
            self._advance(8)
        elif stage == S_INFLUENCE:
            self.infl[self.step] = v
            self._advance(4)
        elif stage == S_PLAN:
            self._set_plan(v)
            self._advance(1)
        elif stage == S_CARDS:
            slot = self.game.fill_order(self.plan)[self.step]
            self.slot_card[slot] = v
            self.need[slot * 6 : slot * 6 + 6] = c.card_cost[v]
            self._advance(len(self.slots))
        elif stage == S_WTILES:
            self.slot_tile[self.game.fill_order(self.plan)[self.step]] = v
            self._advance(len(self.slots))
        elif stage == S_DICE:
            if self.step % 2 == 0:
                self.dice_space[v] = self.setup_dice_space()
                self.mdie = v
            else:
                self.dice_pips[self.mdie] = v
                self.mdie = -1
            self._advance(10)

    def _advance(self, steps: int) -> None:
        self.step += 1
        if self.step == steps:
            self.step = 0
            self.stage += 1

    def _start_rolls(self, space: int, resume: int) -> None:
        self.rolls = [d for d in range(5) if self.dice_space[d] == space]
        self.resume = resume
        if resume == AFTER:
            self.phase = AFTER

    def _enter_build(self) -> None:
        if self.phase == START:
            self.phase = BUILD
            self.dleft = 3

    def _settle(self) -> None:
        """Moves on when the player to move has nothing left to choose: a build with no
        delivery left, a market visit with no market action left (the dice roll), a turn
        with no optional action left."""
        if self.rolls or self.stage != PLAY:
            return
        p = self.cur
        if self.phase == BUILD:
            scratch: list[int] = []
            build_actions(self, p, self.dleft, scratch)
            if not scratch:
                self.phase = AFTER
        elif self.phase == MARKET:
            scratch = []
            market_actions(self, p, scratch)
            if not scratch and not self._sale_opens_influence(p):
                self._start_rolls(self.mspace, AFTER)
                return
        if self.phase == AFTER:
            below = self.track.prev_space(self.pos[p]) >= 0
            if self.game.sale_once:
                optional = self.can_sell(p) or (below and not self.rerolled)
            else:
                optional = below
            if not optional:
                self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        if self.trigger >= 0:
            if self.last_left == 0:
                self._finish()
                return
            self.last_left -= 1
        elif self.turns >= self.game.turn_cap * self.n:
            self._finish()
            return
        self.cur = (self.cur + 1) % self.n
        self.phase = START
        self.rerolled = self.dleft = self.took = self.activated = self.infl_count = 0
        self.sold = NOT_SOLD
        self.infl_act = self.mspace = self.mdie = self.claim_slot = -1

    # ----- the pieces of the rules --------------------------------------------------------------

    def _gain(self, p: int, r: int, n: int) -> None:
        """Gives ``n`` of resource ``r``: materials only as far as the supply and the free
        inventory slots allow (the rest is lost), rubles and recognition in full."""
        if r < 6:
            n = min(n, self.supply[r], self.free_slots(p))
            if n > 0:
                self.inv[p * 6 + r] += n
                self.supply[r] -= n
        elif r == RUBLES:
            self.rubles[p] += n
        elif r == RECOGNITION:
            self.pos[p] += n
        else:
            self.pos[p] = self.track.gain_prestige(self.pos[p], n)

    def _tile_effect(self, p: int, tile: int) -> None:
        c = self.c
        die = c.workshop_copy[tile]
        if die >= 0:
            market = self.market[self.dice_space[die]]
            self._gain(p, c.tile_resource[market], c.tile_yield[market])
            return
        for r, n in enumerate(c.workshop_gain[tile]):
            if n:
                self._gain(p, r, n)

    def _place_tile(self, p: int, code: int) -> None:
        k, up = divmod(code, 2)
        slot = self.claim_slot
        tile = self.slot_tile[slot]
        self.slot_tile[slot] = -1
        self.ws_tile[p * W + k] = tile
        self.claim_slot = -1
        self.phase = AFTER
        if up:
            self.rubles[p] -= self.game.board_cost[k]
            self.ws_up[p * W + k] = 1
            kind = self.game.board_ornament[k]
            if kind >= 0:
                self.orn_avail[p * 3 + kind] += 1
            self._tile_effect(p, tile)

    def _ornament(self, p: int, slot: int, gems: int) -> None:
        self._enter_build()
        kind = self.c.card_level[self.slot_card[slot]]
        ng, npu = A.GEM_SETS[gems]
        self.dleft -= 1 + ng + npu
        b = p * 6
        mat = ORNAMENT_MATERIAL[kind]
        self.inv[b + mat] -= 1
        self.supply[mat] += 1
        self.inv[b + 4] -= ng
        self.supply[4] += ng
        self.inv[b + 5] -= npu
        self.supply[5] += npu
        self.orn[slot] = p
        self.orn_gems[slot] = gems
        self.orn_avail[p * 3 + kind] -= 1
        self.orn_placed[p] += 1
        if A.GEM_PRESTIGE[gems]:
            self.pos[p] = self.track.gain_prestige(self.pos[p], A.GEM_PRESTIGE[gems])

    def _influence(self, p: int, i: int, m: int) -> None:
        act = self.c.influence_actions[self.infl[self.mspace >> 1]][i]
        self.infl_act = i
        self.infl_count += 1
        b = p * 6
        self.rubles[p] -= act.pay[RUBLES]
        for r in range(6):
            n = act.pay[r] + (act.choice_n if act.choice == "pay" and r == m else 0)
            if n:
                self.inv[b + r] -= n
                self.supply[r] += n
        for r in range(len(act.gain)):
            if act.gain[r]:
                self._gain(p, r, act.gain[r])
        if act.choice == "gain":
            self._gain(p, m, act.choice_n)

    def penalties(self, slot: int) -> list[int]:
        """Returns the recognition each player would lose if ``slot`` were completed now."""
        loss = [0] * self.n
        owner, built = self.owner, self.built
        t0 = slot - slot % MAX_HEIGHT
        top = self.top_of(slot)
        for u in range(t0, slot):
            o = owner[u]
            if o < 0 or built[u]:
                continue
            for v in range(u + 1, top + 1):
                if (built[v] or v == slot) and owner[v] != o:
                    loss[o] += 1
        return loss

    def _complete(self, slot: int) -> None:
        c = self.c
        p = self.owner[slot]
        card = self.slot_card[slot]
        loss = self.penalties(slot)
        for m, n in enumerate(c.card_cost[card]):
            self.supply[m] += n
        self.built[slot] = 1
        self.completed[p] += 1
        self.pos[p] += c.card_recognition[card]
        self.rubles[p] += c.card_rubles[card]
        for o, n in enumerate(loss):
            if n:
                self.pos[o] = max(0, self.pos[o] - n)
        if self.completed[p] == c.banners and self.trigger < 0:
            self.trigger = p
            self.last_left = self.n - 1
            self.pos[p] = self.track.gain_prestige(self.pos[p], 3)

    # ----- the end ------------------------------------------------------------------------------

    def final_breakdown(self) -> list[dict[str, int]]:
        """Returns each player's final prestige by source (track, leftovers, towers)."""
        n = self.n
        out = [
            {
                "track": self.track.prestige(self.pos[p]),
                "leftovers": (sum(self.inv[p * 6 : p * 6 + 6]) + self.rubles[p]) // 5,
                "towers": 0,
            }
            for p in range(n)
        ]
        thirds, halving = self.game.thirds, self.game.halving
        for t, height in enumerate(self.heights()):
            value = 0
            presence = [0] * n
            for s in range(t * MAX_HEIGHT, t * MAX_HEIGHT + height):
                if self.built[s]:
                    value += 2
                    presence[self.owner[s]] += 1
                if self.orn[s] >= 0:
                    value += 1
                    presence[self.orn[s]] += 1
            for p, pts in enumerate(tower_points(value, presence, thirds=thirds, halving=halving)):
                out[p]["towers"] += pts
        for row in out:
            row["total"] = row["track"] + row["leftovers"] + row["towers"]
        return out

    def _finish(self) -> None:
        self.final = [row["total"] for row in self.final_breakdown()]
        self.stage = OVER
        self.phase = AFTER

    def scores(self) -> list[float]:
        if self.stage == OVER:
            return [float(x) for x in self.final]
        return [float(self.track.prestige(x)) for x in self.pos]

    def returns(self) -> list[float]:
        if self.stage != OVER:
            return [0.0] * self.n
        keys = [
            tie_break_key(self.final[p], self.completed[p], self.orn_placed[p])
            for p in range(self.n)
        ]
        return ranked_returns(keys)

    def result_string(self) -> str:
        if self.stage != OVER:
            return ""
        names = self.game.player_names()
        rets = self.returns()
        best = max(rets)
        winners = [names[p] for p in range(self.n) if rets[p] == best]
        scores = ", ".join(f"{names[p]} {self.final[p]}" for p in range(self.n))
        why = (
            f"{names[self.trigger]} completed a sixth section"
            if self.trigger >= 0
            else f"the safety cap of {self.game.turn_cap} rounds was reached"
        )
        verb = "wins" if len(winners) == 1 else "share the victory"
        return f"{' and '.join(winners)} {verb} ({scores} prestige; {why})"

    # ----- contract plumbing --------------------------------------------------------------------

    def clone(self) -> RedState:
        # Attributes are ints, flat lists or shared immutables: copy the dict, then the lists.
        other = RedState.__new__(RedState)
        d = other.__dict__
        d.update(self.__dict__)
        for name in LIST_FIELDS:
            d[name] = d[name][:]
        d["_history"] = d["_history"][:]
        return other

    def position_key(self) -> tuple:
        # Every field but the history, nested lists frozen into tuples: far cheaper than JSON.
        return tuple(_freeze(getattr(self, name)) for name in LIST_FIELDS) + tuple(
            getattr(self, name) for name in INT_FIELDS
        )

    def _to_dict(self) -> dict:
        data = {name: getattr(self, name) for name in LIST_FIELDS}
        data.update({name: getattr(self, name) for name in INT_FIELDS})
        data["layout"] = [GROUPS[g] if g >= 0 else None for g in self.layout()]
        data["history"] = list(self._history)
        return data

    def _action_to_string(self, action: int) -> str:
        return action_to_string(self, action)

    def _string_to_action(self, text: str) -> int:
        return string_to_action(self, text)

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        return observe(self, self.cur if player is None else player)

    def skipped_after(self, action: int) -> list[int]:
        mover = self.current_player()
        if mover < 0:
            return []
        after = self.clone()
        after._apply_action(action)
        return passed_over(self, after, mover)

    def turn_starts(self) -> bool:
        return self.stage == PLAY and self.phase == START


def passed_over(state: RedState, after: RedState, mover: int) -> list[int]:
    """The players between ``mover`` and the next to move in ``after`` when the turn passes:
    they are skipped."""
    if after.is_terminal() or after.cur == mover:
        return []
    out = []
    expected = (mover + 1) % state.n
    while expected != after.cur:
        out.append(expected)
        expected = (expected + 1) % state.n
    return out


__all__ = [
    "AFTER",
    "BUILD",
    "CLAIMED",
    "LEVELS",
    "MARKET",
    "NOT_SOLD",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "SELLING",
    "SOLD",
    "STAGE_NAMES",
    "START",
    "S_CARDS",
    "S_DICE",
    "S_INFLUENCE",
    "S_PLAN",
    "S_TILES",
    "S_WTILES",
    "RedState",
    "W",
    "passed_over",
]
