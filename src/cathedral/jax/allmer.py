"""Allmer's Cathedral (registry ``allmer``, 2 or 4 players) as a batched, jit-compiled pgx Env.

This module owns the JAX engine of Allmer's game: the tables it builds at import from the
reference geometry (``cathedral.games.allmer``), the pgx ``State`` and ``Env`` subclasses
(``AllmerState``, ``AllmerEnv``), ``make(players=..., **params)`` for the ``cathedral.jax``
registry, and the conversions ``to_reference`` / ``from_reference`` between one unbatched
state here and the reference engine's ``AllmerState``.

It reproduces the reference exactly: the same 28,009 action ids, the same observation tensor
(``(2n + 5, 15, 15)`` float32, channels first, seen by the player to move), the same
``current_player`` (the reference's player to move, which a finished game keeps), the same
termination and the same returns, given as pgx rewards at the step the game ends (zero at
every other step, eliminated players included). Two pgx conventions differ from the
reference's interface: a finished state's ``legal_action_mask`` is all ones (pgx's ``Env.step``
sets it), and an illegal action ends the game with pgx's penalty instead of raising.

Parameters: ``players`` (2 or 4), ``field``, ``repetition``, ``quiet_turns`` and ``max_turns``
as in the reference; ``withdraw=True`` and ``max_turns=0`` (no turn cap, hence no bound on the
repetition table) are rejected with a ValueError. ``layout`` (not a game parameter) picks the
observation's form: ``"reference"`` (default) the reference tensor above, ``"hwc"`` the same
tensor channels last, ``(15, 15, 2n + 5)``, as pgx's board games and its example conv nets
expect.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as core
from pgx._src.struct import dataclass

from cathedral.games.allmer import game as ref_game
from cathedral.games.allmer import state as ref_state
from cathedral.games.allmer.geometry import (
    COORDS,
    DIRECTIONS,
    GEOMETRIES,
    MOUTHS,
    NUM_POINTS,
    PARTNER,
    SIZE,
)
from cathedral.games.allmer.movegen import MAX_DISTANCE, MIN_ALIVE, NUM_ACTIONS, PASSAGE_BASE, STOP

# Representation: the board is an int8 vector of the 125 points (0 empty, player + 1 a stone);
# the chain is the chaining point (-1: none) plus a bool mask of touched points. Move
# generation (the 28,009-entry mask) works on row bitboards of the 15 x 15 box (int32[15], bit x
# of word y is the cell (x, y)): a one-point move in a direction is a row shift plus a bit shift,
# so a lax.scan over the distance 1..14 finds every slide of every stone with ~10 word
# operations per direction, and the bits are spread to the action layout at the end. Applying a
# step uses gathers from RAY[point, direction, 0..14] (point indices padded with a 126th "wall"
# entry of value WALL). The repetition rule keeps every turn-start key (the reference's own
# 64-bit Zobrist key, split into two uint32 halves) in an array of max_turns + 1 entries: the
# reference adds one key per turn and ends the game at max_turns turns, so the array never
# overflows and counting equal keys in it gives exactly the reference's ``seen`` counts.

WALL = 7
"""The value of the padding point (neither empty nor any colour)."""
PAD = NUM_POINTS
"""Index of the padding point in the padded board."""
NUM_STEP_ACTIONS = PASSAGE_BASE
STEPS_PER_POINT = 8 * MAX_DISTANCE * 2
"""Step actions of one stone: its ids are ``point * STEPS_PER_POINT + ...``."""

ONE_LEFT, NO_MOVES, REPETITION, QUIET_TURNS, TURN_LIMIT = 1, 2, 3, 4, 5
TERMINATIONS = (
    None,
    ref_state.Termination.ONE_LEFT,
    ref_state.Termination.NO_MOVES,
    ref_state.Termination.REPETITION,
    ref_state.Termination.QUIET_TURNS,
    ref_state.Termination.TURN_LIMIT,
)
"""Termination code -> the reference's Termination (code 0: the game goes on)."""

VERSION = "v1"
LAYOUTS = ("reference", "hwc")
"""Observation layouts: the reference's channels-first tensor, or it transposed channels last."""


