"""The Red Cathedral's observation tensor: one flat float32 vector, its layout declared as data.

Everything is public, so every player sees the same facts; player blocks are rotated so the
observer comes first ("relative seats"). ``OBSERVATION_LAYOUT`` lists ``(name, shape)`` in
order (``LAYOUT`` the same with sizes; the columns of the cathedral's, the players' and the
turn's rows are ``SLOT_FIELDS``, ``PLAYER_FIELDS`` and ``TURN_FIELDS``; ``observation_layout``
adds every part's bounds and meaning):

- ``stage_phase`` (13): setup stage / play / over one-hot (8), then the turn phase (5)
- ``to_move`` (4): relative seat of the player to move (all zero at chance and the end)
- ``market_tiles`` (64): per market space, the resource of its tile, one-hot over 8
- ``market_yield`` (8): per space, tile yield / 4
- ``influence`` (48): per quadrant, the influence card in play, one-hot over 12
- ``dice`` (45): per die (white, red, blue, yellow, green), its space one-hot (8), pips / 6
- ``cathedral`` (80 x 23): per slot (tower * 8 + height): in the plan, level one-hot (3),
  banner owner one-hot by relative seat (4), built, ornament owner (4), green and purple
  gems / 2, materials still needed / 4 (6), workshop tile still on it, recognition / 10
- ``players`` (4 x 35): per relative seat: rubles / 10, prestige / 40, marker / 90,
  inventory / 10 (6), free slots / 10, banners in inventory / 6, banners outside / 6,
  ornaments available (3), ornaments placed / 4, completed / 6, per workshop space
  (8): tile present and face up, final prestige / 100
- ``turn`` (23): re-roll used, deliveries left / 3, market space one-hot (8), moved die
  one-hot (5), yield taken, tile activated, influence action chosen (2), influence uses /
  10, turns played / cap, end triggered, last turns left / 3
- ``supply`` (6): supply / 20
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cathedral.games.red import actions as A
from cathedral.games.red.components import MAX_HEIGHT, MAX_WORKSHOP_SPACES, RUBLES
from cathedral.games.red.phases import PLAY

if TYPE_CHECKING:
    from cathedral.games.red.game import RedGame
    from cathedral.games.red.state import RedState

SLOT_FIELDS = (
    ("in_plan", 1, "1 when the slot is part of the building plan"),
    ("level", 3, "the card's level, one-hot"),
    ("banner", 4, "the banner's owner, one-hot by relative seat"),
    ("built", 1, "1 once the card is completed"),
    ("ornament", 4, "the ornament's owner, one-hot by relative seat"),
    ("green_gems", 1, "the ornament's green gems / 2"),
    ("purple_gems", 1, "the ornament's purple gems / 2"),
    ("needed", 6, "materials still needed, per material / 4"),
    ("workshop_tile", 1, "1 while a workshop tile lies on the card"),
    ("recognition", 1, "the card's recognition / 10"),
)
"""The columns of a cathedral slot's row: (name, width, meaning)."""
PLAYER_FIELDS = (
    ("rubles", 1, "rubles / 10"),
    ("prestige", 1, "prestige on the track / 40"),
    ("marker", 1, "the marker's position (recognition, laps included) / 90"),
    ("inventory", 6, "materials in the inventory, per material / 10"),
    ("free_slots", 1, "free inventory slots / 10"),
    ("banners_in", 1, "banners in the inventory / 6"),
    ("banners_out", 1, "banners outside the inventory / 6"),
    ("ornaments", 3, "ornaments available, per kind (a count)"),
    ("ornaments_placed", 1, "ornaments placed / 4"),
    ("completed", 1, "cards completed / 6"),
    ("workshop", 2 * MAX_WORKSHOP_SPACES,
     "per workshop space: a tile present, face up (0/1 each)"),
    ("final", 1, "final prestige / 100 (0 until the game is over)"),
    ("unused", 1, "always 0"),
)
"""The columns of a player's row: (name, width, meaning)."""
TURN_FIELDS = (
    ("rerolled", 1, "1 once the turn's re-roll is used"),
    ("deliveries", 1, "deliveries left / 3"),
    ("market_space", 8, "the market space visited, one-hot"),
    ("moved_die", 5, "the die moved, one-hot"),
    ("took", 1, "1 once the market's take is done"),
    ("activated", 1, "1 once a workshop tile is activated"),
    ("influence_action", 2, "the influence action chosen, one-hot"),
    ("influence_uses", 1, "influence actions used this turn / 10"),
    ("turns", 1, "turns played / (turn_cap * players)"),
    ("triggered", 1, "1 once the end is triggered"),
    ("last_turns", 1, "last turns left / 3"),
)
"""The entries of the turn block: (name, width, meaning)."""
DIE_FIELDS = (
    ("space", 8, "the die's market space, one-hot (all 0 off the market)"),
    ("pips", 1, "its pips / 6"),
)
SLOT_WIDTH = sum(w for _, w, _ in SLOT_FIELDS)
PLAYER_WIDTH = sum(w for _, w, _ in PLAYER_FIELDS)

