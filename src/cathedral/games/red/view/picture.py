"""The Red Cathedral's picture for graphical front ends: market and dice, influence cards, the
cathedral's towers, every player's holdings, and the current decision's legal choices with what
each would yield and cost.

What a choice yields is worked out by playing it on a copy of the state with the rules' own
code and comparing the holdings before and after, so a front end never re-implements a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.games.red import actions as A
from cathedral.games.red import phases as P
from cathedral.games.red.components import (
    DICE,
    GROUPS,
    LEVELS,
    MATERIALS,
    MAX_HEIGHT,
    ORNAMENTS,
    RESOURCES,
)
from cathedral.games.red.notation import GEM_WORDS
from cathedral.games.red.view.render import tile_text

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState


def _amounts(values, names=MATERIALS) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(values) if n}


def _holdings(state: RedState, p: int) -> dict[str, int]:
    """Returns what a choice can change for player ``p``, as flat numbers."""
    out = {m: state.inv[p * 6 + i] for i, m in enumerate(MATERIALS)}
    out["rubles"] = state.rubles[p]
    out["recognition"] = state.pos[p]
    out["prestige"] = state.track.prestige(state.pos[p])
    out["banners"] = state.bin[p] + state.bout[p]
    for k, kind in enumerate(ORNAMENTS):
        out[kind] = state.orn_avail[p * 3 + k]
    out["completed"] = state.completed[p]
    return out


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - v for k, v in before.items() if after[k] != v}


def _market(state: RedState) -> list[dict]:
    c = state.c
    spaces = []
    for sp in range(8):
        tile = state.market[sp]
        q = state.infl[sp >> 1]
        spaces.append(
            {
                "space": sp,
                "resource": RESOURCES[c.tile_resource[tile]] if tile >= 0 else None,
                "yield": c.tile_yield[tile] if tile >= 0 else 0,
                "group": GROUPS[c.influence_group[q]] if q >= 0 else None,
                "dice": [
                    {"die": d, "colour": DICE[d], "pips": state.dice_pips[d]}
                    for d in range(5)
                    if state.dice_space[d] == sp
                ],
                "visited": sp == state.mspace and state.phase == 3,
            }
        )
    return spaces


def _influence(state: RedState) -> list[dict]:
    c = state.c
    out = []
    for q in range(4):
        card = state.infl[q]
        if card < 0:
            continue
        out.append(
            {
                "quadrant": q,
                "spaces": [2 * q, 2 * q + 1],
                "group": GROUPS[c.influence_group[card]],
                "card": c.influence_ids[card],
                "actions": [
                    {"text": act.describe(), "lightning": act.lightning}
                    for act in c.influence_actions[card]
                ],
            }
        )
    return out


def _towers(state: RedState) -> list[dict]:
    c = state.c
    towers = []
    for t, height in enumerate(state.heights()):
        slots = []
        for h in range(height):
            s = t * MAX_HEIGHT + h
            card = state.slot_card[s]
            entry: dict = {"slot": s, "name": A.slot_name(s), "card": None}
            if card >= 0:
                entry.update(
                    {
                        "card": c.card_ids[card],
                        "level": LEVELS[c.card_level[card]],
                        "cost": _amounts(c.card_cost[card]),
                        "need": _amounts(state.need[s * 6 : s * 6 + 6]),
                        "recognition": c.card_recognition[card],
                        "rubles": c.card_rubles[card],
                        "owner": state.owner[s] if state.owner[s] >= 0 else None,
                        "built": bool(state.built[s]),
                        "ornament": None,
                        "tile": None,
                        "penalties": None,
                    }
                )
                if state.orn[s] >= 0:
                    entry["ornament"] = {
                        "kind": ORNAMENTS[c.card_level[card]],
                        "owner": state.orn[s],
                        "gems": GEM_WORDS[state.orn_gems[s]],
                    }
                tile = state.slot_tile[s]
                if tile >= 0:
                    entry["tile"] = {"id": c.workshop_ids[tile], "text": tile_text(state, tile)}
                if state.owner[s] >= 0 and not state.built[s]:
                    loss = state.penalties(s)
                    if any(loss):
                        entry["penalties"] = loss
            slots.append(entry)
        towers.append({"tower": t, "height": height, "slots": slots})
    return towers


def _player(state: RedState, p: int) -> dict:
    c, game = state.c, state.game
    workshop = []
    for k in range(len(game.board_die)):
        tile = state.ws_tile[p * A.MAX_WORKSHOP_SPACES + k]
        up = bool(state.ws_up[p * A.MAX_WORKSHOP_SPACES + k])
        workshop.append(
            {
                "space": k,
                "die": DICE[game.board_die[k]],
                "cost": game.board_cost[k],
                "ornament": ORNAMENTS[game.board_ornament[k]] if game.board_ornament[k] >= 0
                else None,
                "tile": c.workshop_ids[tile] if tile >= 0 else None,
                "up": up,
                "text": tile_text(state, tile) if tile >= 0 and up else None,
            }
        )
    pos = state.pos[p]
    return {
        "name": game.player_names()[p],
        "die": DICE[p + 1],
        "rubles": state.rubles[p],
        "recognition": pos,
        "prestige": state.track.prestige(pos),
        "next_prestige_space": state.track.next_space(pos),
        "inventory": {m: state.inv[p * 6 + i] for i, m in enumerate(MATERIALS)},
        "free_slots": state.free_slots(p),
        "banners_in_inventory": state.bin[p],
        "banners_outside": state.bout[p],
        "ornaments": {kind: state.orn_avail[p * 3 + k] for k, kind in enumerate(ORNAMENTS)},
        "ornaments_placed": state.orn_placed[p],
        "completed": state.completed[p],
        "workshop": workshop,
    }


def _choices(state: RedState) -> list[dict]:
    """Returns every legal choice with its notation, block and what it yields."""
    p = state.cur
    names = state.game.player_names()
    before = [_holdings(state, q) for q in range(state.n)]
    out = []
    for action in state.legal_actions():
        after = state.clone()
        after._apply_action(action)
        kind, offset = A.block_of(action)
        entry: dict = {
            "action": action,
            "notation": state.action_to_string(action),
            "kind": kind,
            "yields": _delta(before[p], _holdings(after, p)),
        }
        others = {
            names[q]: d
            for q in range(state.n)
            if q != p and (d := _delta(before[q], _holdings(after, q)))
        }
        if others:
            entry["others"] = others
        if kind in ("claim", "deliver", "ornament"):
            entry["slot"] = offset if kind == "claim" else offset // 6
        if kind == "deliver" and after.built[offset // 6]:
            entry["completes"] = True
        if kind == "die":
            d, extra = divmod(offset, 8)
            tile = after.market[after.mspace]
            entry.update(
                {
                    "die": DICE[d],
                    "extra": extra,
                    "space": after.mspace,
                    "take": {
                        "resource": RESOURCES[state.c.tile_resource[tile]],
                        "up_to": after.take_limit(p),
                    },
                }
            )
        if kind in ("reroll", "take", "activate"):
            entry["space" if kind == "reroll" else "index"] = offset
        out.append(entry)
    return out


def picture(state: RedState) -> dict:
    """Returns the JSON-ready picture of a Red Cathedral position (see the module docstring)."""
    c, n = state.c, state.n
    to_move = state.current_player()
    playing = state.stage >= P.PLAY
    decision = None
    if to_move >= 0:
        decision = {
            "player": to_move,
            "phase": P.PHASE_NAMES[state.phase],
            "hint": state.prompt_hint(),
            "deliveries_left": state.dleft if state.phase == P.BUILD else None,
            "claimed": A.slot_name(state.claim_slot) if state.claim_slot >= 0 else None,
            "choices": _choices(state),
        }
    return {
        "game": "red",
        "players": state.game.player_names(),
        "to_move": to_move,
        "stage": P.STAGE_NAMES[state.stage],
        "round": state.turns // n + 1,
        "current": state.cur,
        "workshop_side": state.game.params["workshop"],
        "materials": list(MATERIALS),
        "track": {"length": c.track_length, "prestige_spaces": list(c.prestige_spaces)},
        "market": _market(state),
        "influence": _influence(state),
        "plan": c.plan_ids[state.plan] if state.plan >= 0 else None,
        "towers": _towers(state),
        "supply": {m: state.supply[i] for i, m in enumerate(MATERIALS)},
        "holdings": [_player(state, p) for p in range(n)] if playing else [],
        "trigger": state.trigger if state.trigger >= 0 else None,
        "last_turns_left": state.last_left if state.trigger >= 0 else None,
        "rolling": [DICE[d] for d in state.rolls],
        "decision": decision,
        "final": state.final_breakdown() if state.stage == P.OVER else None,
        "result": state.result_string(),
    }
