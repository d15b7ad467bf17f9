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
    """Returns the observation of ``state`` for ``player`` (see the module docstring)."""
    from cathedral.games.red import state as S

    c, n = state.c, state.n
    out = np.zeros(SIZE, dtype=np.float32)
    rel = [(p - player) % n for p in range(n)]
    o = OFFSETS["stage_phase"]
    out[o + state.stage] = 1
    out[o + 8 + state.phase] = 1
    cur = state.current_player()
    if cur >= 0:
        out[OFFSETS["to_move"] + rel[cur]] = 1
    for sp, tile in enumerate(state.market):
        if tile >= 0:
            out[OFFSETS["market_tiles"] + sp * 8 + c.tile_resource[tile]] = 1
            out[OFFSETS["market_yield"] + sp] = c.tile_yield[tile] / 4
    for q, card in enumerate(state.infl):
        if card >= 0:
            out[OFFSETS["influence"] + q * 12 + card] = 1
    for d in range(5):
        o = OFFSETS["dice"] + d * 9
        if state.dice_space[d] >= 0:
            out[o + state.dice_space[d]] = 1
        out[o + 8] = state.dice_pips[d] / 6
    base = OFFSETS["cathedral"]
    for s in state.slots:
        o = base + s * SLOT_WIDTH
        out[o] = 1
        card = state.slot_card[s]
        if card < 0:
            continue
        out[o + 1 + c.card_level[card]] = 1
        if state.owner[s] >= 0:
            out[o + 4 + rel[state.owner[s]]] = 1
        out[o + 8] = state.built[s]
        if state.orn[s] >= 0:
            out[o + 9 + rel[state.orn[s]]] = 1
            g, pu = A.GEM_SETS[state.orn_gems[s]]
            out[o + 13] = g / 2
            out[o + 14] = pu / 2
        for m in range(6):
            out[o + 15 + m] = state.need[s * 6 + m] / 4
        out[o + 21] = state.slot_tile[s] >= 0
        out[o + 22] = c.card_recognition[card] / 10
    W = MAX_WORKSHOP_SPACES
    for p in range(n):
        o = OFFSETS["players"] + rel[p] * PLAYER_WIDTH
        out[o] = state.rubles[p] / 10
        out[o + 1] = state.track.prestige(state.pos[p]) / 40
        out[o + 2] = state.pos[p] / 90
        for m in range(6):
            out[o + 3 + m] = state.inv[p * 6 + m] / 10
        out[o + 9] = state.free_slots(p) / 10
        out[o + 10] = state.bin[p] / 6
        out[o + 11] = state.bout[p] / 6
        for k in range(3):
            out[o + 12 + k] = state.orn_avail[p * 3 + k]
        out[o + 15] = state.orn_placed[p] / 4
        out[o + 16] = state.completed[p] / 6
        for k in range(W):
            out[o + 17 + 2 * k] = state.ws_tile[p * W + k] >= 0
            out[o + 18 + 2 * k] = state.ws_up[p * W + k]
        if state.final:
            out[o + 33] = state.final[p] / 100
    o = OFFSETS["turn"]
    out[o] = state.rerolled
    out[o + 1] = state.dleft / 3
    if state.mspace >= 0:
        out[o + 2 + state.mspace] = 1
    if state.mdie >= 0 and state.stage == S.PLAY:
        out[o + 10 + state.mdie] = 1
    out[o + 15] = state.took
    out[o + 16] = state.activated
    if state.infl_act >= 0:
        out[o + 17 + state.infl_act] = 1
    out[o + 19] = state.infl_count / 10
    out[o + 20] = state.turns / (state.game.turn_cap * n)
    out[o + 21] = state.trigger >= 0
    out[o + 22] = state.last_left / 3
    for m in range(6):
        out[OFFSETS["supply"] + m] = state.supply[m] / 20
    return out