def _split64(values) -> tuple[np.ndarray, np.ndarray]:
    arr = [int(v) for v in values]
    hi = np.array([v >> 32 for v in arr], dtype=np.uint32)
    lo = np.array([v & 0xFFFFFFFF for v in arr], dtype=np.uint32)
    return hi, lo


class _Tables:
    """The numpy index tables of one field, built once."""

    def __init__(self, field: str) -> None:
        geo = GEOMETRIES[field]
        ray = np.full((NUM_POINTS, 8, MAX_DISTANCE + 1), PAD, dtype=np.int32)
        for p in range(NUM_POINTS):
            for d in range(8):
                r = geo.rays[p][d]
                ray[p, d, : len(r)] = r
        self.ray = ray
        neigh = np.full((NUM_POINTS, 9), PAD, dtype=np.int32)
        for p in range(NUM_POINTS):
            for i, q in enumerate(geo.neighbours[p]):
                neigh[p, i] = q
            if p in PARTNER:
                neigh[p, 8] = PARTNER[p]  # a passage counts for "can move"
        self.neigh = neigh
        self.strong = np.array(geo.strong, dtype=bool)


_TABLES = {field: _Tables(field) for field in GEOMETRIES}
_MOUTHS = np.array(MOUTHS, dtype=np.int32)
_PARTNERS = np.array([PARTNER[m] for m in MOUTHS], dtype=np.int32)
_CELL = np.array([y * SIZE + x for x, y in COORDS], dtype=np.int32)
_Z_HI, _Z_LO = (
    np.stack(h) for h in zip(*(_split64(ref_state.ZOBRIST[c]) for c in range(5)), strict=True)
)
_Z_HI = np.concatenate([_Z_HI, np.zeros((WALL + 1 - 5, NUM_POINTS), np.uint32)])
_Z_LO = np.concatenate([_Z_LO, np.zeros((WALL + 1 - 5, NUM_POINTS), np.uint32)])
_ZM_HI, _ZM_LO = _split64(ref_state.ZOBRIST_TO_MOVE)


def _to_box(points: jax.Array, fill) -> jax.Array:
    """Returns the 15 x 15 box of a per-point vector (``fill`` off the cross)."""
    top = jnp.pad(points[:25].reshape(5, 5), ((0, 0), (5, 5)), constant_values=fill)
    middle = points[25:100].reshape(5, SIZE)
    bottom = jnp.pad(points[100:].reshape(5, 5), ((0, 0), (5, 5)), constant_values=fill)
    return jnp.concatenate([top, middle, bottom])


def _from_box(box: jax.Array) -> jax.Array:
    """Returns the per-point values (leading axis 125) of a box shaped (15, 15, ...)."""
    rest = box.shape[2:]
    return jnp.concatenate(
        [
            box[:5, 5:10].reshape(25, *rest),
            box[5:10].reshape(75, *rest),
            box[10:, 5:10].reshape(25, *rest),
        ]
    )


_ROW = (1 << SIZE) - 1
_BIT = (1 << np.arange(SIZE)).astype(np.int32)


def _bits(points: jax.Array) -> jax.Array:
    """Returns the row bitboards (int32[15]) of a per-point bool vector."""
    box = _to_box(points.astype(jnp.int32), 0)
    return jnp.sum(box * jnp.asarray(_BIT), axis=1, dtype=jnp.int32)


def _step_bits(planes: jax.Array) -> jax.Array:
    """Returns ``planes[d]`` (int32[8, 15] row bitboards) moved so that each cell holds the
    value of its neighbour in direction ``d`` (0 beyond the box)."""
    zero = jnp.zeros((1,), jnp.int32)
    out = []
    for d, (dx, dy) in enumerate(DIRECTIONS):
        rows = planes[d]
        if dy > 0:
            rows = jnp.concatenate([rows[1:], zero])
        elif dy < 0:
            rows = jnp.concatenate([zero, rows[:-1]])
        if dx > 0:
            rows = rows >> 1
        elif dx < 0:
            rows = (rows << 1) & _ROW
        out.append(rows)
    return jnp.stack(out)


