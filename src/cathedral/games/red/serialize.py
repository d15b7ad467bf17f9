"""The Red Cathedral's state JSON read back: every field checked, impossible positions refused.

``RedState._to_dict`` writes each of the state's flat lists and numbers under its own name
(see ``state``), the influence layout and the history. Reading it back checks each field's
type, length and range, then the invariants between them (materials and banners conserved,
inventories within their slots), and says what was found and what was expected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.core.contract import check_history
from cathedral.core.errors import StateError
from cathedral.games.red.components import GROUPS, MATERIALS
from cathedral.games.red.phases import OVER, PHASE_NAMES, PLAY, S_PLAN, SOLD, W
from cathedral.games.red.state import INT_FIELDS, LIST_FIELDS, SLOTS, RedState

if TYPE_CHECKING:
    from cathedral.games.red.game import RedGame


def state_from_dict(game: RedGame, data: dict) -> RedState:
    """Rebuilds a state from ``_to_dict`` output, checking every field and the invariants.

    Raises:
        StateError: "corrupt state: ..." naming the field and what was expected.
    """
    c, n = game.components, game.num_players

    def bad(msg: str) -> StateError:
        return StateError(f"corrupt state: {msg}")

    if not isinstance(data, dict):
        raise bad("expected an object")
    lengths = {
        "market": 8, "infl": 4, "slot_card": SLOTS, "slot_tile": SLOTS, "owner": SLOTS,
        "built": SLOTS, "need": SLOTS * 6, "orn": SLOTS, "orn_gems": SLOTS, "dice_space": 5,
        "dice_pips": 5, "supply": 6, "inv": n * 6, "rubles": n, "pos": n, "bin": n, "bout": n,
        "ws_tile": n * W, "ws_up": n * W, "orn_avail": n * 3, "orn_placed": n, "completed": n,
    }
    state = RedState(game, _blank=True)
    for name in LIST_FIELDS:
        value = data.get(name)
        if not isinstance(value, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value
        ):
            raise bad(f"field {name!r} must be a list of integers, got {value!r:.60}")
        if name in lengths and len(value) != lengths[name]:
            raise bad(f"field {name!r} has {len(value)} entries, expected {lengths[name]}")
        setattr(state, name, list(value))
    for name in INT_FIELDS:
        value = data.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad(f"field {name!r} must be an integer, got {value!r}")
        setattr(state, name, value)
    state._history = check_history(data, game)
    if not 0 <= state.stage <= OVER:
        raise bad(f"stage {state.stage} out of range 0..{OVER}")
    if not 0 <= state.cur < n:
        raise bad(f"player to move {state.cur} out of range 0..{n - 1}")
    if not 0 <= state.phase < len(PHASE_NAMES):
        raise bad(f"phase {state.phase} out of range")
    if not -1 <= state.plan < len(c.plan_ids) or (
        state.plan >= 0 and c.plan_players[state.plan] != n
    ):
        raise bad(f"plan {state.plan} is not a plan for {n} players")
    if state.stage > S_PLAN and state.plan < 0:
        raise bad("no building plan after the plan was drawn")
    state._set_plan(state.plan)
    for name, hi in (("market", 7), ("infl", 11), ("slot_card", 39), ("slot_tile", 27),
                     ("owner", n - 1), ("orn", n - 1), ("rolls", 4), ("dice_space", 7)):
        for x in getattr(state, name):
            if not -1 <= x <= hi:
                raise bad(f"field {name!r} holds {x}, expected -1..{hi}")
    if state.sold < 0:
        raise bad(f"field 'sold' is {state.sold}, expected 0..{SOLD}")
    layout = state.layout()
    placed = [g for g in layout if g >= 0]
    if len(placed) != len(set(placed)):
        raise bad(f"field 'infl' puts two cards of one influence group on the market: "
                  f"{state.infl}")
    if not game.random_layout and any(g not in (-1, q) for q, g in enumerate(layout)):
        raise bad("with influence_layout=fixed, quadrant q holds a card of group q")
    names = [GROUPS[g] if g >= 0 else None for g in layout]
    if data.get("layout", names) != names:
        raise bad(f"field 'layout' is {data.get('layout')!r:.80}, the influence cards on the "
                  f"quadrants say {names}")
    tiles = len(c.workshop_ids)
    for x in state.ws_tile:
        if not -1 <= x < tiles:
            raise bad(f"field 'ws_tile' holds {x}, expected -1..{tiles - 1}")
    for name, hi in (("mspace", 7), ("mdie", 4), ("claim_slot", SLOTS - 1), ("trigger", n - 1),
                     ("infl_act", 1), ("resume", len(PHASE_NAMES) - 1), ("sold", SOLD)):
        if not -1 <= getattr(state, name) <= hi:
            raise bad(f"field {name!r} is {getattr(state, name)}, expected -1..{hi}")
    for name in ("supply", "inv", "rubles", "pos", "bin", "bout", "need", "orn_avail",
                 "orn_placed", "completed", "built", "ws_up", "orn_gems", "dice_pips"):
        if any(x < 0 for x in getattr(state, name)):
            raise bad(f"field {name!r} holds a negative number")
    if state.stage >= PLAY:
        # conservation: supply + inventories + materials waiting on unfinished cards
        for m in range(6):
            held = sum(state.inv[p * 6 + m] for p in range(n))
            placed = sum(
                c.card_cost[state.slot_card[s]][m] - state.need[s * 6 + m]
                for s in state.slots if not state.built[s]
            )
            if state.supply[m] + held + placed != c.supply[m]:
                raise bad(
                    f"{MATERIALS[m]}: supply {state.supply[m]} + held {held} + placed "
                    f"{placed} != {c.supply[m]}"
                )
        for p in range(n):
            banners = state.bin[p] + state.bout[p] + sum(
                1 for s in state.slots if state.owner[s] == p
            )
            if banners != c.banners:
                raise bad(f"{game.player_names()[p]} has {banners} banners, expected "
                          f"{c.banners}")
            if state.free_slots(p) < 0:
                raise bad(f"{game.player_names()[p]}'s inventory holds more than its slots")
    if state.stage == OVER and len(state.final) != n:
        raise bad(f"finished game with {len(state.final)} final scores, expected {n}")
    return state
