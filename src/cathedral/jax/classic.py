"""Classic Cathedral as a batched, jit-compiled pgx environment (``cathedral.jax.make("classic")``).

This module owns the JAX engine of classic: its static tables (derived once from the reference
``cathedral.games.classic.pieces``, so action ids, blocks and shapes are the reference's), the
``State`` pytree, the ``Classic`` environment (pgx's ``Env`` API: ``init``, ``step``,
``observe``), and the conversions to and from the reference ``ClassicState``. The rules are the
reference's (``state.Position``): Light's first placement is the Cathedral, a player who cannot
place is skipped, territory and capture by 8-connected regions, rewards only at the end.

Representation: every set of squares is a 100-bit board in 4 uint32 words (``bits``: square
``s`` is bit ``s & 31`` of word ``s >> 5``). Legal placements are found per *orientation* (a
building in one rotation, 39 in all): the anchors where orientation ``o`` fits are
``AND_c (free >> k_c)`` over its cells' offsets ``k_c`` (11 distinct shifts of one 4-word
board, shared by every orientation, both colours at once), masked by the blocks in hand; the
2765-entry bool mask pgx wants is then one static gather of the chosen colour's anchor bits.
The mask is recomputed each step rather than updated, because captures and claims also free
squares; packed, that costs less than reading the bool mask once. Territory is settled by
flood fills (8-neighbour dilation, two per trip) in one ``lax.while_loop``; the regions found
are judged all at once afterwards.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as core
from pgx._src.struct import dataclass

from cathedral.games.classic import pieces as ref
from cathedral.jax import bits

Array = jax.Array

N_WORDS = 4
NUM_ACTIONS = ref.NUM_ACTIONS
LIGHT, DARK = ref.LIGHT, ref.DARK
IN_HAND, ON_BOARD, GONE = ref.IN_HAND, ref.ON_BOARD, ref.GONE
OPENINGS = ("standard", "lehmann")
LAYOUTS = ("reference", "hwc")
"""Observation layouts: ``reference``, the reference's flat (524,) vector; ``hwc``, a
(10, 10, 29) channels-last image for convolutional nets (see ``Classic``)."""

# ----- static tables (numpy, built once at import) -------------------------------------------

_BLOCK_KEYS = ref.BLOCK_KEYS
N_BLOCKS = len(_BLOCK_KEYS)
CATHEDRAL_BLOCK = N_BLOCKS - 1
BLOCK_BUILDING = np.array([int(b) for b, _ in _BLOCK_KEYS], dtype=np.int32)
# Which colour may use a block: -1 both (shared shapes), else the colour of a mirror image.
BLOCK_COLOUR = np.array([-1 if c is None else c for _, c in _BLOCK_KEYS], dtype=np.int32)

# A colour's 14 buildings as slots (a building with two copies has two slots); a slot holds
# the action that placed it, or -1 while the building is in hand.
SLOT_BUILDING = np.array(
    [int(b) for b in ref.PLAYER_BUILDINGS for _ in range(ref.COPIES[b])], dtype=np.int32
)
N_SLOTS = len(SLOT_BUILDING)
N_KINDS = len(ref.PLAYER_BUILDINGS)
# By building (the Cathedral, which has no slot, last): its first slot, whether it has two.
FIRST_SLOT = np.array([int(np.argmax(b == SLOT_BUILDING)) for b in range(N_KINDS)] + [0],
                      dtype=np.int32)
TWO_COPIES = np.array([ref.COPIES[b] == 2 for b in ref.PLAYER_BUILDINGS] + [False])
SLOT_SIZE = np.array([ref.SQUARES_OF_BUILDING[ref.Building(b)] for b in SLOT_BUILDING],
                     dtype=np.int32)
_PAIRS = 3  # the buildings with two copies come first: slots 0-5 are three pairs
assert (SLOT_BUILDING[: 2 * _PAIRS] == np.repeat(np.arange(_PAIRS), 2)).all()

ACTION_BUILDING = np.array([int(b) for b in ref.ACTION_BUILDING], dtype=np.int32)
ACTION_BLOCK = np.zeros(NUM_ACTIONS, dtype=np.int32)
for _i, _key in enumerate(_BLOCK_KEYS):
    ACTION_BLOCK[ref.BLOCKS[_key].start : ref.BLOCKS[_key].stop] = _i
CATHEDRAL_START = ref.BLOCKS[(ref.Building.CATHEDRAL, None)].start
# Every placement's squares; row NUM_ACTIONS is the empty board (an empty slot's mask).
PLACEMENT_WORDS = np.stack(
    [bits.words_of(m, N_WORDS) for m in ref.PLACEMENTS] + [np.zeros(N_WORDS, np.uint32)]
)
FULL = bits.words_of(ref.FULL, N_WORDS)
NOT_FILE_A = bits.words_of(ref.NOT_FILE_A, N_WORDS)
NOT_FILE_J = bits.words_of(ref.NOT_FILE_J, N_WORDS)


def _orientations():
    """Returns the orientation tables: cells' offsets, block, valid anchors, and for every
    action its orientation and anchor square (checked to reproduce the reference's masks)."""
    cells, blocks, valid = [], [], []
    act_orient = np.full(NUM_ACTIONS, -1, dtype=np.int32)
    act_anchor = np.full(NUM_ACTIONS, -1, dtype=np.int32)
    for block, key in enumerate(_BLOCK_KEYS):
        rows = ref.shape(key[0], LIGHT if key[1] is None else key[1])
        actions = {ref.PLACEMENTS[a]: a for a in ref.BLOCKS[key]}
        for shape_cells in ref.rotations(rows):
            o = len(cells)
            offsets = sorted(y * ref.SIZE + x for x, y in shape_cells)
            width = max(x for x, _ in shape_cells) + 1
            height = max(y for _, y in shape_cells) + 1
            anchors = 0
            for oy in range(ref.SIZE - height + 1):
                for ox in range(ref.SIZE - width + 1):
                    t = oy * ref.SIZE + ox
                    a = actions[ref.mask_of(t + k for k in offsets)]
                    assert act_orient[a] == -1
                    act_orient[a], act_anchor[a] = o, t
                    anchors |= 1 << t
            cells.append(offsets)
            blocks.append(block)
            valid.append(bits.words_of(anchors, N_WORDS))
    assert (act_orient >= 0).all()
    return cells, np.array(blocks, dtype=np.int32), np.stack(valid), act_orient, act_anchor


ORIENT_CELLS, ORIENT_BLOCK, ORIENT_VALID, ACTION_ORIENT, ACTION_ANCHOR = _orientations()
N_ORIENTS = len(ORIENT_CELLS)
SHIFTS = sorted({k for offsets in ORIENT_CELLS for k in offsets})
# The anchor bit of every action in the flattened [orientation, word] anchor array.
ACTION_WORD = (ACTION_ORIENT * N_WORDS + (ACTION_ANCHOR >> 5)).astype(np.int32)
ACTION_SHIFT = (ACTION_ANCHOR & 31).astype(np.uint32)
# The most regions one building can touch: bounded by the squares around it.
MAX_REGIONS = max(
    len(ref.squares_of(ref.dilate(m) & ~m)) for m in ref.PLACEMENTS[:CATHEDRAL_START]
)

# ----- bitboard helpers --------------------------------------------------------------------


def _dilate(x: Array) -> Array:
    """Grows a board by one square in all 8 directions, clipped to the board."""
    row = x | (bits.shift_left(x, 1) & NOT_FILE_A) | (bits.shift_right(x, 1) & NOT_FILE_J)
    return (row | bits.shift_left(row, ref.SIZE) | bits.shift_right(row, ref.SIZE)) & FULL


def _pick(colour: Array, pair: Array) -> Array:
    """Returns ``pair[colour]`` for a leading axis of 2, as a select (no gather under vmap)."""
    return jnp.where(colour == 0, pair[0], pair[1])


def _swap_to(colour: Array, pair: Array) -> Array:
    """Returns ``pair`` reordered as (``colour``'s, the other's)."""
    return jnp.where(colour == 0, pair, pair[::-1])


# ----- the state ---------------------------------------------------------------------------

OBSERVATION_SIZE = 5 * 100 + 2 * N_KINDS + 2
HWC_SHAPE = (ref.SIZE, ref.SIZE, 5 + 2 * N_KINDS + 2)


def to_hwc(observation: Array) -> Array:
    """Returns the channels-last image (10, 10, 29) of reference observations (524,) (any
    leading batch axes): channels 0-4 the five board planes (row = rank, column = file), 5-28
    the 22 hand values and 2 flags, each broadcast over a constant plane."""
    lead = observation.shape[:-1]
    size = ref.SIZE * ref.SIZE
    planes = observation[..., : 5 * size].reshape(*lead, 5, ref.SIZE, ref.SIZE)
    planes = jnp.moveaxis(planes, -3, -1)
    tail = observation[..., 5 * size :]
    tail = jnp.broadcast_to(tail[..., None, None, :], (*lead, ref.SIZE, ref.SIZE, tail.shape[-1]))
    return jnp.concatenate([planes, tail], axis=-1)


@dataclass
class State(core.State):
    """pgx's common fields, then the position (``_``-prefixed, as pgx's own games do).

    ``current_player`` is the colour to move (0 Light, 1 Dark), as in the reference; at the
    end it stays the colour of the last placement."""

    current_player: Array = jnp.int32(0)
    observation: Array = jnp.zeros(OBSERVATION_SIZE, dtype=jnp.float32)
    rewards: Array = jnp.float32([0.0, 0.0])
    terminated: Array = jnp.bool_(False)
    truncated: Array = jnp.bool_(False)
    legal_action_mask: Array = jnp.zeros(NUM_ACTIONS, dtype=jnp.bool_)
    _step_count: Array = jnp.int32(0)
    _walls: Array = jnp.zeros((2, N_WORDS), dtype=jnp.uint32)
    _cathedral: Array = jnp.zeros(N_WORDS, dtype=jnp.uint32)
    _cathedral_state: Array = jnp.int32(IN_HAND)
    _territory: Array = jnp.zeros((2, N_WORDS), dtype=jnp.uint32)
    _slots: Array = jnp.full((2, N_SLOTS), -1, dtype=jnp.int32)
    _built: Array = jnp.zeros(2, dtype=jnp.bool_)

    @property
    def env_id(self) -> str:
        return ENV_ID


ENV_ID = "cathedral_classic"


def _hands(slots: Array) -> Array:
    """Each colour's count in hand per building kind, int32[2, 11]."""
    free = (slots < 0).astype(jnp.int32)
    pairs = free[..., : 2 * _PAIRS].reshape((*free.shape[:-1], _PAIRS, 2)).sum(axis=-1)
    return jnp.concatenate([pairs, free[..., 2 * _PAIRS :]], axis=-1)


def _anchors(state: State) -> tuple[Array, Array]:
    """Returns, for both colours, the anchors where each orientation fits and is in hand
    (uint32[2, 43, 4]), and whether the colour has any legal placement (bool[2])."""
    walls, territory = state._walls, state._territory
    occupied = walls[0] | walls[1] | state._cathedral
    in_hand = state._cathedral_state == IN_HAND
    # Light's first placement is the Cathedral, which only has to keep off Dark's buildings.
    light_blocked = jnp.where(in_hand, walls[DARK], occupied | territory[DARK])
    free = ~jnp.stack([light_blocked, occupied | territory[LIGHT]]) & FULL  # [2, 4]
    shifted = {k: bits.shift_right(free, k) for k in SHIFTS}
    fits = []
    for offsets in ORIENT_CELLS:
        acc = shifted[offsets[0]]
        for k in offsets[1:]:
            acc = acc & shifted[k]
        fits.append(acc)
    fits = jnp.stack(fits, axis=1)  # [2, 43, 4]
    # Which blocks each colour may use now.
    counts = _hands(state._slots)  # [2, 11]
    counts = jnp.concatenate([counts, jnp.zeros((2, 1), jnp.int32)], axis=1)
    block_ok = (counts[:, BLOCK_BUILDING] > 0) & (
        (BLOCK_COLOUR[None, :] < 0) | (BLOCK_COLOUR[None, :] == np.arange(2)[:, None])
    )
    cathedral_only = np.arange(N_BLOCKS) == CATHEDRAL_BLOCK
    light_ok = jnp.where(in_hand, cathedral_only, block_ok[0])
    block_ok = jnp.stack([light_ok, block_ok[1]])  # [2, 14]
    orient_ok = block_ok[:, ORIENT_BLOCK]  # [2, 43]
    fits = jnp.where(orient_ok[..., None], fits & ORIENT_VALID, jnp.uint32(0))
    return fits, jnp.any(fits != 0, axis=(1, 2))


def _materialize(x: Array, one: Array) -> Array:
    """Returns ``x`` through a loop run ``one`` (a runtime 1) times: a boundary XLA cannot
    fuse across. Without it XLA fuses the computation of ``x`` into the gather of ``_expand``
    and redoes it for every one of the 2765 elements gathered (it removes
    ``optimization_barrier`` on CPU, and a loop of known trip count is inlined)."""
    zero = (one - 1).astype(x.dtype)  # x ^ zero in the body: not loop-invariant to XLA
    return jax.lax.while_loop(
        lambda c: c[0] < one, lambda c: (c[0] + 1, c[1] ^ zero), (0, x)
    )[1]


def _expand(fits: Array) -> Array:
    """Returns the bool mask over actions of one colour's anchors (uint32[39, 4]); compute
    ``fits`` before the call (``_materialize``)."""
    flat = fits.reshape(-1)
    return ((flat[ACTION_WORD] >> ACTION_SHIFT) & np.uint32(1)).astype(jnp.bool_)


def _settle(walls_me: Array, placed: Array, seeds_on: Array, opp_slots: Array,
            cathedral: Array) -> tuple[Array, Array]:
    """Floods the regions of squares not walled by the mover that touch ``placed`` and judges
    them (reference ``Position.settle_territory``). Returns the squares claimed and whether the
    Cathedral was captured; a region with at most one other piece is claimed, and that piece is
    exactly the opponent's walls (or the Cathedral) inside it."""
    space = FULL & ~walls_me
    seeds = jnp.where(seeds_on, _dilate(placed) & space, jnp.uint32(0))
    regions0 = jnp.zeros((MAX_REGIONS, N_WORDS), dtype=jnp.uint32)
    slot_index = jnp.arange(MAX_REGIONS)

    def cond(carry):
        seeds, region, _, _ = carry
        return bits.any_bits(seeds | region)

    def body(carry):
        seeds, region, count, regions = carry
        grown = _dilate(region) & space
        grown = _dilate(grown) & space  # two steps a turn: half the loop's trips
        done = jnp.all(grown == region)
        store = done & bits.any_bits(region)
        regions = jnp.where(((slot_index == count) & store)[:, None], region, regions)
        count = count + store.astype(jnp.int32)
        rest = seeds & ~region
        seeds = jnp.where(done, rest, seeds)
        region = jnp.where(done, bits.lowest_bit(rest), grown)
        return seeds, region, count, regions

    carry = (seeds, bits.lowest_bit(seeds), jnp.int32(0), regions0)
    _, _, _, regions = jax.lax.while_loop(cond, body, carry)
    opp = jnp.asarray(PLACEMENT_WORDS)[jnp.where(opp_slots < 0, NUM_ACTIONS, opp_slots)]
    inside = bits.any_bits(regions[:, None, :] & opp[None, :, :])  # [R, 14]
    cathedral_in = bits.any_bits(regions & cathedral)  # [R]
    pieces = inside.sum(axis=1) + cathedral_in.astype(jnp.int32)
    claim = pieces <= 1
    claimed = jnp.bitwise_or.reduce(jnp.where(claim[:, None], regions, jnp.uint32(0)), axis=0)
    return claimed, bits.any_bits(claimed & cathedral)


def _unplaced(slots: Array) -> Array:
    """Each colour's squares of buildings in hand (the score; lower wins), int32[2]."""
    return jnp.where(slots < 0, SLOT_SIZE, 0).sum(axis=1)


# ----- the environment ---------------------------------------------------------------------


class Classic(core.Env):
    """Classic Cathedral for pgx: player 0 Light, player 1 Dark; actions are the reference's
    placement numbers; rewards +1/-1 (0 for a draw) when neither colour can place.

    ``layout`` picks the observation's form (a static choice, made once): ``"reference"``
    (default) the reference's flat (524,) vector; ``"hwc"`` the same values as a (10, 10, 29)
    channels-last image, as pgx's board games and its example conv nets expect
    (``to_hwc``)."""

    def __init__(self, opening: str = "standard", layout: str = "reference") -> None:
        super().__init__()
        if opening not in OPENINGS:
            raise ValueError(f"classic: unknown opening {opening!r}; expected one of {OPENINGS}")
        if layout not in LAYOUTS:
            raise ValueError(f"classic: unknown layout {layout!r}; expected one of {LAYOUTS}")
        self.opening = opening
        self.layout = layout
        self._first = LIGHT if opening == "standard" else DARK
        # The initial state is a constant: built once, so that auto-reset costs nothing.
        self._initial = jax.jit(self._fresh)()

    def _fresh(self) -> State:
        state = State(current_player=jnp.int32(self._first))
        fits, _ = _anchors(state)
        state = state.replace(legal_action_mask=_expand(_pick(state.current_player, fits)))
        observe = jax.jit(self._observe)
        return state.replace(observation=observe(state, state.current_player))

    def _init(self, key: Array) -> State:
        del key
        return self._initial

    def init(self, key: Array) -> State:
        return self._init(key)  # the observation is already in the constant

    def _step(self, state: core.State, action: Array, key=None) -> State:
        del key
        assert isinstance(state, State)
        me = state.current_player
        action = jnp.asarray(action, dtype=jnp.int32)
        placed = jnp.asarray(PLACEMENT_WORDS)[action]
        is_cathedral = action >= CATHEDRAL_START
        building = jnp.asarray(ACTION_BUILDING)[action]
        mine = (np.arange(2) == me) & ~is_cathedral  # the rows the building goes into

        walls = jnp.where(mine[:, None], state._walls | placed, state._walls)
        first = jnp.asarray(FIRST_SLOT)[building]
        slots_me = _pick(me, state._slots)
        slot = first + (jnp.asarray(TWO_COPIES)[building] & (slots_me[first] >= 0))
        slots = jnp.where(mine[:, None] & (np.arange(N_SLOTS) == slot), action, state._slots)
        built_before = _pick(me, state._built)
        built = state._built | mine

        cathedral = jnp.where(is_cathedral, placed, state._cathedral)
        cathedral_state = jnp.where(is_cathedral, ON_BOARD, state._cathedral_state)

        # Territory and capture: every building but the mover's first.
        opp_slots = _pick(1 - me, slots)
        claimed, cathedral_taken = _settle(
            _pick(me, walls), placed, built_before & ~is_cathedral, opp_slots, cathedral
        )
        is_me = (np.arange(2) == me)[:, None]
        territory = jnp.where(is_me, state._territory | claimed, state._territory & ~claimed)
        walls = jnp.where(is_me, walls, walls & ~claimed)
        opp_masks = jnp.asarray(PLACEMENT_WORDS)[jnp.where(opp_slots < 0, NUM_ACTIONS, opp_slots)]
        taken = bits.any_bits(opp_masks & claimed)  # [14]
        slots = jnp.where(~is_me & taken[None, :], -1, slots)
        cathedral = jnp.where(cathedral_taken, jnp.uint32(0), cathedral)
        cathedral_state = jnp.where(cathedral_taken, GONE, cathedral_state)

        state = state.replace(
            _walls=walls,
            _territory=territory,
            _slots=slots,
            _built=built,
            _cathedral=cathedral,
            _cathedral_state=cathedral_state,
        )
        # Who moves: the opponent, else the mover again, else nobody. After the Cathedral,
        # the colour that has not built yet moves (either opening).
        preferred = jnp.where(is_cathedral, jnp.where(built[DARK], LIGHT, DARK), 1 - me)
        fits, can = _anchors(state)
        can_preferred = _pick(preferred, can)
        other = 1 - preferred
        terminated = ~can_preferred & ~_pick(other, can)
        to_move = jnp.where(can_preferred, preferred, jnp.where(terminated, me, other))
        one = (state._step_count >= 0).astype(jnp.int32)
        legal = _expand(_materialize(_pick(to_move, fits), one))
        unplaced = _unplaced(slots)
        light = jnp.sign(unplaced[DARK] - unplaced[LIGHT]).astype(jnp.float32)
        rewards = jnp.where(terminated, jnp.stack([light, -light]), jnp.float32(0))
        return state.replace(
            current_player=to_move.astype(jnp.int32),
            legal_action_mask=legal,
            terminated=terminated,
            rewards=rewards,
        )

    def observe(self, state: core.State, player_id: Array | None = None) -> Array:
        """The observation seen by ``player_id`` (the player to move by default), in this env's
        layout: the reference's (``classic.observation``), or its image (``to_hwc``). pgx's
        deprecation warning for ``player_id`` is not raised, as seeing any player's view is
        part of this environment's contract."""
        if player_id is None:
            player_id = state.current_player
        return jax.lax.stop_gradient(self._observe(state, jnp.asarray(player_id)))

    def _observe(self, state: core.State, player_id: Array) -> Array:
        observation = self._reference_observation(state, player_id)
        return to_hwc(observation) if self.layout == "hwc" else observation

    def _reference_observation(self, state: core.State, player_id: Array) -> Array:
        assert isinstance(state, State)
        me = player_id
        walls = _swap_to(me, state._walls)
        territory = _swap_to(me, state._territory)
        boards = jnp.stack([walls[0], walls[1], state._cathedral, territory[0], territory[1]])
        planes = bits.unpack(boards, 100).astype(jnp.float32).reshape(-1)
        hands = _swap_to(me, _hands(state._slots)).astype(jnp.float32).reshape(-1) * 0.5
        tail = jnp.stack([
            (state._cathedral_state == IN_HAND).astype(jnp.float32),
            ((state.current_player == me) & ~state.terminated).astype(jnp.float32),
        ])
        return jnp.concatenate([planes, hands, tail])

    @property
    def id(self) -> str:  # pgx types ids as its own Literal; only a string is needed at run time
        return ENV_ID

    @property
    def version(self) -> str:
        return "v1"  # the reference's rules_version

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return HWC_SHAPE if self.layout == "hwc" else (OBSERVATION_SIZE,)

    # ----- conversion to and from the reference engine -------------------------------------

    def to_reference(self, state: State):
        """Returns the reference ``ClassicState`` of one (unbatched) state. The reference's
        history is not kept here, so the result has an empty history."""
        from cathedral.core.contract import TERMINAL
        from cathedral.core.registry import load
        from cathedral.games.classic.state import ClassicState, Position

        game = load("classic", opening=self.opening)
        s = jax.device_get(state)
        terminated = bool(s.terminated)
        position = Position(TERMINAL if terminated else int(s.current_player))
        position.walls = [bits.int_of(s._walls[0]), bits.int_of(s._walls[1])]
        position.cathedral = bits.int_of(s._cathedral)
        position.cathedral_state = int(s._cathedral_state)
        position.territory = [bits.int_of(s._territory[0]), bits.int_of(s._territory[1])]
        position.pieces = [[int(a) for a in s._slots[c] if a >= 0] for c in (LIGHT, DARK)]
        position.set_hands()
        position.built = [bool(b) for b in s._built]
        if terminated:
            position.legal = []
        return ClassicState(game, position)

    def from_reference(self, reference) -> State:
        """Returns the state of a reference ``ClassicState`` (unbatched); ``rewards`` are the
        returns if it is over, ``_step_count`` its history's length."""
        from cathedral.core.contract import TERMINAL

        position = reference.position
        slots = np.full((2, N_SLOTS), -1, dtype=np.int32)
        for colour in (LIGHT, DARK):
            for action in sorted(position.pieces[colour]):
                b = ACTION_BUILDING[action]
                slot = FIRST_SLOT[b] + int(TWO_COPIES[b] and slots[colour, FIRST_SLOT[b]] >= 0)
                slots[colour, slot] = action
        terminated = position.to_move == TERMINAL
        if terminated:
            player = reference.last_mover() if reference.history() else self._first
        else:
            player = position.to_move
        state = State(
            current_player=jnp.int32(player),
            rewards=jnp.float32(reference.returns()),
            terminated=jnp.bool_(terminated),
            legal_action_mask=jnp.asarray(
                np.ones(NUM_ACTIONS, bool) if terminated else reference.legal_actions_mask()
            ),
            _step_count=jnp.int32(len(reference.history())),
            _walls=jnp.asarray(np.stack([bits.words_of(w, N_WORDS) for w in position.walls])),
            _cathedral=jnp.asarray(bits.words_of(position.cathedral, N_WORDS)),
            _cathedral_state=jnp.int32(position.cathedral_state),
            _territory=jnp.asarray(
                np.stack([bits.words_of(t, N_WORDS) for t in position.territory])
            ),
            _slots=jnp.asarray(slots),
            _built=jnp.asarray(np.array(position.built, dtype=bool)),
        )
        observe = jax.jit(self._observe)
        return state.replace(observation=observe(state, state.current_player))
