"""The Red Cathedral fitted to a terminal: every line wrapped at word boundaries to the width
(100 columns by default), the last decision marked where it happened, and below about 45
rows a compact screen that shows first what the decision at hand needs.

The full screen is ``render.render_text``; the compact one keeps, by phase:

- start of a turn (claim, build or move a die): the market with where each die would land,
  the cards that may be claimed, one's own unfinished cards;
- a claimed card's tile: one's workshop spaces;
- building: one's unfinished cards and what they still need;
- at the market: the market, the influence card of that quadrant, one's workshop tiles;

and always the header, one line per rival and a few about the player to move.
"""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING

from cathedral.games.red import actions as A
from cathedral.games.red import phases as P
from cathedral.games.red.components import DICE, GROUPS, LEVELS, MAX_HEIGHT, ORNAMENTS, RESOURCES
from cathedral.games.red.movegen import claim_actions
from cathedral.games.red.view.render import (
    ANSI,
    RESET,
    _amounts,
    _die_preview,
    plural,
    render_text,
    tile_text,
)

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState

FULL_HEIGHT = 45  # rows below which the compact screen is drawn
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def last_place(state: RedState) -> tuple[str, int] | None:
    """Returns where the last decision (not a chance outcome) happened: ``("slot", s)``,
    ``("space", market space)`` or ``("workshop", player)``; None at the start.

    Decisions that leave no mark once the turn has moved on (``done``, a tile placed or
    activated, what was taken at the market) give way to the turn's basic action before them:
    the card claimed or built, or the space the die was moved to.
    """
    for action in reversed(state._history):
        block, offset = A.block_of(action)
        if block == "claim":
            return "slot", offset
        if block in ("deliver", "ornament"):
            return "slot", offset // 6
        if block == "die":
            return "space", state.dice_space[offset // 8]
        if block in ("take", "influence", "reroll") and state.phase == P.MARKET:
            return "space", state.mspace
        if block in ("tile", "activate") and state.phase != P.START:
            return "workshop", state.cur  # the mover's workshop while their turn lasts
    return None


def fit(lines: list[str], width: int) -> list[str]:
    """Returns ``lines`` wrapped at word boundaries to ``width`` (ANSI codes not counted),
    each continuation indented under its line's text."""
    out = []
    for line in lines:
        plain = _ANSI.sub("", line)
        if len(plain) <= width:
            out.append(line)
            continue
        indent = " " * (len(plain) - len(plain.lstrip()) + 4)
        # Colour codes would be counted as text by textwrap: wrap the plain text instead.
        out.extend(textwrap.wrap(plain, width=width, subsequent_indent=indent,
                                 break_on_hyphens=False, break_long_words=True))
    return out


def screen(state: RedState, *, color: bool, width: int, height: int | None) -> str:
    """Returns the board for a terminal of ``width`` x ``height`` (height None: unknown)."""
    if height is not None and height < FULL_HEIGHT:
        return "\n".join(compact_lines(state, color=color, width=width, height=height))
    lines = mark_last(state, render_text(state, color=color).splitlines(), color=color)
    return "\n".join(fit(lines, width))


def mark_last(state: RedState, lines: list[str], *, color: bool,
              spaces: bool = True) -> list[str]:
    """Returns ``lines`` with a ``*`` in front of the line where the last decision happened
    (a card's slot, a market space, the mover's workshop); ``spaces`` False leaves market
    spaces to the compact market, which stars its own."""
    place = last_place(state)
    if place is None or (place[0] == "space" and not spaces):
        return lines
    kind, where = place
    plain = [_ANSI.sub("", line) for line in lines]
    start = 0
    if kind == "slot":
        pattern = re.compile(rf"^\s+{re.escape(A.slot_name(where))}[ *]")
    elif kind == "space":
        pattern = re.compile(rf"^\s+{where + 1} ")
    else:
        name = state.game.player_names()[where]
        pattern = re.compile(r"^\s+workshop ")
        owner = [i for i, line in enumerate(plain) if re.match(rf"^ [ >]?{name}\b", line)]
        start = owner[0] if owner else 0
    for i in range(start, len(lines)):
        if pattern.match(plain[i]):
            marked = list(lines)
            body = lines[i][1:] if lines[i].startswith(" ") else lines[i]
            marked[i] = ("\x1b[7m*\x1b[0m" if color else "*") + body
            return marked
    return lines


RESERVED = 9  # rows the terminal needs under the board: the log, the hint, the legal list


def compact_lines(state: RedState, *, color: bool, width: int = 80,
                  height: int | None = None) -> list[str]:
    """Returns the compact screen (see the module docstring), fitted to ``width``; with a
    ``height``, what matters least now is left out until it fits (rivals first, then the
    cards beyond the first few; the prompt's ``board`` command prints the full screen)."""
    c, n, game = state.c, state.n, state.game
    names = game.player_names()

    def paint(text: str, key: str) -> str:
        return f"{ANSI[key]}{text}{RESET}" if color and key in ANSI else text

    def who(p: int) -> str:
        return paint(names[p], names[p])

    if state.stage < P.PLAY or state.stage == P.OVER:
        return fit(render_text(state, color=color).splitlines(), width)
    cur = state.current_player()
    me = state.cur
    phase = state.phase
    place = last_place(state)
    # name -> (priority, lines): 0 always kept; higher numbers are cut first.
    sections: dict[str, tuple[int, list[str]]] = {}
    status = f"round {state.turns // n + 1}, {who(me)} to move" + (
        " (dice rolling)" if cur < 0 else f" ({P.PHASE_NAMES[phase]})")
    head = [paint("The Red Cathedral - ", "bold") + status]
    if state.trigger >= 0:
        head.append(f"  END TRIGGERED by {who(state.trigger)}: "
                    f"{plural(state.last_left, 'last turn')} after this one")
    sections["header"] = (0, head)
    if phase in (P.START, P.MARKET, P.AFTER):
        last_space = place[1] if place and place[0] == "space" else None
        sections["market"] = (1 if phase != P.AFTER else 3, _market(state, paint, last_space))
    if phase == P.START and cur >= 0:
        sections["die moves"] = (1, ["DIE MOVES: " + "; ".join(_die_preview(state, d)
                                                               for d in range(5))])
    if phase == P.MARKET:
        card = state.infl[state.mspace >> 1]
        if card >= 0:
            acts = "   ".join(f"{i + 1}) {a.describe()}"
                             for i, a in enumerate(c.influence_actions[card]))
            sections["influence"] = (1, [f"INFLUENCE {GROUPS[c.influence_group[card]]} "
                                         f"{c.influence_ids[card]}: {acts}"])
    if phase in (P.START, P.BUILD):
        sections["cathedral"] = (2 if phase == P.START else 1,
                                 _cards(state, me, phase == P.START and cur >= 0, who))
    pos = state.pos[me]
    mine = [
        f" {'>' if cur >= 0 else ' '}{who(me)}: prestige {state.track.prestige(pos)}, marker "
        f"{pos} (next {state.track.next_space(pos)}), rubles {state.rubles[me]}, completed "
        f"{state.completed[me]}/{c.banners}",
        f"     inventory {_amounts(state.inv[me * 6 : me * 6 + 6])} ({state.free_slots(me)} "
        f"free); banners {state.bin[me]} + {state.bout[me]} outside",
    ]
    if phase == P.BUILD:
        orn = " ".join(f"{ORNAMENTS[k]} {state.orn_avail[me * 3 + k]}" for k in range(3))
        mine.append(f"     ornaments left {orn}")
    else:
        mine.append("     " + _workshop(state, me))
    sections["you"] = (0, mine)
    rivals = []
    for p in range(n):
        if p != me:
            pos = state.pos[p]
            rivals.append(f"  {who(p)}: prestige {state.track.prestige(pos)}, marker {pos}, "
                          f"rubles {state.rubles[p]}, completed {state.completed[p]}/"
                          f"{c.banners}; {_amounts(state.inv[p * 6 : p * 6 + 6])}")
    sections["rivals"] = (3, rivals)
    starred = place is not None and place[0] == "space" and "market" in sections
    fitted = {}
    for name, (priority, lines) in sections.items():
        marked = mark_last(state, lines, color=color, spaces=False)
        starred = starred or marked != lines
        fitted[name] = (priority, fit(marked, width))
    if starred:  # say what the star means where there is one
        priority, lines = fitted["header"]
        fitted["header"] = (priority, fit([sections["header"][1][0]
                                           + "; * marks the last decision",
                                           *sections["header"][1][1:]], width))
    if height is not None:
        budget = max(8, height - RESERVED)
        left_out = []
        for level in (3, 2, 1):
            used = sum(len(lines) for _, lines in fitted.values())
            if used <= budget:
                break
            for name in [k for k, (p, _) in fitted.items() if p == level]:
                priority, lines = fitted[name]
                over = used - budget
                keep = len(lines) - over
                if keep >= 3:  # a heading and a couple of lines still say something
                    more = f"  ... {len(lines) - keep + 1} more lines"
                    fitted[name] = (priority, [*lines[: keep - 1], more])
                else:
                    del fitted[name]
                    left_out.append(name)
                used = sum(len(lines) for _, lines in fitted.values())
                if used <= budget:
                    break
        if left_out:
            fitted["note"] = (0, [f"(not shown: {', '.join(left_out)}; 'board' shows "
                                  "everything)"])
    return [line for _, lines in fitted.values() for line in lines]


_SHORT = {"recognition": "recog", "rubles": "rubles"}


def _market(state: RedState, paint, last_space: int | None) -> list[str]:
    """Returns the market in two rows of four spaces of 20 columns: ``>`` marks the space of
    the market visit, ``*`` the space of the last decision; dice as initial and pips (``W4``
    white 4, ``R`` red, ``B`` blue, ``Y`` yellow, ``G`` green)."""
    c = state.c
    groups = []
    for q in range(4):
        card = state.infl[q]
        group = GROUPS[c.influence_group[card]] if card >= 0 else "?"
        groups.append(f"{2 * q + 1}-{2 * q + 2} {group}")
    lines = ["MARKET  " + "  ".join(groups)]
    cells = []
    for sp in range(8):
        dice = "".join(paint(f"{DICE[d][0].upper()}{state.dice_pips[d]}", DICE[d])
                       for d in range(5) if state.dice_space[d] == sp)
        tile = state.market[sp]
        if tile >= 0:
            resource = RESOURCES[c.tile_resource[tile]]
            goods = f"{_SHORT.get(resource, resource)} x{c.tile_yield[tile]}"
        else:
            goods = "?"
        mark = (">" if sp == state.mspace and state.phase == P.MARKET
                else "*" if sp == last_space else " ")
        visible = len(_ANSI.sub("", dice))
        # 20 columns: mark, space number, goods (9), dice as initial and pips (up to 3: 6).
        cells.append(f"{mark}{sp + 1} {goods:<9} {dice}{' ' * max(0, 6 - visible)}")
    for row in (cells[:4], cells[4:]):
        lines.append("".join(row).rstrip())
    return lines


def _cards(state: RedState, me: int, claims: bool, who) -> list[str]:
    c = state.c
    claimable: set[int] = set()
    if claims:
        out: list[int] = []
        claim_actions(state, me, out)
        claimable = {a - A.CLAIM for a in out}
    lines = []
    built = []
    for t, height in enumerate(state.heights()):
        for h in range(height):
            s = t * MAX_HEIGHT + h
            card = state.slot_card[s]
            if card < 0:
                continue
            mine = state.owner[s] == me and not state.built[s]
            if s in claimable or mine:
                level = LEVELS[c.card_level[card]]
                # While building, what is still needed says more than the whole cost.
                cost = ("" if state.phase == P.BUILD and mine
                        else f"cost {_amounts(c.card_cost[card])}, ")
                text = (f"  {A.slot_name(s)}{'*' if s in claimable else ' '} {level:<10} "
                        f"{cost}{c.card_recognition[card]} rec")
                if c.card_rubles[card]:
                    text += f" +{c.card_rubles[card]} rub"
                if mine:
                    text += f"; needs {_amounts(state.need[s * 6 : s * 6 + 6])}"
                    loss = state.penalties(s)
                    if any(loss):
                        names = state.game.player_names()
                        text += " [" + ", ".join(f"{names[p]} -{x}"
                                                 for p, x in enumerate(loss) if x) + "]"
                if state.slot_tile[s] >= 0:
                    text += f"; tile {tile_text(state, state.slot_tile[s])}"
                lines.append(text)
            elif state.built[s]:
                built.append(f"{A.slot_name(s)} {who(state.owner[s])}")
    head = ("CATHEDRAL (* claimable" + (", yours to build" if any(
        state.owner[s] == me and not state.built[s] for s in range(len(state.owner))) else "")
        + ")")
    if state.phase == P.BUILD:
        head = "YOUR CARDS TO BUILD"
    out = [head, *lines]
    if built:
        out.append("  built: " + ", ".join(built))
    return out


def _workshop(state: RedState, p: int) -> str:
    game = state.game
    spaces = []
    for k in range(len(game.board_die)):
        tile = state.ws_tile[p * P.W + k]
        label = f"{k + 1} {DICE[game.board_die[k]][0].upper()}{game.board_cost[k]}"
        if tile >= 0:
            face = tile_text(state, tile) if state.ws_up[p * P.W + k] else "down"
            label += f" [{face}]"
        spaces.append(label)
    return "workshop (space, die, cost): " + ", ".join(spaces)


__all__ = ["FULL_HEIGHT", "RESOURCES", "compact_lines", "fit", "last_place", "screen"]
