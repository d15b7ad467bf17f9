"""The Red Cathedral's legal decisions: what the player to move may do in each phase of a
turn, generated from the flat lists of the state (see ``state``) in action order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.games.red import actions as A
from cathedral.games.red.components import (
    MAX_HEIGHT,
    ORNAMENT_MATERIAL,
    PRESTIGE,
    RECOGNITION,
    RUBLES,
)
from cathedral.games.red.phases import BUILD, CLAIMED, MARKET, START, W

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState


def legal_actions(state: RedState) -> list[int]:
    """Returns the legal decisions of the player to move, sorted (the phase decides which
    kinds; selling prestige and rerolling are open in every phase the track allows)."""
    p = state.cur
    phase = state.phase
    out: list[int] = []
    if phase == START:
        claim_actions(state, p, out)
        build_actions(state, p, 3, out)
        die_actions(state, p, out)
    elif phase == CLAIMED:
        tile_actions(state, p, out)
    elif phase == BUILD:
        build_actions(state, p, state.dleft, out)
        out.append(A.DONE)
    elif phase == MARKET:
        market_actions(state, p, out)
        out.append(A.DONE)
    else:
        out.append(A.DONE)
    if state.track.prev_space(state.pos[p]) >= 0:
        if state.can_sell(p):
            out.append(A.RUBLES)
        if not state.rerolled:
            spaces = set(state.dice_space)
            out.extend(A.REROLL + s for s in sorted(spaces))
    out.sort()
    return out


def claim_actions(state: RedState, p: int, out: list[int]) -> None:
    """Appends the free slots ``p`` may put a banner on (the bottom of a tower, or above a
    claimed slot) while ``p`` has a banner."""
    if state.bin[p] + state.bout[p] == 0:
        return
    owner = state.owner
    for s in state.slots:
        if owner[s] < 0 and (s % MAX_HEIGHT == 0 or owner[s - 1] >= 0):
            out.append(A.CLAIM + s)


def build_actions(state: RedState, p: int, left: int, out: list[int]) -> None:
    if left <= 0:
        return
    inv, need, owner, built = state.inv, state.need, state.owner, state.built
    b = p * 6
    mine = [m for m in range(6) if inv[b + m]]
    if not mine:
        return
    orn, avail = state.orn, state.orn_avail
    card_level = state.c.card_level
    slot_card = state.slot_card
    green, purple = inv[b + 4], inv[b + 5]
    for s in state.slots:
        if built[s]:
            if orn[s] >= 0:
                continue
            kind = card_level[slot_card[s]]
            if not avail[p * 3 + kind] or not inv[b + ORNAMENT_MATERIAL[kind]]:
                continue
            base = A.ORNAMENT + s * 6
            for g, (ng, npu) in enumerate(A.GEM_SETS):
                if 1 + ng + npu <= left and ng <= green and npu <= purple:
                    out.append(base + g)
        elif owner[s] == p:
            k = s * 6
            for m in mine:
                if need[k + m]:
                    out.append(A.DELIVER + k + m)


def die_actions(state: RedState, p: int, out: list[int]) -> None:
    space, pips = state.dice_space, state.dice_pips
    count = [0] * 8
    for sp in space:
        count[sp] += 1
    own = p + 1
    rubles = state.rubles[p]
    for d in range(5):
        sp = space[d]
        top = min(7, rubles) if d == 0 or d == own else 0
        base = sp + pips[d]
        for k in range(top + 1):
            dest = (base + k) & 7
            if count[dest] - (dest == sp) < 3:
                out.append(A.DIE + d * 8 + k)


def tile_actions(state: RedState, p: int, out: list[int]) -> None:
    costs = state.game.board_cost
    rubles = state.rubles[p]
    for k in range(len(costs)):
        if state.ws_tile[p * W + k] < 0:
            out.append(A.TILE + 2 * k)
            if rubles >= costs[k]:
                out.append(A.TILE + 2 * k + 1)


def market_actions(state: RedState, p: int, out: list[int]) -> None:
    """Appends what ``p`` may do at the market space of the die just moved: take its
    resources, the influence actions of its quadrant, activate a matching workshop tile."""
    if not state.took:
        for k in range(state.take_limit(p)):
            out.append(A.TAKE + k)
    card = state.infl[state.mspace >> 1]
    for i, act in enumerate(state.c.influence_actions[card]):
        if state.infl_act not in (-1, i) or (act.lightning and state.infl_count):
            continue
        if act.choice:
            for m in range(6):
                if influence_ok(state, p, act, m):
                    out.append(A.INFLUENCE + i * 7 + 1 + m)
        elif influence_ok(state, p, act, -1):
            out.append(A.INFLUENCE + i * 7)
    if not state.activated:
        dice = state.game.board_die
        for k in range(len(dice)):
            if dice[k] == state.mdie and state.ws_up[p * W + k]:
                out.append(A.ACTIVATE + k)


def influence_ok(state: RedState, p: int, act, m: int) -> bool:
    """Whether influence action ``act`` (with chosen material ``m``) can be paid and
    would give something (a payment for nothing is never offered)."""
    inv, b = state.inv, p * 6
    pay, gain = act.pay, act.gain
    if pay[RUBLES] > state.rubles[p]:
        return False
    paid = 0
    for i in range(6):
        if pay[i]:
            if inv[b + i] < pay[i] + (act.choice_n if act.choice == "pay" and m == i else 0):
                return False
            paid += pay[i]
    if act.choice == "pay":
        if inv[b + m] < act.choice_n or gain[m]:
            return False
        paid += act.choice_n
    if gain[RUBLES] or gain[RECOGNITION] or gain[PRESTIGE]:
        return True
    room = state.free_slots(p) + paid
    if room <= 0:
        return False
    supply = state.supply
    if act.choice == "gain" and supply[m] + (pay[m] if m >= 0 else 0) > 0:
        return True
    return any(gain[i] and supply[i] + pay[i] > 0 for i in range(6))
