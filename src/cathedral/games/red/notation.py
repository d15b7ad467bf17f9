"""The Red Cathedral's move notation: one readable phrase per decision and chance outcome.

Player decisions (spaces and workshop spaces count from 1, ``T2.3`` is tower 2, height 3):

- ``claim T2.3`` then ``tile up 4`` / ``tile down 4`` (the card's workshop tile to space 4)
- ``deliver stone T2.3``, ``ornament arch T1.2``, ``ornament arch T1.2 green purple``
- ``die white`` (exactly its pips), ``die white +2`` (two paid extra steps)
- ``take 4``, ``influence merchants 1``, ``influence merchants 1 brick`` (the chosen
  material), ``activate 2`` (the face-up tile on workshop space 2)
- ``rubles``, ``reroll 6`` (market space 6), ``done``

Chance outcomes: ``setup space 3 wood``, ``setup quadrant 1 merchants M2`` (the group on
market quadrant 1, spaces 1-2, and its card; ``setup merchants M2`` with the fixed layout),
``setup plan 2B``,
``setup T1.2 M07`` (a cathedral card), ``setup T1.2 W13`` (a workshop tile),
``setup die red space 4``, ``roll red 5``.

Parsing ignores case and extra spaces; output is one canonical spelling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.core.errors import IllegalActionError, NotationError
from cathedral.games.red import actions as A
from cathedral.games.red import phases as P
from cathedral.games.red.components import (
    DICE,
    GROUPS,
    MATERIALS,
    MAX_HEIGHT,
    MAX_TAKE,
    ORNAMENT_MATERIAL,
    ORNAMENTS,
)

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState

FORMS = (
    "claim T2.3 | tile up 4 | tile down 4 | deliver stone T2.3 | ornament arch T1.2 [green] "
    "[purple] | die white [+2] | take 4 | influence merchants 1 [brick] | activate 2 | "
    "rubles | reroll 6 | done"
)
GEM_WORDS = ("", "green", "purple", "green green", "green purple", "purple purple")


def ornament_kind(state: RedState, slot: int) -> int:
    """Returns the ornament kind a slot takes (door, arch, cross), guessing for empty slots."""
    if state.slot_card[slot] >= 0:
        return state.c.card_level[state.slot_card[slot]]
    return 0 if slot % MAX_HEIGHT == 0 else 1


def group_here(state: RedState) -> str:
    """Returns the influence group of the quadrant the moved die stands in ('guild' if none)."""
    if state.mspace < 0 or state.infl[state.mspace >> 1] < 0:
        return "guild"
    return GROUPS[state.c.influence_group[state.infl[state.mspace >> 1]]]


def action_to_string(state: RedState, action: int) -> str:
    name, k = A.block_of(action)
    if name == "chance":
        return chance_to_string(state, k)
    if name in ("done", "rubles"):
        return name
    if name == "reroll":
        return f"reroll {k + 1}"
    if name == "claim":
        return f"claim {A.slot_name(k)}"
    if name == "tile":
        return f"tile {'up' if k % 2 else 'down'} {k // 2 + 1}"
    if name == "deliver":
        slot, m = divmod(k, 6)
        return f"deliver {MATERIALS[m]} {A.slot_name(slot)}"
    if name == "ornament":
        slot, g = divmod(k, 6)
        text = f"ornament {ORNAMENTS[ornament_kind(state, slot)]} {A.slot_name(slot)}"
        return f"{text} {GEM_WORDS[g]}" if g else text
    if name == "die":
        d, extra = divmod(k, 8)
        return f"die {DICE[d]}" + (f" +{extra}" if extra else "")
    if name == "take":
        return f"take {k + 1}"
    if name == "influence":
        i, m = divmod(k, 7)
        text = f"influence {group_here(state)} {i + 1}"
        return f"{text} {MATERIALS[m - 1]}" if m else text
    return f"activate {k + 1}"


def chance_to_string(state: RedState, v: int) -> str:
    """Returns the notation of chance outcome value ``v`` at this node."""
    c = state.c
    stage = state.stage
    try:
        if stage == P.PLAY and state.rolls:
            if 1 <= v <= 6:
                return f"roll {DICE[state.rolls[0]]} {v}"
        elif stage == P.S_TILES and v < 8:
            return f"setup space {state.step + 1} {c.tile_ids[v]}"
        elif stage == P.S_INFLUENCE and v < 12:
            text = f"setup {GROUPS[c.influence_group[v]]} {c.influence_ids[v]}"
            if state.game.random_layout:
                # which group sits on this quadrant is part of the outcome
                return f"setup quadrant {state.step + 1} {text[6:]}"
            return text
        elif stage == P.S_PLAN and v < len(c.plan_ids):
            return f"setup plan {c.plan_ids[v]}"
        elif stage == P.S_CARDS and v < 40:
            slot = state.game.fill_order(state.plan)[state.step]
            return f"setup {A.slot_name(slot)} {c.card_ids[v]}"
        elif stage == P.S_WTILES and v < 28:
            slot = state.game.fill_order(state.plan)[state.step]
            return f"setup {A.slot_name(slot)} {c.workshop_ids[v]}"
        elif stage == P.S_DICE:
            if state.step % 2 == 0 and v < 5:
                return f"setup die {DICE[v]} space {state.setup_dice_space() + 1}"
            if state.step % 2 == 1 and 1 <= v <= 6:
                return f"roll {DICE[state.mdie]} {v}"
    except (IndexError, ValueError):
        pass
    return f"chance {v}"


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def string_to_action(state: RedState, text: str) -> int:
    """Parses ``text`` into an action legal in ``state``.

    Raises:
        NotationError: the text does not parse.
        IllegalActionError: it parses but is not legal here, with the reason.
    """
    norm = _norm(text)
    if state.current_player() < 0:
        for action, _ in state.chance_outcomes():
            if _norm(chance_to_string(state, action - A.CHANCE)) == norm:
                return action
        outcomes = ", ".join(
            chance_to_string(state, a - A.CHANCE) for a, _ in state.chance_outcomes()[:6]
        )
        raise IllegalActionError(
            f"move {text!r} is not an outcome of this chance node (for example: {outcomes})"
        )
    action = parse_action(state, norm, text)
    if state._is_legal(action):
        return action
    raise IllegalActionError(f"illegal move {text!r}: {why_illegal(state, action)}")


def _bad(text: str, why: str) -> NotationError:
    return NotationError(f"cannot parse move {text!r}: {why} (forms: {FORMS})")


def _number(token: str, lo: int, hi: int, what: str, text: str) -> int:
    if not token.lstrip("+").isdigit() or not lo <= int(token.lstrip("+")) <= hi:
        raise _bad(text, f"{what} must be a number {lo}..{hi}, got {token!r}")
    return int(token.lstrip("+"))


def _word(token: str, words: tuple[str, ...], what: str, text: str) -> int:
    if token not in words:
        raise _bad(text, f"unknown {what} {token!r} (expected one of {', '.join(words)})")
    return words.index(token)


def _slot(token: str, text: str) -> int:
    slot = A.parse_slot(token)
    if slot is None:
        raise _bad(text, f"{token!r} is not a card like T2.3")
    return slot


def parse_action(state: RedState, norm: str, text: str) -> int:
    """Returns the action number a player phrase names (legal or not)."""
    tokens = norm.split()
    if not tokens:
        raise _bad(text, "empty move")
    head, args = tokens[0], tokens[1:]
    arity = {"done": (0,), "rubles": (0,), "reroll": (1,), "claim": (1,), "tile": (2,),
             "deliver": (2,), "ornament": (2, 3, 4), "die": (1, 2), "take": (1,),
             "influence": (2, 3), "activate": (1,)}
    if head not in arity:
        raise _bad(text, f"unknown word {head!r}")
    if len(args) not in arity[head]:
        raise _bad(text, f"wrong number of words after {head!r}")
    if head == "done":
        return A.DONE
    if head == "rubles":
        return A.RUBLES
    if head == "reroll":
        return A.REROLL + _number(args[0], 1, 8, "a market space", text) - 1
    if head == "claim":
        return A.CLAIM + _slot(args[0], text)
    if head == "tile":
        face = _word(args[0], ("down", "up"), "face", text)
        k = _number(args[1], 1, len(state.game.board_cost), "a workshop space", text) - 1
        return A.TILE + 2 * k + face
    if head == "deliver":
        m = _word(args[0], MATERIALS, "material", text)
        return A.DELIVER + _slot(args[1], text) * 6 + m
    if head == "ornament":
        kind = _word(args[0], ORNAMENTS, "ornament", text)
        slot = _slot(args[1], text)
        gems = " ".join(sorted(args[2:], key=lambda g: (g != "green", g)))
        g = _word(gems, GEM_WORDS, "gem set", text)
        if kind != ornament_kind(state, slot):
            raise IllegalActionError(
                f"illegal move {text!r}: {A.slot_name(slot)} takes a "
                f"{ORNAMENTS[ornament_kind(state, slot)]}, not a {ORNAMENTS[kind]}"
            )
        return A.ORNAMENT + slot * 6 + g
    if head == "die":
        d = _word(args[0], DICE, "die", text)
        extra = 0
        if len(args) == 2:
            if not args[1].startswith("+"):
                raise _bad(text, f"paid steps are written +N, got {args[1]!r}")
            extra = _number(args[1], 0, 7, "paid extra steps", text)
        return A.DIE + d * 8 + extra
    if head == "take":
        return A.TAKE + _number(args[0], 1, MAX_TAKE, "an amount", text) - 1
    if head == "influence":
        group = _word(args[0], GROUPS, "influence group", text)
        i = _number(args[1], 1, 2, "an influence action", text) - 1
        m = _word(args[2], MATERIALS, "material", text) + 1 if len(args) == 3 else 0
        here = group_here(state)
        if here != "guild" and GROUPS[group] != here:
            raise IllegalActionError(
                f"illegal move {text!r}: the moved die stands in the {here} quadrant"
            )
        return A.INFLUENCE + i * 7 + m
    spaces = len(state.game.board_die)
    return A.ACTIVATE + _number(args[0], 1, spaces, "a workshop space", text) - 1


def why_illegal(state: RedState, action: int) -> str:
    """Returns the reason ``action`` is not legal for the player to move."""
    c = state.c
    p = state.cur
    who = state.game.player_names()[p]
    name, k = A.block_of(action)
    phase = state.phase
    if name == "chance":
        return "chance outcomes are not a player's move"
    if name == "done":
        if phase == P.START:
            return "a basic action (claim, build or a die move) must come first"
        if phase == P.CLAIMED:
            return "the claimed card's workshop tile must be placed first"
    if name in ("rubles", "reroll"):
        if state.track.prev_space(state.pos[p]) < 0:
            return f"no prestige space lies below {who}'s marker"
        if name == "rubles" and not state.can_sell(p):
            return ("prestige is sold for rubles at one moment of the turn only, and "
                    f"{who} sold earlier in this turn")
        if name == "reroll":
            if state.rerolled:
                return "the re-roll is allowed once per turn"
            if k not in state.dice_space:
                return f"no die stands on market space {k + 1}"
    basic = name in ("claim", "die") or (name in ("deliver", "ornament") and phase != P.BUILD)
    if basic and phase != P.START:
        return f"{who} has already taken a basic action this turn"
    if name == "claim":
        if k not in state.slots:
            return f"{A.slot_name(k)} is not part of this cathedral"
        if state.owner[k] >= 0:
            return f"{A.slot_name(k)} already carries a banner"
        if state.bin[p] + state.bout[p] == 0:
            return f"{who} has no banner left"
        return f"{A.slot_name(k)} is not available: the card below it carries no banner"
    if name == "tile":
        if phase != P.CLAIMED:
            return "no claimed card is waiting for its workshop tile"
        space, _up = divmod(k, 2)
        if space >= len(state.game.board_cost):
            return f"the workshop board has {len(state.game.board_cost)} spaces"
        if state.ws_tile[p * P.W + space] >= 0:
            return f"workshop space {space + 1} already holds a tile"
        cost = state.game.board_cost[space]
        return f"a face-up tile on space {space + 1} costs {cost} rubles, {who} has " \
               f"{state.rubles[p]}"
    if name in ("deliver", "ornament"):
        slot, x = divmod(k, 6)
        where = A.slot_name(slot)
        if slot not in state.slots:
            return f"{where} is not part of this cathedral"
        left = 3 if phase == P.START else state.dleft
        if left <= 0:
            return "all 3 deliveries of this build are used"
        inv = state.inv[p * 6 : p * 6 + 6]
        if name == "deliver":
            if state.owner[slot] != p:
                return f"{where} does not carry {who}'s banner"
            if state.built[slot]:
                return f"{where} is already complete"
            if not state.need[slot * 6 + x]:
                return f"{where} needs no more {MATERIALS[x]}"
            return f"{who} has no {MATERIALS[x]}"
        if not state.built[slot]:
            return f"ornaments go only on completed sections and {where} is not complete"
        if state.orn[slot] >= 0:
            return f"{where} already has an ornament"
        kind = ornament_kind(state, slot)
        if not state.orn_avail[p * 3 + kind]:
            locked = " (unlock it with a face-up tile)" if state.game.advanced else ""
            return f"{who} has no {ORNAMENTS[kind]} left{locked}"
        ng, npu = A.GEM_SETS[x]
        if 1 + ng + npu > left:
            return f"the ornament needs {1 + ng + npu} deliveries, {left} left"
        if not inv[ORNAMENT_MATERIAL[kind]]:
            return f"a {ORNAMENTS[kind]} costs 1 {MATERIALS[ORNAMENT_MATERIAL[kind]]}"
        return f"{who} lacks the gems"
    if name == "die":
        d, extra = divmod(k, 8)
        if extra and d not in (0, p + 1):
            return f"only the white die or {who}'s own die may be moved further"
        if extra > state.rubles[p]:
            return f"{extra} extra steps cost {extra} rubles, {who} has {state.rubles[p]}"
        dest = (state.dice_space[d] + state.dice_pips[d] + extra) % 8
        return f"market space {dest + 1} already holds 3 dice"
    if name in ("take", "influence", "activate") and phase != P.MARKET:
        return "market actions come only right after moving a die"
    if name == "take":
        if state.took:
            return "the market yield is taken once per visit"
        return f"at most {state.take_limit(p)} (the yield times the dice there, limited by " \
               f"the supply and free inventory slots)"
    if name == "influence":
        i, m = divmod(k, 7)
        card = state.infl[state.mspace >> 1]
        act = c.influence_actions[card][i]
        if state.infl_act >= 0 and state.infl_act != i:
            return "only one of the card's two actions may be used"
        if act.lightning and state.infl_count:
            return "a lightning action is used once per turn"
        if bool(act.choice) != bool(m):
            return "this action needs a material named" if act.choice else \
                "this action takes no material"
        return f"{who} cannot pay for it, or it would give nothing"
    if name == "activate":
        if state.activated:
            return "one workshop tile is activated per visit"
        if k >= len(state.game.board_die) or state.game.board_die[k] != state.mdie:
            return f"workshop space {k + 1} is not of the {DICE[state.mdie]} die's colour"
        return f"{who} has no face-up tile on workshop space {k + 1}"
    return "not legal here"