def _unpack_steps(steps: jax.Array) -> jax.Array:
    """Returns the step part of the action mask (bool[28000]) from bitboards of legal slides
    ``steps[direction, distance - 1, row]``.

    The kind axis (always 0 for withdrawals, which are off) is interleaved while the data is
    still 15 words per (direction, distance); each point then takes its row's words and its
    bit. Interleaving the unpacked mask instead costs XLA on CPU some 20 times more.
    """
    words = jnp.transpose(steps, (2, 0, 1))  # [row, direction, distance - 1]
    words = jnp.stack([words, jnp.zeros_like(words)], axis=-1)  # [..., kind]
    arm = np.arange(5, 10)[None, :, None, None, None]
    top = words[0:5, None] >> arm
    middle = words[5:10, None] >> np.arange(SIZE)[None, :, None, None, None]
    bottom = words[10:15, None] >> arm
    per_point = STEPS_PER_POINT
    cells = jnp.concatenate(
        [top.reshape(25, per_point), middle.reshape(75, per_point), bottom.reshape(25, per_point)]
    )
    return (cells & 1).reshape(NUM_STEP_ACTIONS).astype(jnp.bool_)


def _lines_box(field: str) -> np.ndarray:
    """Returns bool[8, 15, 15]: whether a line leaves each cell of the box in each direction
    (orthogonal lines everywhere on the cross, diagonals only at strong points)."""
    geo = GEOMETRIES[field]
    out = np.zeros((8, SIZE, SIZE), dtype=bool)
    for p, (x, y) in enumerate(COORDS):
        for d in range(8):
            out[d, y, x] = bool(geo.rays[p][d])
    return out


_LINES_BOX = {field: _lines_box(field) for field in GEOMETRIES}
_LINES_BITS = {
    field: np.sum(box.astype(np.int64) * _BIT, axis=2).astype(np.int32)
    for field, box in _LINES_BOX.items()
}


def _start_board(players: int) -> np.ndarray:
    return np.frombuffer(bytes(ref_state.start_board(players)), dtype=np.uint8).astype(np.int8)


@dataclass
class AllmerState(core.State):
    """A batched-friendly position of Allmer's Cathedral (see the representation comment).

    ``current_player`` is the reference's player to move (kept when the game ends).
    """

    current_player: jax.Array
    observation: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    legal_action_mask: jax.Array
    _step_count: jax.Array
    _board: jax.Array  # int8[125]: 0 empty, player + 1
    _chain: jax.Array  # int32: the chaining point, -1 when no chain is on
    _touched: jax.Array  # bool[125]: points touched by the chain in progress
    _turns: jax.Array  # int32: turns played
    _quiet: jax.Array  # int32: turns in a row without a conversion
    _counts: jax.Array  # int32[n]: stones per player
    _elim_rank: jax.Array  # int32[n]: position in the reference's ``eliminated``, -1 if absent
    _n_elim: jax.Array  # int32: players eliminated so far
    _last_steps: jax.Array  # int32[n]: origin << 8 | landing of each player's last step, -1
    _termination: jax.Array  # int32: 0 while playing, else a termination code
    _seen_hi: jax.Array  # uint32[L]: high halves of the turn-start keys seen
    _seen_lo: jax.Array  # uint32[L]: low halves
    _n_seen: jax.Array  # int32: keys stored

    @property
    def env_id(self) -> str:
        return "allmer"


def _xor_reduce(x: jax.Array) -> jax.Array:
    return jax.lax.reduce(x, np.uint32(0), jax.lax.bitwise_xor, (0,))


