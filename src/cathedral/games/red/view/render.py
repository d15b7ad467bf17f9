"""Text rendering of The Red Cathedral: market, influence cards, towers, every player's board,
and the one-line hint of what the player to move may still do.

It shows what the seed's tips and players' complaints ask for: the yield each die move would
give, which cards are claimable, the penalty a completion would cause, prestige and
recognition apart, whose turn it is and what is still allowed in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.games.red import actions as A
from cathedral.games.red import phases as P
from cathedral.games.red.components import (
    DICE,
    GAINS,
    GROUPS,
    LEVELS,
    MATERIALS,
    MAX_HEIGHT,
    ORNAMENTS,
    RESOURCES,
)
from cathedral.games.red.movegen import claim_actions
from cathedral.games.red.notation import GEM_WORDS

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState

ANSI = {
    "Red": "\033[31m", "Blue": "\033[34m", "Yellow": "\033[33m", "Green": "\033[32m",
    "white": "\033[97m", "red": "\033[31m", "blue": "\033[34m", "yellow": "\033[33m",
    "green": "\033[32m", "bold": "\033[1m", "dim": "\033[2m",
}
RESET = "\033[0m"


def plural(count: int, word: str, many: str | None = None) -> str:
    """Returns ``1 delivery``, ``2 deliveries`` (``many`` for irregular plurals)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def _amounts(values, names=MATERIALS) -> str:
    return " ".join(f"{names[i]} {n}" for i, n in enumerate(values) if n) or "-"


def tile_text(state: RedState, tile: int) -> str:
    """Returns what a workshop tile gives, e.g. ``+1 brick`` or ``copy red die``."""
    c = state.c
    if c.workshop_copy[tile] >= 0:
        return f"copy {DICE[c.workshop_copy[tile]]} die"
    return "+" + " +".join(f"{n} {RESOURCES[i]}" for i, n in enumerate(c.workshop_gain[tile]) if n)


def market_text(state: RedState, space: int) -> str:
    c = state.c
    tile = state.market[space]
    if tile < 0:
        return "?"
    return f"{RESOURCES[c.tile_resource[tile]]} x{c.tile_yield[tile]}"