OBSERVATION_LAYOUT: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("stage_phase", (13,)),
    ("to_move", (4,)),
    ("market_tiles", (8, 8)),
    ("market_yield", (8,)),
    ("influence", (4, 12)),
    ("dice", (5, 9)),
    ("cathedral", (A.SLOTS, SLOT_WIDTH)),
    ("players", (4, PLAYER_WIDTH)),
    ("turn", (sum(w for _, w, _ in TURN_FIELDS),)),
    ("supply", (6,)),
)
"""The named parts of the vector, in order, each with its shape (the module docstring says
what each holds; ``observation_layout`` adds bounds and meanings)."""
LAYOUT = tuple((name, int(np.prod(shape))) for name, shape in OBSERVATION_LAYOUT)
"""``(name, size)`` of each part, in order."""
OFFSETS = {}
_at = 0
for _name, _size in LAYOUT:
    OFFSETS[_name] = _at
    _at += _size
SIZE = _at


def observation_size() -> int:
    return SIZE


def _row(fields: tuple, highs: dict[str, object]) -> np.ndarray:
    """Returns the upper bound of each column of a row of ``fields`` (1 unless ``highs`` says
    otherwise: a number for the field, or one per column)."""
    return np.concatenate(
        [np.broadcast_to(np.asarray(highs.get(name, 1.0), dtype=np.float64), (width,))
         for name, width, _ in fields]
    )


def _fields_meaning(fields: tuple, highs: dict[str, object]) -> str:
    """Returns the columns of a row in words, with the bound of each not bounded by 1."""
    at, out = 0, []
    for name, width, meaning in fields:
        cols = f"{at}" if width == 1 else f"{at}-{at + width - 1}"
        most = float(np.max(highs.get(name, 1.0)))
        bound = "" if most == 1.0 else f" (at most {most:,.4g})"
        out.append(f"[{cols}] {name}: {meaning}{bound}")
        at += width
    return "; ".join(out)


def value_bounds(game: RedGame) -> dict[str, float]:
    """Returns the most that each unbounded count can reach in a game of ``game``, from its
    rules and components (loose, but never exceeded).

    Every turn gains at most ``game.turn_bound[1]`` recognition steps; the game has at most
    ``turn_cap * n + n`` turns; each sale of prestige moves the marker back a prestige space
    (so there are no more sales, at 2 rubles, than steps gained plus the start); the other
    rubles a turn can bring are a take (yield per die, five dice), a face-up tile and an
    activation, three completions and influence actions (repeated at most once per
    inventory slot, plus two).
    """
    c = game.components
    n = game.num_players
    turns = game.turn_cap * n + n
    marker = c.track_start + turns * game.turn_bound[1]
    influence = c.inventory_slots + 2
    per_turn = (
        5 * max(c.tile_yield)
        + 2 * max([max(c.tile_yield)] + [g[RUBLES] for g in c.workshop_gain])
        + 3 * max(c.card_rubles)
        + influence * max(a.gain[RUBLES] for card in c.influence_actions for a in card)
    )
    rubles = max(c.starting_rubles) + 2 * marker + turns * per_turn
    prestige = game.track.prestige(marker)
    return {
        "marker": marker,
        "prestige": prestige,
        "rubles": rubles,
        "final": prestige + (c.inventory_slots + rubles) // 5 + 3 * A.SLOTS,
        "influence_uses": influence,
        "turns": turns,
    }


