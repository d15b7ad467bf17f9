"""The position of a game of Allmer's Cathedral and the turn rules around single steps.

A state holds the board, the player to move, the chain in progress (the chaining stone and the
touched points, which are part of the position), the counters of the draw rules, the table of
turn-start positions seen so far, and how the game ended. Steps come from ``movegen``; what a
turn is (chains, ending by itself, skipping, elimination, the draw rules) lives here.
"""

from __future__ import annotations

import enum

import numpy as np

from cathedral.core.contract import TERMINAL, State, ranked_returns
from cathedral.core.errors import StateError
from cathedral.games.allmer import notation
from cathedral.games.allmer.geometry import (
    BOX_TO_POINT,
    GEOMETRIES,
    NUM_POINTS,
    SIZE,
    parse_point,
    point_name,
)
from cathedral.games.allmer.movegen import (
    MIN_ALIVE,
    MOUTH_MOVES,
    PASSAGE_BASE,
    STOP,
    can_move,
    decode_step,
    free_steps,
    free_steps_withdraw,
    lines_for,
    reach,
    stone_steps,
    withdraw_table,
)
from cathedral.games.allmer.observation import observe


class Termination(enum.Enum):
    """Why a game ended."""

    ONE_LEFT = "one congregation left"
    NO_MOVES = "no player can move"
    REPETITION = "repetition"
    QUIET_TURNS = "turns without a conversion"
    TURN_LIMIT = "turn limit"


DRAW_RULES = (Termination.REPETITION, Termination.QUIET_TURNS, Termination.TURN_LIMIT)


def _splitmix64(seed: int):
    """Yields a fixed stream of 64-bit numbers (Zobrist keys must not depend on a seed)."""
    mask = (1 << 64) - 1
    while True:
        seed = (seed + 0x9E3779B97F4A7C15) & mask
        z = seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        yield z ^ (z >> 31)


_keys = _splitmix64(2026)
ZOBRIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if colour == 0 else next(_keys) for _ in range(NUM_POINTS)) for colour in range(5)
)
"""``ZOBRIST[colour][point]``: the hash key of a stone (colour 0, empty, hashes to 0)."""
ZOBRIST_TO_MOVE: tuple[int, ...] = tuple(next(_keys) for _ in range(4))
ZOBRIST_CHAIN: tuple[int, ...] = tuple(next(_keys) for _ in range(NUM_POINTS))
ZOBRIST_TOUCHED: tuple[int, ...] = tuple(next(_keys) for _ in range(NUM_POINTS))
del _keys


def board_hash(board: bytearray) -> int:
    """Returns the Zobrist hash of the stones on a board."""
    h = 0
    for p, colour in enumerate(board):
        h ^= ZOBRIST[colour][p]
    return h


def start_board(players: int) -> bytearray:
    """Returns the initial board: 15 stones per player on the three outer rows of its arm
    (White south, Black north; with 4 players Blue west and Red east)."""
    homes = {
        "south": [(x, 14 - r) for r in range(3) for x in range(5, 10)],
        "west": [(r, y) for r in range(3) for y in range(5, 10)],
        "north": [(x, r) for r in range(3) for x in range(5, 10)],
        "east": [(14 - r, y) for r in range(3) for y in range(5, 10)],
    }
    arms = ("south", "north") if players == 2 else ("south", "west", "north", "east")
    board = bytearray(NUM_POINTS)
    for player, arm in enumerate(arms):
        for xy in homes[arm]:
            board[BOX_TO_POINT[xy]] = player + 1
    return board


class Config:
    """The settings of one game, shared by all of its states (never copied by ``clone``)."""

    __slots__ = (
        "geo",
        "players",
        "quiet_turns",
        "repetition",
        "start",
        "table",
        "turn_limit",
        "withdraw",
        "wtable",
    )

    def __init__(self, game) -> None:
        params = game.params
        self.players: int = params["players"]
        self.geo = GEOMETRIES[params["field"]]
        self.table = lines_for(self.geo)
        self.wtable = withdraw_table(self.geo)
        self.withdraw: bool = params["withdraw"]
        self.repetition: int = params["repetition"]
        self.quiet_turns: int = params["quiet_turns"]
        self.turn_limit: int = game.turn_limit
        self.start = start_board(self.players)


