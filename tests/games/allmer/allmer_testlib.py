"""Helpers for the allmer tests: concrete positions, and an independent, deliberately plain
model of the step rules (straight from allmer.md, on (x, y) coordinates) to check the fast
ray-table generator against."""

from __future__ import annotations

import cathedral
from cathedral.games.allmer import AllmerState

FILES = "abcdefghijklmno"
PASSAGES = [((5, 2), (2, 5)), ((9, 2), (12, 5)), ((12, 9), (9, 12)), ((2, 9), (5, 12))]
DIRS8 = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]


def load(**params) -> cathedral.Game:
    return cathedral.load("allmer", **params)


def position(
    stones: dict[str, str],
    *,
    to_move: int = 0,
    chain: str | None = None,
    touched: str = "",
    **params,
) -> AllmerState:
    """Returns a state holding exactly ``stones`` (letter -> space-separated points)."""
    return AllmerState.from_position(
        load(**params), stones, to_move=to_move, chain=chain, touched=touched
    )


def name(xy: tuple[int, int]) -> str:
    return f"{FILES[xy[0]]}{15 - xy[1]}"


def steps(state) -> list[str]:
    """Returns the notation of every legal action, sorted."""
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def play(state, *moves: str):
    """Plays ``moves`` (notation) on ``state`` and returns it."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


# ----- the plain model ------------------------------------------------------------------


def on_board(x: int, y: int) -> bool:
    return 0 <= x < 15 and 0 <= y < 15 and (5 <= x <= 9 or 5 <= y <= 9)


def model_steps(
    board: dict[tuple[int, int], int],
    mover: int,
    *,
    parity: int,
    withdraw: bool,
    chain: tuple[int, int] | None = None,
    touched: frozenset = frozenset(),
) -> set[str]:
    """Returns the legal steps of colour ``mover`` as notation, computed the slow way."""

    def strong(x, y):
        return (x + y) % 2 == parity

    def dirs(x, y):
        return DIRS8 if strong(x, y) else DIRS8[::2]

    def run(x, y, dx, dy):
        e = board.get((x, y), 0)
        if not on_board(x, y) or e in (0, mover):
            return 0
        n = 0
        while on_board(x, y) and board.get((x, y), 0) == e:
            n += 1
            x, y = x + dx, y + dy
        return n

    out = set()
    stones = [xy for xy, c in board.items() if c == mover]
    if chain is not None:
        stones = [chain]
        out.add("stop")
    for sx, sy in stones:
        reach = 1
        for dx, dy in dirs(sx, sy):
            n, x, y = 0, sx + dx, sy + dy
            while on_board(x, y) and board.get((x, y), 0) == mover:
                n, x, y = n + 1, x + dx, y + dy
            reach = max(reach, n)
        for dx, dy in dirs(sx, sy):
            behind = withdraw and run(sx - dx, sy - dy, -dx, -dy) > 0
            for k in range(1, reach + 1):
                x, y = sx + k * dx, sy + k * dy
                if not on_board(x, y) or board.get((x, y), 0) or (x, y) in touched:
                    break
                text = f"{name((sx, sy))}-{name((x, y))}"
                approach = run(x + dx, y + dy, dx, dy) > 0
                if approach:
                    out.add(text + "A")
                if behind:
                    out.add(text + "W")
                if not approach and not behind and chain is None:
                    out.add(text)
        if chain is None:
            for a, b in PASSAGES:
                for p, q in ((a, b), (b, a)):
                    if (sx, sy) == p and not board.get(q, 0):
                        out.add(f"{name(p)}-{name(q)}")
    return out


def model_of(state) -> set[str]:
    """Returns ``model_steps`` for the position of ``state``."""
    from cathedral.games.allmer.geometry import COORDS

    board = {COORDS[p]: c for p, c in enumerate(state.board) if c}
    chain = COORDS[state.chain] if state.chain >= 0 else None
    touched = frozenset(COORDS[p] for p in state.touched_points())
    return model_steps(
        board,
        state.player + 1,
        parity=1 if state.game.params["field"] == "middle4" else 0,
        withdraw=state.game.params["withdraw"],
        chain=chain,
        touched=touched,
    )