def render_text(state: RedState, *, color: bool = False) -> str:
    c, n, game = state.c, state.n, state.game
    names = game.player_names()

    def paint(text: str, key: str) -> str:
        return f"{ANSI[key]}{text}{RESET}" if color and key in ANSI else text

    def who(p: int) -> str:
        return paint(names[p], names[p])

    lines = []
    cur = state.current_player()
    if state.stage == P.OVER:
        status = "game over: " + state.result_string()
    elif state.stage < P.PLAY:
        status = f"setup ({P.STAGE_NAMES[state.stage]})"
    else:
        status = f"round {state.turns // n + 1}, {who(state.cur)} to move" + (
            " (dice rolling)" if cur < 0 else f" ({P.PHASE_NAMES[state.phase]})"
        )
    side = "advanced" if game.advanced else "basic"
    lines.append(paint(f"The Red Cathedral - {n} players, {side} workshop - ", "bold") + status)
    if state.trigger >= 0 and state.stage != P.OVER:
        lines.append(f"  END TRIGGERED by {who(state.trigger)}: "
                     f"{plural(state.last_left, 'last turn')} after this one")

    lines.append("MARKET (dice move clockwise, space 8 -> 1)")
    for sp in range(8):
        q = state.infl[sp >> 1]
        group = GROUPS[c.influence_group[q]] if q >= 0 else "?"
        dice = ", ".join(
            paint(f"{DICE[d]} {state.dice_pips[d]}", DICE[d])
            for d in range(5) if state.dice_space[d] == sp
        ) or "-"
        mark = " <" if sp == state.mspace and state.phase == P.MARKET else ""
        lines.append(f"  {sp + 1} {group:<9} {market_text(state, sp):<15} dice: {dice}{mark}")
    if any(q >= 0 for q in state.infl):
        lines.append("INFLUENCE (one of the two actions, in the quadrant where the die stops)")
        for q in range(4):
            card = state.infl[q]
            if card < 0:
                continue
            acts = "   ".join(
                f"{i + 1}) {a.describe()}" for i, a in enumerate(c.influence_actions[card])
            )
            lines.append(f"  spaces {2 * q + 1}-{2 * q + 2} {GROUPS[c.influence_group[card]]:<9} "
                         f"{c.influence_ids[card]}: {acts}")

    if state.plan >= 0:
        lines.append(f"CATHEDRAL plan {c.plan_ids[state.plan]} (bottom to top; "
                     f"* claimable; penalties a completion would cause in [])")
        claimable = set()
        if cur >= 0 and state.phase == P.START:
            claim_actions(state, state.cur, out := [])
            claimable = {a - A.CLAIM for a in out}
        for t, height in enumerate(state.heights()):
            for h in range(height):
                s = t * MAX_HEIGHT + h
                card = state.slot_card[s]
                if card < 0:
                    lines.append(f"  {A.slot_name(s)} ?")
                    continue
                level = LEVELS[c.card_level[card]]
                reward = f"{c.card_recognition[card]} rec" + (
                    f" +{c.card_rubles[card]} rub" if c.card_rubles[card] else "")
                cost = _amounts(c.card_cost[card])
                text = f"  {A.slot_name(s)}{'*' if s in claimable else ' '} {level:<10} " \
                       f"{c.card_ids[card]} cost {cost:<27} {reward:<12}"
                if state.owner[s] >= 0:
                    if state.built[s]:
                        text += f" built by {who(state.owner[s])}"
                        if state.orn[s] >= 0:
                            gems = GEM_WORDS[state.orn_gems[s]]
                            text += f", {ORNAMENTS[c.card_level[card]]} of " \
                                    f"{who(state.orn[s])}" + (f" ({gems})" if gems else "")
                    else:
                        need = _amounts(state.need[s * 6 : s * 6 + 6])
                        text += f" {who(state.owner[s])}'s, needs {need}"
                        loss = state.penalties(s)
                        if any(loss):
                            text += " [" + ", ".join(
                                f"{names[p]} -{x}" for p, x in enumerate(loss) if x) + "]"
                if state.slot_tile[s] >= 0:
                    text += f" tile {c.workshop_ids[state.slot_tile[s]]} " \
                            f"({tile_text(state, state.slot_tile[s])})"
                lines.append(text.rstrip())

    if state.stage >= P.PLAY:
        lines.append(f"SUPPLY {_amounts(state.supply)} (rubles unlimited)")
        lines.append("PLAYERS (prestige counts prestige spaces; the marker moves by recognition)")
        for p in range(n):
            pos = state.pos[p]
            arrow = ">" if p == state.cur and cur >= 0 else " "
            lines.append(
                f" {arrow}{who(p)}: prestige {state.track.prestige(pos)} (marker {pos}, next "
                f"prestige space {state.track.next_space(pos)}), rubles {state.rubles[p]}, "
                f"completed {state.completed[p]}/{c.banners}"
            )
            inv = _amounts(state.inv[p * 6 : p * 6 + 6])
            lines.append(f"     inventory {inv} ({state.free_slots(p)} free); banners "
                         f"{state.bin[p]} in inventory + {state.bout[p]} outside")
            orn = " ".join(f"{ORNAMENTS[k]} {state.orn_avail[p * 3 + k]}" for k in range(3))
            lines.append(f"     ornaments left {orn}; placed {state.orn_placed[p]}")
            spaces = []
            for k in range(len(game.board_die)):
                tile = state.ws_tile[p * P.W + k]
                label = f"{k + 1} {DICE[game.board_die[k]]}({game.board_cost[k]})"
                if game.board_ornament[k] >= 0:
                    label += f"[{ORNAMENTS[game.board_ornament[k]]}]"
                if tile >= 0:
                    face = tile_text(state, tile) if state.ws_up[p * P.W + k] else "face down"
                    label += f": {c.workshop_ids[tile]} {face}"
                spaces.append(label)
            lines.append("     workshop " + " | ".join(spaces))
        if cur >= 0 and state.phase == P.START:
            lines.append(f"DIE MOVES for {who(state.cur)} (no paid steps): " + "; ".join(
                _die_preview(state, d) for d in range(5)))
    if state.stage == P.OVER:
        lines.append("FINAL SCORING")
        for p, row in enumerate(state.final_breakdown()):
            lines.append(f"  {who(p)}: track {row['track']} + leftovers {row['leftovers']} + "
                         f"towers {row['towers']} = {row['total']} (completed "
                         f"{state.completed[p]}, ornaments {state.orn_placed[p]})")
        lines.append("  " + state.result_string())
    return "\n".join(lines)