def observation_layout(game: RedGame) -> tuple[dict, ...]:
    """Returns ``OBSERVATION_LAYOUT`` with each part's bounds and meaning (dicts of ``name``,
    ``shape``, ``low``, ``high``, ``meaning``; ``high`` a number or an array of the shape).

    Every entry is non-negative. One-hot entries and flags are at most 1; the scaled counts
    are bounded by the components (yields, costs, banners, ornaments, the supply) and, for
    the ones that grow without a cap (rubles, the marker, final prestige), by
    ``value_bounds``.
    """
    c = game.components
    n = game.num_players
    most = value_bounds(game)
    board = game.board_ornament
    ornaments = [c.ornaments[k] + sum(1 for o in board if o == k) for k in range(3)]
    slot_highs = {
        "green_gems": max(g for g, _ in A.GEM_SETS) / 2,
        "purple_gems": max(p for _, p in A.GEM_SETS) / 2,
        "needed": [max(cost[m] for cost in c.card_cost) / 4 for m in range(6)],
        "recognition": max(c.card_recognition) / 10,
    }
    player_highs = {
        "rubles": most["rubles"] / 10,
        "prestige": most["prestige"] / 40,
        "marker": most["marker"] / 90,
        "inventory": c.inventory_slots / 10,
        "free_slots": c.inventory_slots / 10,
        "banners_in": c.banners / 6,
        "banners_out": c.banners / 6,
        "ornaments": ornaments,
        "ornaments_placed": sum(ornaments) / 4,
        "completed": c.banners / 6,
        "final": most["final"] / 100,
    }  # "unused" is always 0, but a Box whose low equals its high draws Gymnasium's warning
    turn_highs = {
        "influence_uses": most["influence_uses"] / 10,
        "turns": most["turns"] / (game.turn_cap * n),
        "last_turns": (n - 1) / 3,
    }
    slot = _row(SLOT_FIELDS, slot_highs)
    player = _row(PLAYER_FIELDS, player_highs)
    turn = _row(TURN_FIELDS, turn_highs)
    highs = {
        "market_yield": max(c.tile_yield) / 4,
        "dice": np.tile(_row(DIE_FIELDS, {}), (5, 1)),
        "cathedral": np.tile(slot, (A.SLOTS, 1)),
        "players": np.tile(player, (4, 1)),
        "turn": turn,
        "supply": np.array(c.supply, dtype=np.float64) / 20,
    }
    meanings = {
        "stage_phase": "setup stage / play / over, one-hot (8); then the turn phase, one-hot "
        "(5)",
        "to_move": "the player to move, one-hot by seat relative to the observer (all 0 at "
        "chance nodes and the end)",
        "market_tiles": "per market space (8): the resource of its tile, one-hot (8)",
        "market_yield": "per market space: its tile's yield / 4",
        "influence": "per market quadrant (4): its influence card, one-hot (12)",
        "dice": "per die (white, red, blue, yellow, green): " + _fields_meaning(DIE_FIELDS, {}),
        "cathedral": f"per slot (tower * {MAX_HEIGHT} + height, {A.SLOTS} slots): "
        + _fields_meaning(SLOT_FIELDS, slot_highs),
        "players": "per seat relative to the observer (the observer first; rows beyond the "
        "players are 0): " + _fields_meaning(PLAYER_FIELDS, player_highs),
        "turn": "the turn so far: " + _fields_meaning(TURN_FIELDS, turn_highs),
        "supply": "the supply, per material / 20",
    }
    return tuple(
        {"name": name, "shape": shape, "low": 0.0, "high": highs.get(name, 1.0),
         "meaning": meanings[name]}
        for name, shape in OBSERVATION_LAYOUT
    )


