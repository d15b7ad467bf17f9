"""The Red Cathedral's observation tensor: one flat float32 vector, its layout declared as data.

Everything is public, so every player sees the same facts; player blocks are rotated so the
observer comes first ("relative seats"). ``LAYOUT`` lists ``(name, size)`` in order:

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
from cathedral.games.red.components import MAX_WORKSHOP_SPACES
from cathedral.games.red.phases import PLAY

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState

SLOT_WIDTH = 23
PLAYER_WIDTH = 35
LAYOUT = (
    ("stage_phase", 13), ("to_move", 4), ("market_tiles", 64), ("market_yield", 8),
    ("influence", 48), ("dice", 45), ("cathedral", A.SLOTS * SLOT_WIDTH),
    ("players", 4 * PLAYER_WIDTH), ("turn", 23), ("supply", 6),
)
OFFSETS = {}
_at = 0
for _name, _size in LAYOUT:
    OFFSETS[_name] = _at
    _at += _size
SIZE = _at


def observation_size() -> int:
    return SIZE


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