def _die_preview(state: RedState, d: int) -> str:
    sp = state.dice_space[d]
    dest = (sp + state.dice_pips[d]) % 8
    count = sum(1 for x in range(5) if x != d and state.dice_space[x] == dest) + 1
    if count > 3:
        return f"{DICE[d]} -> {dest + 1} full"
    tile = state.market[dest]
    got = state.c.tile_yield[tile] * count
    return f"{DICE[d]} -> {dest + 1} {RESOURCES[state.c.tile_resource[tile]]} {got}"


def prompt_hint(state: RedState) -> str:
    """Returns one line: who is to move and what is still allowed in this turn."""
    if state.current_player() < 0:
        return ""
    c = state.c
    p = state.cur
    name = state.game.player_names()[p]
    optional = []
    if state.can_sell(p):
        optional.append("rubles")
    if state.can_lose_prestige(p) and not state.rerolled:
        optional.append("reroll N")
    opt = f"; optional: {', '.join(optional)}" if optional else ""
    phase = state.phase
    if phase == P.START:
        return (f"{name}: one basic action - claim a card, build (deliver/ornament, up to 3 "
                f"materials) or move a die{opt}")
    if phase == P.CLAIMED:
        tile = state.slot_tile[state.claim_slot]
        return (f"{name}: place tile {c.workshop_ids[tile]} ({tile_text(state, tile)}) from "
                f"{A.slot_name(state.claim_slot)}: tile up N (pay the space's cost, gain now) or "
                f"tile down N{opt}")
    if phase == P.BUILD:
        return (f"{name}: {plural(state.dleft, 'delivery', 'deliveries')} left (deliver, "
                f"ornament) or done{opt}")
    if phase == P.MARKET:
        # only what is legal now: a tile to activate is offered only if the player has one
        legal = state.legal_actions()
        left = []
        if not state.took and state.take_limit(p):
            left.append(f"take up to {state.take_limit(p)} ({market_text(state, state.mspace)}"
                        f" x {state.dice_space.count(state.mspace)} dice)")
        card = state.infl[state.mspace >> 1]
        if any(A.INFLUENCE <= a < A.ACTIVATE for a in legal):
            left.append(f"influence {GROUPS[c.influence_group[card]]}")
        spaces = [a - A.ACTIVATE + 1 for a in legal if A.ACTIVATE <= a < A.CHANCE]
        if spaces:
            left.append(" or ".join(
                f"activate {k} ({tile_text(state, state.ws_tile[p * P.W + k - 1])})"
                for k in spaces))
        if not left and state.can_sell(p):
            left.append("rubles first to afford an influence action")
        return (f"{name} at market space {state.mspace + 1}: {', '.join(left)}; done ends the "
                f"visit and rolls the dice there{opt}")
    return f"{name}: basic action done; done ends the turn{opt}"


__all__ = ["GAINS", "prompt_hint", "render_text", "tile_text"]