class AllmerState(State):
    """A position of Allmer's Cathedral with its history.

    Players are numbered in turn order (2 players: White 0, Black 1; 4 players: White 0,
    Blue 1, Black 2, Red 3); the stones of player ``p`` have colour ``p + 1`` on the board.
    """

    __slots__ = (
        "_cfg",
        "board",
        "chain",
        "counts",
        "eliminated",
        "last_steps",
        "player",
        "quiet",
        "seen",
        "termination",
        "touched",
        "turns",
        "zhash",
    )

    def __init__(self, game) -> None:
        super().__init__(game)
        cfg = self._cfg = game._config
        n = cfg.players
        board = cfg.start[:]
        self.board = board
        self.counts = [15] * n
        self.player = 0
        self.chain = -1
        self.touched = 0
        self.turns = 0
        self.quiet = 0
        self.eliminated: tuple[int, ...] = ()
        # Each player's last step (origin << 8 | landing, -1: none), to tell a step back.
        self.last_steps: tuple[int, ...] = (-1,) * n
        self.zhash = board_hash(board)
        self.seen: dict[int, int] = {self.zhash ^ ZOBRIST_TO_MOVE[0]: 1}
        self.termination: Termination | None = None

    # ----- the contract -------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.termination is not None else self.player

    def _legal_actions(self) -> list[int]:
        cfg = self._cfg
        colour = self.player + 1
        if self.chain >= 0:
            out = stone_steps(
                self.board,
                colour,
                self.chain,
                cfg.geo,
                withdraw=cfg.withdraw,
                chain=True,
                touched=self.touched,
            )
            out.append(STOP)
            return out
        if not cfg.withdraw:
            return free_steps(self.board, colour, cfg.table)
        return free_steps_withdraw(self.board, colour, cfg.table, cfg.wtable)

    def _is_legal(self, action: int) -> bool:
        return self.step_problem(action) is None

    def step_problem(self, action: int) -> str | None:
        """Returns why ``action`` is not legal now (one lowercase phrase), or None if it is."""
        if self.termination is not None:
            return "the game is over"
        board = self.board
        colour = self.player + 1
        if action == STOP:
            return None if self.chain >= 0 else "'stop' only ends a chain, and no chain is on"
        if action >= PASSAGE_BASE:
            _, mouth, other = MOUTH_MOVES[action - PASSAGE_BASE]
            if self.chain >= 0:
                return "a passage is never part of a chain"
            if board[mouth] != colour:
                return self._not_yours(mouth)
            if board[other]:
                return f"blocked: the far mouth {point_name(other)} is occupied"
            return None
        origin, direction, distance, kind = decode_step(action)
        geo = self._cfg.geo
        ray = geo.rays[origin][direction]
        if not ray:
            return f"no line leaves {point_name(origin)} in that direction"
        if distance > len(ray):
            return f"the step from {point_name(origin)} leaves the board"
        if board[origin] != colour:
            return self._not_yours(origin)
        if self.chain >= 0 and origin != self.chain:
            return f"during a chain only the stone on {point_name(self.chain)} may move"
        limit = reach(board, colour, self._cfg.table[origin])
        if distance > limit:
            return (
                f"out of reach: the stone on {point_name(origin)} reaches "
                f"{limit} point{'s' if limit > 1 else ''}"
            )
        for q in ray[:distance]:
            if board[q]:
                return f"blocked: {point_name(q)} is occupied"
            if (self.touched >> q) & 1:
                return f"touched point: {point_name(q)} was already touched this turn"
        landing = ray[distance - 1]
        ahead = ray[distance] if distance < len(ray) else -1
        approach = ahead >= 0 and board[ahead] not in (0, colour)
        back = geo.rays[origin][direction ^ 4]
        behind = bool(back) and board[back[0]] not in (0, colour)
        if kind:
            if not self._cfg.withdraw:
                return "withdrawal is switched off in this game (withdraw=false)"
            if not behind:
                return f"no enemy stone stands directly behind {point_name(origin)}"
            return None
        if self.chain >= 0 and not approach:
            return (
                f"not converting: nothing to approach beyond {point_name(landing)}, and "
                "during a chain every step must convert"
            )
        if behind and self._cfg.withdraw and not approach:
            return (
                f"moving straight away from {point_name(back[0])} always withdraws "
                "(add W to the step)"
            )
        return None

    def _not_yours(self, point: int) -> str:
        owner = self.board[point]
        if not owner:
            return f"not your stone: {point_name(point)} is empty"
        name = self.game.player_names()[owner - 1]
        return f"not your stone: {point_name(point)} holds a {name} stone"

    def _apply_action(self, action: int) -> None:
        board = self.board
        colour = self.player + 1
        zob = ZOBRIST[colour]
        if action == STOP:
            self._end_turn(True)
            return
        if action >= PASSAGE_BASE:
            _, mouth, other = MOUTH_MOVES[action - PASSAGE_BASE]
            board[mouth] = 0
            board[other] = colour
            self.zhash ^= zob[mouth] ^ zob[other]
            self._stepped(mouth, other)
            self._end_turn(False)
            return
        origin, direction, distance, kind = decode_step(action)
        rays = self._cfg.geo.rays
        landing = rays[origin][direction][distance - 1]
        self._stepped(origin, landing)
        board[origin] = 0
        board[landing] = colour
        h = self.zhash ^ zob[origin] ^ zob[landing]
        run = rays[origin][direction ^ 4] if kind else rays[landing][direction]
        victim = board[run[0]] if run else 0
        converted = 0
        if victim and victim != colour:
            old = ZOBRIST[victim]
            for q in run:
                if board[q] != victim:
                    break
                board[q] = colour
                h ^= old[q] ^ zob[q]
                converted += 1
        self.zhash = h
        if not converted:
            self._end_turn(False)
            return
        counts = self.counts
        counts[self.player] += converted
        before = counts[victim - 1]
        counts[victim - 1] = before - converted
        if before >= MIN_ALIVE > before - converted:
            self.eliminated += (victim - 1,)
            if sum(1 for c in counts if c >= MIN_ALIVE) == 1:
                self.chain = -1
                self.touched = 0
                self.turns += 1
                self.quiet = 0
                self.termination = Termination.ONE_LEFT
                return
        self.touched |= (1 << origin) | (1 << landing)
        self.chain = landing
        cfg = self._cfg
        if not stone_steps(
            board,
            colour,
            landing,
            cfg.geo,
            withdraw=cfg.withdraw,
            chain=True,
            touched=self.touched,
        ):
            self._end_turn(True)

    def _stepped(self, origin: int, landing: int) -> None:
        steps = list(self.last_steps)
        steps[self.player] = origin << 8 | landing
        self.last_steps = tuple(steps)

    def _endpoints(self, action: int) -> tuple[int, int]:
        if action >= PASSAGE_BASE:
            _, mouth, other = MOUTH_MOVES[action - PASSAGE_BASE]
            return mouth, other
        origin, direction, distance, _ = decode_step(action)
        return origin, self._cfg.geo.rays[origin][direction][distance - 1]

    def undoes(self, action: int) -> bool:
        """Whether ``action``, at the start of a turn, walks the stone of the mover's last step
        straight back to where it came from."""
        if action == STOP or self.chain >= 0 or self.last_steps[self.player] < 0:
            return False
        origin, landing = self._endpoints(action)
        return self.last_steps[self.player] == (landing << 8 | origin)

    def converts(self, action: int) -> bool:
        """Returns whether a legal step converts (an approach or a withdrawal)."""
        if action >= PASSAGE_BASE:  # passages and stop
            return False
        origin, direction, distance, kind = decode_step(action)
        if kind:
            return True
        ray = self._cfg.geo.rays[origin][direction]
        beyond = ray[distance] if distance < len(ray) else -1
        victim = self.board[beyond] if beyond >= 0 else 0
        return bool(victim) and victim != self.player + 1

    def _end_turn(self, converted: bool) -> None:
        """Ends the turn of the player to move: finds the next player who can move and
        applies the draw rules to the position that player faces."""
        cfg = self._cfg
        self.chain = -1
        self.touched = 0
        self.turns += 1
        self.quiet = 0 if converted else self.quiet + 1
        n = cfg.players
        counts = self.counts
        board = self.board
        player = self.player
        for step in range(1, n + 1):
            candidate = (player + step) % n
            if counts[candidate] >= MIN_ALIVE and can_move(board, candidate + 1, cfg.geo):
                break
        else:
            self.termination = Termination.NO_MOVES
            return
        self.player = candidate
        key = self.zhash ^ ZOBRIST_TO_MOVE[candidate]
        times = self.seen.get(key, 0) + 1
        # copy on write: clones share the table until one of them ends a turn
        seen = self.seen.copy()
        seen[key] = times
        self.seen = seen
        if cfg.repetition and times >= cfg.repetition:
            self.termination = Termination.REPETITION
        elif cfg.quiet_turns and self.quiet >= cfg.quiet_turns:
            self.termination = Termination.QUIET_TURNS
        elif cfg.turn_limit and self.turns >= cfg.turn_limit:
            self.termination = Termination.TURN_LIMIT

    def _action_to_string(self, action: int) -> str:
        return notation.action_name(self, action)

    def _string_to_action(self, text: str) -> int:
        return notation.parse_action(self, text)

    def clone(self) -> AllmerState:
        other = object.__new__(AllmerState)
        other.game = self.game
        other._history = self._history.copy()
        other._cfg = self._cfg
        other.board = self.board[:]
        other.counts = self.counts[:]
        other.player = self.player
        other.chain = self.chain
        other.touched = self.touched
        other.turns = self.turns
        other.quiet = self.quiet
        other.eliminated = self.eliminated
        other.last_steps = self.last_steps
        other.seen = self.seen
        other.zhash = self.zhash
        other.termination = self.termination
        return other

    # ----- results ------------------------------------------------------------------------

    def alive(self, player: int) -> bool:
        """Returns whether ``player`` still has at least 4 stones."""
        return self.counts[player] >= MIN_ALIVE

    def reach(self, point: int) -> int:
        """Returns how many points the stone on ``point`` may slide (0 for an empty point)."""
        colour = self.board[point]
        return reach(self.board, colour, self._cfg.table[point]) if colour else 0

    def ranking_scores(self) -> list[int]:
        """Returns a number per player, higher ranking higher: alive players by stone count,
        then eliminated players, the latest eliminated highest."""
        out = []
        for p, count in enumerate(self.counts):
            if count >= MIN_ALIVE:
                out.append(1000 + count)
            else:
                out.append(self.eliminated.index(p) if p in self.eliminated else -1)
        return out

    def returns(self) -> list[float]:
        n = self._cfg.players
        if self.termination is None:
            return [0.0] * n
        if n == 2 and self.termination in DRAW_RULES:
            return [0.0, 0.0]
        return ranked_returns(self.ranking_scores())

    def scores(self) -> list[float]:
        return [float(c) for c in self.counts]

    def winners(self) -> list[int]:
        """Returns the players ranked first at the end (several on a shared result, none in a
        two-player draw); empty before the end."""
        if self.termination is None:
            return []
        if self._cfg.players == 2 and self.termination in DRAW_RULES:
            return []
        scores = self.ranking_scores()
        top = max(scores)
        return [p for p, s in enumerate(scores) if s == top]

    def result_string(self) -> str:
        if self.termination is None:
            return ""
        names = self.game.player_names()
        term = self.termination
        counts = ", ".join(f"{names[p]} {c}" for p, c in enumerate(self.counts))
        why = {
            Termination.ONE_LEFT: "every other congregation is below 4 stones",
            Termination.NO_MOVES: "no player can move; the largest congregation wins",
            Termination.REPETITION: f"the position occurred {self._cfg.repetition} times",
            Termination.QUIET_TURNS: f"{self._cfg.quiet_turns} turns without a conversion",
            Termination.TURN_LIMIT: f"the limit of {self._cfg.turn_limit} turns was reached",
        }[term]
        if self._cfg.players == 2:
            winners = self.winners()
            head = f"{names[winners[0]]} wins" if len(winners) == 1 else "Draw"
            return f"{head}: {why} (stones: {counts})"
        scores = self.ranking_scores()
        order = sorted(range(len(scores)), key=lambda p: -scores[p])
        places = []
        for p in order:
            place = 1 + sum(1 for q in range(len(scores)) if scores[q] > scores[p])
            places.append(f"{place}. {names[p]}")
        winners = self.winners()
        head = " and ".join(names[p] for p in winners) + (" win" if len(winners) > 1 else " wins")
        return f"{head}: {why} (ranking: {', '.join(places)}; stones: {counts})"

    # ----- positions, tensors and text ----------------------------------------------------

    def position_key(self) -> int:
        """Returns a 64-bit hash of the position: stones, player to move and chain state."""
        h = self.zhash ^ ZOBRIST_TO_MOVE[self.player]
        if self.chain >= 0:
            h ^= ZOBRIST_CHAIN[self.chain]
            touched = self.touched
            while touched:
                low = touched & -touched
                h ^= ZOBRIST_TOUCHED[low.bit_length() - 1]
                touched ^= low
        return h

    def touched_points(self) -> list[int]:
        """Returns the points touched by the chain in progress, in point order."""
        return [p for p in range(NUM_POINTS) if (self.touched >> p) & 1]

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """Returns the planes of ``AllmerGame.observation_planes`` for ``player`` (default:
        the player to move), each 15 x 15 over the box; colours are numbered from ``player``
        on in turn order (``observation``)."""
        return observe(self, self.player if player is None else player)

    def skipped_after(self, action: int) -> list[int]:
        after = self.clone()
        after._apply_action(action)
        mover = self.current_player()
        if after.termination is not None or (after.player == mover and after.chain >= 0):
            return []
        return passed_over(mover, after)

    def turn_starts(self) -> bool:
        return self.chain < 0  # a chain goes on with the same stone, in the same turn

    @classmethod
    def from_position(
        cls,
        game,
        stones: dict[str, str],
        *,
        to_move: int = 0,
        chain: str | None = None,
        touched: str = "",
        eliminated: tuple[int, ...] | None = None,
    ) -> AllmerState:
        """Returns a state with exactly the given stones, for analysis, puzzles and tests.

        Unlike a state loaded from JSON, the stones need not add up to 15 per player.

        Args:
            game: the AllmerGame.
            stones: board letter (``W``, ``B``, with 4 players also ``U`` and ``R``) to the
                space-separated points its stones stand on, e.g. ``{"W": "h5 h6", "B": "h8"}``.
            to_move: the player to move.
            chain: the chaining stone's point, if a chain is in progress.
            touched: space-separated touched points of that chain (its point is added).
            eliminated: the players out, in the order they fell (default: every player below
                4 stones, in player order).

        Raises:
            StateError: an unknown letter or point, a point given twice, or a chain that is
                not the mover's stone.
        """
        state = cls(game)
        letters = game.colour_letters()
        board = bytearray(NUM_POINTS)
        try:
            for letter, names in stones.items():
                if letter not in letters[1:]:
                    raise StateError(f"unknown colour {letter!r} (expected one of {letters[1:]})")
                for name in names.split():
                    p = parse_point(name)
                    if board[p]:
                        raise StateError(f"point {name} is given twice")
                    board[p] = letters.index(letter)
            touched_bits = 0
            for name in touched.split():
                touched_bits |= 1 << parse_point(name)
            chain_point = parse_point(chain) if chain else -1
        except ValueError as exc:
            if isinstance(exc, StateError):
                raise
            raise StateError(str(exc)) from None
        n = state._cfg.players
        counts = [board.count(p + 1) for p in range(n)]
        if chain_point >= 0:
            if board[chain_point] != to_move + 1:
                raise StateError(f"the chaining stone on {chain} is not the mover's")
            touched_bits |= 1 << chain_point
        state.board = board
        state.counts = counts
        state.player = to_move
        state.chain = chain_point
        state.touched = touched_bits if chain_point >= 0 else 0
        state.eliminated = (
            tuple(eliminated)
            if eliminated is not None
            else tuple(p for p in range(n) if counts[p] < MIN_ALIVE)
        )
        state.zhash = board_hash(board)
        state.seen = {state.zhash ^ ZOBRIST_TO_MOVE[to_move]: 1}
        return state

    # ----- JSON ---------------------------------------------------------------------------

    def _to_dict(self) -> dict:
        letters = self.game.colour_letters()
        rows = []
        for y in range(SIZE):
            row = []
            for x in range(SIZE):
                p = BOX_TO_POINT.get((x, y))
                row.append(" " if p is None else letters[self.board[p]])
            rows.append("".join(row))
        return {
            "board": rows,
            "to_move": self.player,
            "chain": point_name(self.chain) if self.chain >= 0 else None,
            "touched": [point_name(p) for p in self.touched_points()],
            "turns": self.turns,
            "quiet_turns": self.quiet,
            "eliminated": list(self.eliminated),
            "last_steps": [None if step < 0 else [point_name(step >> 8), point_name(step & 255)]
                           for step in self.last_steps],
            "seen": [[f"{k:016x}", v] for k, v in sorted(self.seen.items())],
            "termination": self.termination.name if self.termination else None,
            "history": list(self._history),
        }


def passed_over(mover: int, after: AllmerState) -> list[int]:
    """The players still in the game between ``mover`` and the next to move in ``after``:
    they cannot move and are skipped."""
    n = len(after.counts)
    out = []
    step = 1
    while (mover + step) % n != after.player and step < n:
        if after.alive((mover + step) % n):
            out.append((mover + step) % n)
        step += 1
    return out
