"""Allmer's Cathedral's state JSON read back: every field checked, impossible positions refused.

``AllmerState._to_dict`` writes the board as rows of letters, the player to move, the chain in
progress, the draw rules' counters, who is out, each player's last step, the turn-start
positions seen and how the game ended. Reading it back checks each field and the invariants
between them, and says what was found and what was expected.
"""

from __future__ import annotations

from cathedral.core.contract import Game, check_history
from cathedral.core.errors import StateError
from cathedral.games.allmer.geometry import BOX_TO_POINT, NUM_POINTS, SIZE, parse_point, point_name
from cathedral.games.allmer.movegen import MIN_ALIVE
from cathedral.games.allmer.state import AllmerState, Termination, board_hash


def state_from_dict(game: Game, data: dict) -> AllmerState:
    """Rebuilds a state from ``AllmerState._to_dict`` data, checking that it describes a
    position.

    Raises:
        StateError: naming the first inconsistency, with what was expected.
    """

    def bad(text: str) -> StateError:
        return StateError(f"corrupt state: {text}")

    def number(key: str) -> int:
        value = data[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise bad(f"{key} must be an integer >= 0, got {value!r}")
        return value

    state = AllmerState(game)
    n = state._cfg.players
    letters = game.colour_letters()
    rows = data["board"]
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise bad(f"board must be a list of {SIZE} rows")
    board = bytearray(NUM_POINTS)
    for y, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != SIZE:
            raise bad(f"board row {y} must be a string of {SIZE} characters, got {row!r}")
        for x, char in enumerate(row):
            p = BOX_TO_POINT.get((x, y))
            if p is None:
                if char != " ":
                    raise bad(f"board row {y} has {char!r} off the cross at column {x}")
            elif char not in letters:
                raise bad(
                    f"board row {y} has {char!r} at column {x} "
                    f"(expected one of {''.join(letters)!r})"
                )
            else:
                board[p] = letters.index(char)
    counts = [board.count(p + 1) for p in range(n)]
    if sum(counts) != 15 * n:
        raise bad(f"the board holds {sum(counts)} stones, expected {15 * n}")
    player = data["to_move"]
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
        raise bad(f"to_move must be a player 0..{n - 1}, got {player!r}")
    term_name = data["termination"]
    if term_name is not None and term_name not in Termination.__members__:
        raise bad(f"unknown termination {term_name!r}")
    termination = Termination[term_name] if term_name else None
    eliminated = data["eliminated"]
    if (
        not isinstance(eliminated, list)
        or len(set(eliminated)) != len(eliminated)
        or sorted(eliminated) != [p for p in range(n) if counts[p] < MIN_ALIVE]
    ):
        raise bad(
            f"eliminated {eliminated!r} must list, in order, exactly the players with "
            f"fewer than {MIN_ALIVE} stones"
        )
    alive = [p for p in range(n) if counts[p] >= MIN_ALIVE]
    if termination is None:
        if counts[player] < MIN_ALIVE:
            raise bad(f"the player to move ({player}) has fewer than {MIN_ALIVE} stones")
        if len(alive) == 1:
            raise bad("only one player is alive but the game is not over")
    elif termination is Termination.ONE_LEFT and len(alive) != 1:
        raise bad(f"termination ONE_LEFT with {len(alive)} players alive")
    touched = 0
    for name in data["touched"]:
        touched |= 1 << parse_point(name)
    chain = -1
    if data["chain"] is not None:
        chain = parse_point(data["chain"])
        if board[chain] != player + 1:
            raise bad(f"the chaining stone on {data['chain']} is not the mover's")
        if not (touched >> chain) & 1:
            raise bad("the chaining stone's point must be touched")
        for p in range(NUM_POINTS):
            if (touched >> p) & 1 and p != chain and board[p]:
                raise bad(f"touched point {point_name(p)} holds a stone")
        if termination is not None:
            raise bad("a finished game has no chain in progress")
    elif touched:
        raise bad("touched points without a chain in progress")
    seen = {}
    for item in data["seen"]:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not isinstance(item[0], str)
            or not isinstance(item[1], int)
            or item[1] < 1
        ):
            raise bad(f"seen entries must be [hex key, count >= 1], got {item!r}")
        seen[int(item[0], 16)] = item[1]
    state.board = board
    state.counts = counts
    state.player = player
    state.chain = chain
    state.touched = touched
    state.turns = number("turns")
    state.quiet = number("quiet_turns")
    state.eliminated = tuple(eliminated)
    state.last_steps = _last_steps(data, len(counts), bad)
    state.seen = seen
    state.zhash = board_hash(board)
    state.termination = termination
    state._history = check_history(data, game)
    return state


def _last_steps(data: dict, players: int, bad) -> tuple[int, ...]:
    """Each player's last step from state JSON (absent in states written before it was kept:
    none known)."""
    items = data.get("last_steps")
    if items is None:
        return (-1,) * players
    if not isinstance(items, list) or len(items) != players:
        raise bad(f"last_steps must list one step or null per player, got {items!r}")
    steps = []
    for item in items:
        if item is None:
            steps.append(-1)
        elif isinstance(item, list) and len(item) == 2 and all(isinstance(p, str) for p in item):
            steps.append(parse_point(item[0]) << 8 | parse_point(item[1]))
        else:
            raise bad(f"a last step must be [from point, to point] or null, got {item!r}")
    return tuple(steps)