def observe(state: RedState, player: int) -> np.ndarray:
    """Returns the observation of ``state`` for ``player`` (see the module docstring).

    The research interfaces call it at every step: the blocks a move rarely changes (market,
    cathedral, each player) are kept on the state and reused while their facts are unchanged;
    the rest is gathered in Python lists and written with a few numpy calls.
    """
    n = state.n
    out = np.zeros(SIZE, dtype=np.float32)
    at: list[int] = []  # scattered entries: positions and values
    val: list[float] = []
    o = OFFSETS["stage_phase"]
    at += (o + state.stage, o + 8 + state.phase)
    val += (1.0, 1.0)
    cur = state.current_player()
    if cur >= 0:
        at.append(OFFSETS["to_move"] + (cur - player) % n)
        val.append(1.0)
    o = OFFSETS["market_tiles"]
    out[o : o + _MARKET_SIZE] = _kept(state, "_market_obs", (state.market, state.infl), _market)
    o = OFFSETS["dice"]
    for d, space in enumerate(state.dice_space):
        if space >= 0:
            at.append(o + d * 9 + space)
            val.append(1.0)
        at.append(o + d * 9 + 8)
        val.append(state.dice_pips[d] / 6)
    o = OFFSETS["turn"]
    if state.mspace >= 0:
        at.append(o + 2 + state.mspace)
        val.append(1.0)
    if state.mdie >= 0 and state.stage == PLAY:
        at.append(o + 10 + state.mdie)
        val.append(1.0)
    if state.infl_act >= 0:
        at.append(o + 17 + state.infl_act)
        val.append(1.0)
    out[at] = val
    out[o : o + 2] = (state.rerolled, state.dleft / 3)
    out[o + 15 : o + 17] = (state.took, state.activated)
    out[o + 19 : o + 23] = (
        state.infl_count / 10,
        state.turns / (state.game.turn_cap * n),
        state.trigger >= 0,
        state.last_left / 3,
    )
    o = OFFSETS["supply"]
    out[o : o + 6] = [v / 20 for v in state.supply]
    base = OFFSETS["cathedral"]
    out[base : base + A.SLOTS * SLOT_WIDTH] = _cathedral(state, player)
    o = OFFSETS["players"]
    for r in range(n):
        out[o : o + PLAYER_WIDTH] = _player_row(state, (player + r) % n)
        o += PLAYER_WIDTH
    return out


def _kept(state: RedState, name: str, facts: tuple, make) -> object:
    """Returns ``make(state)``, kept on the state (as attribute ``name``) beside a copy of the
    ``facts`` it is made from, and made again only when those differ.

    The check is by content (list equality of unchanged lists is a fast memory walk), so a
    state changed in any way (played, undone, edited by hand) never shows a stale value. What
    is kept is never written to, so a clone may share it.
    """
    cached = state.__dict__.get(name)
    if cached is None or cached[0] != facts:
        cached = (tuple(f[:] for f in facts), make(state))
        state.__dict__[name] = cached
    return cached[1]


_MARKET_SIZE = 64 + 8 + 48
"""The market's tiles, their yields and the influence cards in play, side by side."""


def _market(state: RedState) -> np.ndarray:
    c = state.c
    out = np.zeros(_MARKET_SIZE, dtype=np.float32)
    for sp, tile in enumerate(state.market):
        if tile >= 0:
            out[sp * 8 + c.tile_resource[tile]] = 1
            out[64 + sp] = c.tile_yield[tile] / 4
    for q, card in enumerate(state.infl):
        if card >= 0:
            out[72 + q * 12 + card] = 1
    return out


def _player_row(state: RedState, p: int) -> np.ndarray:
    """Returns player ``p``'s block, kept on the state beside the facts it is made from (a
    move changes one player's facts at most, so the others' blocks are reused)."""
    W = MAX_WORKSHOP_SPACES
    facts = [
        state.rubles[p], state.pos[p], state.bin[p], state.bout[p], state.orn_placed[p],
        state.completed[p], state.final[p] if state.final else 0,
    ]
    facts += state.inv[p * 6 : p * 6 + 6]
    facts += state.orn_avail[p * 3 : p * 3 + 3]
    facts += state.ws_tile[p * W : p * W + W]
    facts += state.ws_up[p * W : p * W + W]
    kept = state.__dict__.get("_player_obs")
    if kept is None:
        kept = state._player_obs = [None] * state.n
    entry = kept[p]
    if entry is not None and entry[0] == facts:
        return entry[1]
    rows = [state.rubles[p] / 10, state.track.prestige(state.pos[p]) / 40, state.pos[p] / 90]
    rows += [v / 10 for v in state.inv[p * 6 : p * 6 + 6]]
    rows += (state.free_slots(p) / 10, state.bin[p] / 6, state.bout[p] / 6)
    rows += state.orn_avail[p * 3 : p * 3 + 3]
    rows += (state.orn_placed[p] / 4, state.completed[p] / 6)
    for k in range(p * W, p * W + W):
        rows += (state.ws_tile[k] >= 0, state.ws_up[k])
    rows += (state.final[p] / 100 if state.final else 0.0, 0.0)
    row = np.array(rows, dtype=np.float32)
    kept[p] = (facts, row)
    return row