class AllmerEnv(core.Env):
    """Allmer's Cathedral for pgx: ``AllmerEnv(players=2)`` or ``AllmerEnv(players=4)``."""

    def __init__(
        self,
        players: int = 2,
        field: str = "middle4",
        withdraw: bool = False,
        repetition: int = 3,
        quiet_turns: int = 100,
        max_turns: int | None = None,
        layout: str = "reference",
    ) -> None:
        super().__init__()
        if layout not in LAYOUTS:
            raise ValueError(f"allmer: unknown layout {layout!r}; expected one of {LAYOUTS}")
        if players not in (2, 4):
            raise ValueError(f"allmer: players must be 2 or 4, not {players!r}")
        if field not in GEOMETRIES:
            raise ValueError(f"allmer: field must be one of {sorted(GEOMETRIES)}, not {field!r}")
        if withdraw:
            raise ValueError("allmer (jax): withdraw=True is not implemented; use the reference")
        if max_turns == 0:
            raise ValueError("allmer (jax): max_turns=0 (no turn cap) is not supported")
        for name, value in (("repetition", repetition), ("quiet_turns", quiet_turns)):
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"allmer: {name} must be an int >= 0, not {value!r}")
        if max_turns is not None and (not isinstance(max_turns, int) or max_turns < 0):
            raise ValueError(f"allmer: max_turns must be an int >= 0 or None, not {max_turns!r}")
        self.params = {
            "players": players,
            "field": field,
            "withdraw": False,
            "repetition": repetition,
            "quiet_turns": quiet_turns,
            "max_turns": max_turns,
        }
        self.layout = layout
        self._n = players
        self._repetition = repetition
        self._quiet_turns = quiet_turns
        self._turn_limit = ref_game.DEFAULT_TURN_LIMIT[players] if max_turns is None else max_turns
        self._seen_size = self._turn_limit + 1 if repetition else 1
        t = _TABLES[field]
        self._field = field
        self._complete_jit = None
        self._ray = t.ray
        self._neigh = t.neigh
        self._start = _start_board(players)
        n = players
        planes = 2 * n + 5
        template = np.zeros((planes, SIZE * SIZE), dtype=np.float32)
        template[n, _CELL] = 1.0
        template[n + 1, _CELL[t.strong]] = 1.0
        template[n + 2, _CELL[_MOUTHS]] = 1.0
        self._template = template

    # ----- pgx API -------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return "allmer"

    @property
    def version(self) -> str:
        return VERSION

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def observation_shape(self) -> tuple[int, ...]:
        planes = 2 * self._n + 5
        return (SIZE, SIZE, planes) if self.layout == "hwc" else (planes, SIZE, SIZE)

    def reference_game(self):
        """Returns the reference ``AllmerGame`` with this env's parameters."""
        return ref_game.AllmerGame(**self.params)

    def _init(self, key: jax.Array) -> AllmerState:
        del key  # the game has no randomness; White always moves first
        n = self._n
        board = jnp.asarray(self._start)
        hi, lo = self._key(board, jnp.int32(0))
        seen_hi = jnp.zeros(self._seen_size, jnp.uint32).at[0].set(hi)
        seen_lo = jnp.zeros(self._seen_size, jnp.uint32).at[0].set(lo)
        state = AllmerState(
            current_player=jnp.int32(0),
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, jnp.bool_),
            _step_count=jnp.int32(0),
            _board=board,
            _chain=jnp.int32(-1),
            _touched=jnp.zeros(NUM_POINTS, jnp.bool_),
            _turns=jnp.int32(0),
            _quiet=jnp.int32(0),
            _counts=jnp.full(n, 15, jnp.int32),
            _elim_rank=jnp.full(n, -1, jnp.int32),
            _n_elim=jnp.int32(0),
            _last_steps=jnp.full(n, -1, jnp.int32),
            _termination=jnp.int32(0),
            _seen_hi=seen_hi,
            _seen_lo=seen_lo,
            _n_seen=jnp.int32(1),
        )
        return state.replace(legal_action_mask=self._legal_mask(state))

    def _step(self, state: AllmerState, action: jax.Array, key=None) -> AllmerState:
        del key
        n = self._n
        action = jnp.asarray(action, jnp.int32)
        player = state.current_player
        colour = (player + 1).astype(jnp.int8)
        board = state._board
        is_stop = action == STOP
        is_slide = action < PASSAGE_BASE

        # decode a slide (garbage but in range for the other kinds)
        a = jnp.where(is_slide, action, 0) // 2
        dist0 = a % MAX_DISTANCE
        origin_s = a // (MAX_DISTANCE * 8)
        direction = (a // MAX_DISTANCE) % 8
        ray_table = jnp.asarray(self._ray)
        landing_s = ray_table[origin_s, direction, dist0]
        pi = jnp.clip(action - PASSAGE_BASE, 0, len(MOUTHS) - 1)
        origin = jnp.where(is_slide, origin_s, jnp.asarray(_MOUTHS)[pi])
        landing = jnp.where(is_slide, landing_s, jnp.asarray(_PARTNERS)[pi])

        # move the stone (not on stop)
        moves = ~is_stop
        pb = jnp.concatenate([board, jnp.array([WALL], jnp.int8)])
        pb = jnp.where(moves, pb.at[origin].set(0).at[landing].set(colour), pb)
        last_steps = jnp.where(
            moves,
            state._last_steps.at[player].set(origin * 256 + landing),
            state._last_steps,
        )

        # approach conversion along the ray beyond the landing
        run_idx = ray_table[landing, direction]
        vals = pb[run_idx]
        victim = vals[0]
        enemy = is_slide & (victim != 0) & (victim != colour) & (victim != WALL)
        run = jnp.cumprod(vals == victim).astype(jnp.bool_) & enemy
        converted = jnp.sum(run, dtype=jnp.int32)
        pb = pb.at[run_idx].set(jnp.where(run, colour, vals))
        board = pb[:NUM_POINTS]
        did_convert = converted > 0

        vi = jnp.clip(victim.astype(jnp.int32) - 1, 0, n - 1)
        before = state._counts[vi]
        counts = state._counts.at[player].add(converted).at[vi].add(-converted)
        falls = did_convert & (before >= MIN_ALIVE) & (before - converted < MIN_ALIVE)
        elim_rank = jnp.where(falls, state._elim_rank.at[vi].set(state._n_elim), state._elim_rank)
        n_elim = state._n_elim + falls.astype(jnp.int32)
        one_left = falls & (jnp.sum(counts >= MIN_ALIVE) == 1)

        # after a conversion the stone chains on if it has a converting step left
        touched = state._touched.at[origin].set(True).at[landing].set(True)
        chain_moves = self._stone_steps(pb, touched, colour, landing, True)
        chains_on = did_convert & ~one_left & jnp.any(chain_moves)

        state = state.replace(
            _board=board,
            _counts=counts,
            _elim_rank=elim_rank,
            _n_elim=n_elim,
            _last_steps=last_steps,
            _chain=jnp.where(chains_on, landing, -1).astype(jnp.int32),
            _touched=touched & chains_on,
        )
        ends_turn = ~chains_on & ~one_left
        turn_converted = is_stop | did_convert
        state = self._end_turn(state, ends_turn, turn_converted)
        state = state.replace(
            _turns=state._turns + one_left.astype(jnp.int32),
            _quiet=jnp.where(one_left, 0, state._quiet),
            _termination=jnp.where(one_left, ONE_LEFT, state._termination),
        )
        terminated = state._termination > 0
        rewards = jnp.where(terminated, self._returns(state), jnp.zeros(n, jnp.float32))
        state = state.replace(terminated=terminated, rewards=rewards)
        return state.replace(legal_action_mask=self._legal_mask(state))

    def _observe(self, state: AllmerState, player_id: jax.Array) -> jax.Array:
        n = self._n
        player_id = jnp.asarray(player_id, jnp.int32)
        cell = jnp.asarray(_CELL)
        obs = jnp.asarray(self._template)
        colours = ((player_id + jnp.arange(n)) % n + 1).astype(jnp.int8)
        stones = (state._board[None, :] == colours[:, None]).astype(jnp.float32)
        obs = obs.at[:n, cell].set(stones)
        obs = obs.at[n + 3, cell].set(state._touched.astype(jnp.float32))
        in_chain = state._chain >= 0
        chain_plane = (
            jnp.zeros(NUM_POINTS, jnp.float32)
            .at[jnp.maximum(state._chain, 0)]
            .set(in_chain.astype(jnp.float32))
        )
        obs = obs.at[n + 4, cell].set(chain_plane)
        to_move = (jnp.arange(n) == (state.current_player - player_id) % n) & (
            state._termination == 0
        )
        obs = obs.at[n + 5 :].set(jnp.broadcast_to(to_move[:, None], (n, SIZE * SIZE)))
        obs = obs.reshape(2 * n + 5, SIZE, SIZE)
        return jnp.transpose(obs, (1, 2, 0)) if self.layout == "hwc" else obs

    # ----- rules ---------------------------------------------------------------------------

    def _key(self, board: jax.Array, player: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Returns the reference's turn-start key (zhash ^ ZOBRIST_TO_MOVE[player]) as halves."""
        cols = board.astype(jnp.int32)
        pts = jnp.arange(NUM_POINTS)
        hi = _xor_reduce(jnp.asarray(_Z_HI)[cols, pts]) ^ jnp.asarray(_ZM_HI)[player]
        lo = _xor_reduce(jnp.asarray(_Z_LO)[cols, pts]) ^ jnp.asarray(_ZM_LO)[player]
        return hi, lo

    def _stone_steps(self, pb, touched, colour, s, chain) -> jax.Array:
        """Returns bool[8, 14]: the legal slides of the stone on ``s`` (any point) by their
        direction and distance - 1; ``chain``: only approaches, avoiding touched points."""
        rays = jnp.asarray(self._ray)[s]  # [8, 15]
        occ = pb[rays[:, :MAX_DISTANCE]]
        run = jnp.sum(jnp.cumprod(occ == colour, axis=1), axis=1)
        reach = jnp.maximum(1, jnp.max(run))
        tp = jnp.concatenate([touched, jnp.array([False])])
        free = (occ == 0) & ~tp[rays[:, :MAX_DISTANCE]]
        pfree = jnp.cumprod(free, axis=1).astype(jnp.bool_)
        within = jnp.arange(MAX_DISTANCE)[None, :] < reach
        beyond = pb[rays[:, 1:]]
        enemy = (beyond != 0) & (beyond != colour) & (beyond != WALL)
        return pfree & within & (enemy | ~chain)

    def _legal_mask(self, state: AllmerState) -> jax.Array:
        """Returns the reference's legal_actions_mask (all False once the game is over).

        Every stone at once, with row bitboards of the 15 x 15 box (bit x of row y is the
        cell (x, y)), scanning the slide distance (see the representation comment).
        """
        colour = (state.current_player + 1).astype(jnp.int8)
        board = state._board
        in_chain = state._chain >= 0
        empty = (board == 0) & ~state._touched
        own = board == colour
        enemy = (board != 0) & ~own
        pts = jnp.arange(NUM_POINTS)
        mover = jnp.where(in_chain, pts == state._chain, own)
        free_b, own_b, enemy_b, mover_b = (_bits(x) for x in (empty, own, enemy, mover))
        lines = jnp.asarray(_LINES_BITS[self._field])  # [direction, row]
        origin = lines & mover_b
        gate = jnp.where(in_chain, 0, _ROW)  # outside a chain no enemy is needed beyond

        # k = 1..14: ``run`` and ``free`` hold, per direction, the cells whose next k points
        # are all own stones / all enterable; ``beyond`` the cells with an enemy k + 1 away.
        def distance(carry, _):
            run, free, beyond, first = carry
            run = _step_bits(own_b & run)
            free = _step_bits(free_b & free)
            beyond = _step_bits(beyond)
            reach_ok = jnp.where(first, _ROW, jnp.bitwise_or.reduce(run & lines, axis=0))
            legal = origin & free & (beyond | gate) & reach_ok
            return (run, free, beyond, False), legal

        everything = jnp.full((8, SIZE), _ROW, jnp.int32)
        start = (everything, everything, _step_bits(jnp.broadcast_to(enemy_b, (8, SIZE))), True)
        _, steps = jax.lax.scan(distance, start, None, length=MAX_DISTANCE)
        steps = jnp.transpose(steps, (1, 0, 2))  # [direction, distance - 1, row]
        steps = _unpack_steps(steps)
        passages = (board[_MOUTHS] == colour) & (board[_PARTNERS] == 0) & ~in_chain
        mask = jnp.concatenate([steps, passages, in_chain[None]])
        return mask & (state._termination == 0)

    def _end_turn(self, state: AllmerState, do: jax.Array, converted: jax.Array) -> AllmerState:
        """The reference's ``_end_turn``, applied where ``do`` is true."""
        n = self._n
        board = state._board
        pb = jnp.concatenate([board, jnp.array([WALL], jnp.int8)])
        free_near = jnp.any(pb[jnp.asarray(self._neigh)] == 0, axis=1)
        colours = jnp.arange(1, n + 1, dtype=jnp.int8)
        movable = jnp.any((board[None, :] == colours[:, None]) & free_near[None, :], axis=1)
        ok = (state._counts >= MIN_ALIVE) & movable
        order = (state.current_player + jnp.arange(1, n + 1)) % n
        ok_in_order = ok[order]
        found = jnp.any(ok_in_order)
        candidate = order[jnp.argmax(ok_in_order)].astype(jnp.int32)
        turns = state._turns + 1
        quiet = jnp.where(converted, 0, state._quiet + 1)

        hi, lo = self._key(board, candidate)
        idx = jnp.arange(self._seen_size)
        times = 1 + jnp.sum(
            (state._seen_hi == hi) & (state._seen_lo == lo) & (idx < state._n_seen),
            dtype=jnp.int32,
        )
        slot = jnp.minimum(state._n_seen, self._seen_size - 1)
        seen_hi = state._seen_hi.at[slot].set(hi)
        seen_lo = state._seen_lo.at[slot].set(lo)

        term = jnp.int32(0)
        if self._turn_limit:
            term = jnp.where(turns >= self._turn_limit, TURN_LIMIT, term)
        if self._quiet_turns:
            term = jnp.where(quiet >= self._quiet_turns, QUIET_TURNS, term)
        if self._repetition:
            term = jnp.where(times >= self._repetition, REPETITION, term)
        term = jnp.where(found, term, NO_MOVES)
        advance = do & found
        return state.replace(
            _chain=jnp.where(do, -1, state._chain),
            _touched=state._touched & ~do,
            _turns=jnp.where(do, turns, state._turns),
            _quiet=jnp.where(do, quiet, state._quiet),
            current_player=jnp.where(advance, candidate, state.current_player),
            _seen_hi=jnp.where(advance, seen_hi, state._seen_hi),
            _seen_lo=jnp.where(advance, seen_lo, state._seen_lo),
            _n_seen=state._n_seen + advance.astype(jnp.int32),
            _termination=jnp.where(do, term, state._termination),
        )

    def _returns(self, state: AllmerState) -> jax.Array:
        """The reference's ``returns()`` of a finished game."""
        n = self._n
        counts = state._counts
        scores = jnp.where(counts >= MIN_ALIVE, 1000 + counts, state._elim_rank)
        beats = jnp.sum(scores[:, None] > scores[None, :], axis=1)
        beaten = jnp.sum(scores[:, None] < scores[None, :], axis=1)
        ranked = ((beats - beaten) / (n - 1)).astype(jnp.float32)
        if n == 2:
            draw = state._termination >= REPETITION
            ranked = jnp.where(draw, jnp.zeros(n, jnp.float32), ranked)
        return ranked

    # ----- conversion ----------------------------------------------------------------------

    def _complete(self, state: AllmerState) -> AllmerState:
        """Fills in the legal mask and observation of a state built from its fields (jitted
        once per env)."""
        if self._complete_jit is None:

            def complete(state):
                mask = self._legal_mask(state)
                mask = jnp.where(state.terminated, jnp.ones_like(mask), mask)
                state = state.replace(legal_action_mask=mask)
                return state.replace(observation=self.observe(state))

            self._complete_jit = jax.jit(complete)
        return self._complete_jit(state)

    def to_reference(self, state: AllmerState):
        """Returns the reference AllmerState of one unbatched state (its history is empty:
        this engine does not keep the actions played)."""
        return _to_reference(state, self)

    def from_reference(self, ref) -> AllmerState:
        """Returns the state of this env equal to a reference AllmerState."""
        return _from_reference(ref, self)


def _to_reference(state: AllmerState, env: AllmerEnv):
    ref = env.reference_game().new_initial_state()
    n = env.num_players
    board = np.asarray(state._board).astype(np.uint8)
    ref.board = bytearray(board.tobytes())
    ref.counts = [int(c) for c in np.asarray(state._counts)]
    ref.player = int(state.current_player)
    ref.chain = int(state._chain)
    touched = 0
    for p in np.flatnonzero(np.asarray(state._touched)):
        touched |= 1 << int(p)
    ref.touched = touched
    ref.turns = int(state._turns)
    ref.quiet = int(state._quiet)
    ranks = np.asarray(state._elim_rank)
    fallen = sorted(np.flatnonzero(ranks >= 0), key=lambda p: ranks[p])
    ref.eliminated = tuple(int(p) for p in fallen)
    ref.last_steps = tuple(int(s) for s in np.asarray(state._last_steps))
    ref.zhash = ref_state.board_hash(ref.board)
    seen: dict[int, int] = {}
    hi, lo = np.asarray(state._seen_hi), np.asarray(state._seen_lo)
    for i in range(int(state._n_seen)):
        key = int(hi[i]) << 32 | int(lo[i])
        seen[key] = seen.get(key, 0) + 1
    if not env._repetition:
        seen = {ref.zhash ^ ref_state.ZOBRIST_TO_MOVE[ref.player]: 1}  # unused by the rules
    ref.seen = seen
    ref.termination = TERMINATIONS[int(state._termination)]
    assert len(ref.counts) == n
    return ref


def _from_reference(ref, env: AllmerEnv) -> AllmerState:
    cfg = ref._cfg
    if cfg.players != env.num_players or cfg.geo.field != env.params["field"]:
        raise ValueError("from_reference: the reference state is of another game setting")
    if cfg.withdraw:
        raise ValueError("from_reference: withdraw=True is not supported")
    n = env.num_players
    size = env._seen_size
    hi = np.zeros(size, np.uint32)
    lo = np.zeros(size, np.uint32)
    keys = [k for k, times in sorted(ref.seen.items()) for _ in range(times)]
    if env._repetition:
        room = size - (env._turn_limit - ref.turns)
        if len(keys) > max(room, 1):
            raise ValueError(
                f"from_reference: {len(keys)} turn-start positions do not fit the table of "
                f"{size} (turns {ref.turns}, limit {env._turn_limit})"
            )
        for i, k in enumerate(keys):
            hi[i], lo[i] = k >> 32, k & 0xFFFFFFFF
    else:
        keys = keys[:1]
    elim = np.full(n, -1, np.int32)
    for i, p in enumerate(ref.eliminated):
        elim[p] = i
    touched = np.array([(ref.touched >> p) & 1 for p in range(NUM_POINTS)], dtype=bool)
    termination = TERMINATIONS.index(ref.termination)
    state = AllmerState(
        current_player=jnp.int32(ref.player),
        observation=jnp.zeros(env.observation_shape, jnp.float32),
        rewards=jnp.zeros(n, jnp.float32),
        terminated=jnp.bool_(termination > 0),
        truncated=jnp.bool_(False),
        legal_action_mask=jnp.zeros(NUM_ACTIONS, jnp.bool_),
        _step_count=jnp.int32(len(ref.history())),
        _board=jnp.asarray(np.frombuffer(bytes(ref.board), np.uint8).astype(np.int8)),
        _chain=jnp.int32(ref.chain),
        _touched=jnp.asarray(touched),
        _turns=jnp.int32(ref.turns),
        _quiet=jnp.int32(ref.quiet),
        _counts=jnp.asarray(np.array(ref.counts, np.int32)),
        _elim_rank=jnp.asarray(elim),
        _n_elim=jnp.int32(len(ref.eliminated)),
        _last_steps=jnp.asarray(np.array(ref.last_steps, np.int32)),
        _termination=jnp.int32(termination),
        _seen_hi=jnp.asarray(hi),
        _seen_lo=jnp.asarray(lo),
        _n_seen=jnp.int32(len(keys)),
    )
    return env._complete(state)


def to_reference(state: AllmerState, env: AllmerEnv | None = None):
    """Returns the reference ``AllmerState`` equal to one unbatched state.

    ``env`` gives the game's parameters; by default the defaults, with the player count read
    from the state. The reference state's action history is empty (not kept here).
    """
    if env is None:
        env = AllmerEnv(players=int(np.asarray(state._counts).shape[0]))
    return _to_reference(state, env)


def from_reference(ref, env: AllmerEnv | None = None) -> AllmerState:
    """Returns the unbatched state equal to a reference ``AllmerState`` (``env`` defaults to
    one with the reference game's parameters)."""
    if env is None:
        env = AllmerEnv(**ref.game.params)
    return _from_reference(ref, env)


def make(players: int = 2, **params) -> AllmerEnv:
    """Returns the Allmer env (``cathedral.jax`` registry entry ``allmer``)."""
    return AllmerEnv(players=players, **params)