def _cathedral_facts(state: RedState) -> tuple:
    return (
        state.slots, state.slot_card, state.owner, state.built, state.orn, state.orn_gems,
        state.need, state.slot_tile,
    )


_SEAT_COLUMNS: dict[tuple[int, int], np.ndarray] = {}
"""(players, observer) -> the column order that turns a block with banner and ornament owners
by absolute seat into one by seat relative to the observer."""


def _seat_columns(n: int, player: int) -> np.ndarray:
    columns = _SEAT_COLUMNS.get((n, player))
    if columns is None:
        order = list(range(SLOT_WIDTH))
        for p in range(n):
            r = (p - player) % n
            order[4 + r] = 4 + p
            order[9 + r] = 9 + p
        columns = _SEAT_COLUMNS[n, player] = np.array(order, dtype=np.intp)
    return columns


def _cathedral(state: RedState, player: int) -> np.ndarray:
    """Returns the cathedral block (``A.SLOTS * SLOT_WIDTH`` entries) for ``player``.

    Kept like ``_kept`` (by content), but a move changes a slot or two, so when the facts
    differ only the rows of the slots that changed are made again. Player 0's block has owners
    by absolute seat; the others reorder its columns.
    """
    facts = _cathedral_facts(state)
    cached = state.__dict__.get("_cathedral_obs")
    if cached is None or cached[0] != facts:
        old_facts, old_block = (cached[0], cached[1][0]) if cached else (None, None)
        absolute = _cathedral_block(state, old_facts, old_block)
        cached = state._cathedral_obs = (tuple(f[:] for f in facts), {0: absolute})
    seen = cached[1]
    block = seen.get(player)
    if block is None:
        absolute = seen[0].reshape(A.SLOTS, SLOT_WIDTH)
        block = seen[player] = absolute[:, _seat_columns(state.n, player)].ravel()
    return block


def _changed_slots(old: tuple, new: tuple) -> set[int] | None:
    """The slots whose facts differ between two ``_cathedral_facts``, or None when the plan
    itself differs (or ``need`` holds a count outside 0..255: then everything is remade)."""
    if old[0] != new[0]:
        return None
    changed: set[int] = set()
    for k in range(1, len(new)):
        before, after = old[k], new[k]
        if before == after:
            continue
        if k == 6:  # need, six counts a slot: compared as bytes by numpy
            try:
                diff = np.frombuffer(bytes(before), np.uint8) != np.frombuffer(
                    bytes(after), np.uint8
                )
            except ValueError:
                return None
            changed.update((np.flatnonzero(diff) // 6).tolist())
        else:
            changed.update(i for i, (a, b) in enumerate(zip(before, after)) if a != b)
    return changed


def _cathedral_block(
    state: RedState, old_facts: tuple | None = None, old_block: np.ndarray | None = None
) -> np.ndarray:
    """The cathedral block with banner and ornament owners by absolute seat, flat; made from
    an earlier block and its facts when given, remaking only the slots that changed."""
    changed = None if old_facts is None else _changed_slots(old_facts, _cathedral_facts(state))
    if changed is None:
        out = np.zeros((A.SLOTS, SLOT_WIDTH), dtype=np.float32)
        changed = state.slots
    else:
        out = old_block.reshape(A.SLOTS, SLOT_WIDTH).copy()
    plan = state.slots
    for s in changed:
        row = out[s]
        row[:] = 0
        if s in plan:
            _cathedral_row(state, s, row)
    return out.ravel()


def _cathedral_row(state: RedState, s: int, row: np.ndarray) -> None:
    """Fills the (zeroed) row of slot ``s``, a slot of the plan."""
    c = state.c
    row[0] = 1
    card = state.slot_card[s]
    if card < 0:
        return
    row[1 + c.card_level[card]] = 1
    if state.owner[s] >= 0:
        row[4 + state.owner[s]] = 1
    row[8] = state.built[s]
    if state.orn[s] >= 0:
        row[9 + state.orn[s]] = 1
        g, pu = A.GEM_SETS[state.orn_gems[s]]
        row[13] = g / 2
        row[14] = pu / 2
    row[15:21] = state.need[s * 6 : s * 6 + 6]
    row[15:21] /= 4
    row[21] = state.slot_tile[s] >= 0
    row[22] = c.card_recognition[card] / 10
