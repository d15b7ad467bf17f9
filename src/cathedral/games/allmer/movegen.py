"""The step rules of Allmer's Cathedral on a bare board: the action numbering, reach, step
generation and conversion runs. The hot paths of the engine live here.

The board is a ``bytearray`` of the 125 points (see ``geometry``): 0 is empty and colour
``player + 1`` is a stone of that player. Copying it is one memcpy, which keeps clones cheap.

Action space (fixed size ``NUM_ACTIONS`` = 28,009 for every setting)::

    step     ((from * 8 + direction) * 14 + (distance - 1)) * 2 + kind    0 .. 27,999
    passage  PASSAGE_BASE + i, i the index of the starting mouth in MOUTHS 28,000 .. 28,007
    STOP     28,008, ends a chain

``direction`` is an index into ``geometry.DIRECTIONS`` (N, NE, E, SE, S, SW, W, NW),
``distance`` 1..14 points, and ``kind`` is 0 for the step the landing gives by itself (a walk,
or an approach when an enemy stands just beyond the landing, since such a landing always
converts) and 1 for a withdrawal. Actions are numbered so that generating them stone by stone
in point order, direction by direction and distance by distance yields a sorted list.
"""

from __future__ import annotations

from cathedral.games.allmer.geometry import GEOMETRIES, MOUTHS, NUM_POINTS, PARTNER, Geometry

MAX_DISTANCE = 14
"""The longest slide: a row or column through the crossing has 15 points."""
NUM_STEP_ACTIONS = NUM_POINTS * 8 * MAX_DISTANCE * 2
PASSAGE_BASE = NUM_STEP_ACTIONS
STOP = PASSAGE_BASE + len(MOUTHS)
"""The action that ends a chain (legal only while a chain is in progress)."""
NUM_ACTIONS = STOP + 1

WALK, APPROACH, WITHDRAW, PASSAGE = "walk", "approach", "withdraw", "passage"
"""The kinds of step, as ``describe_step`` reports them."""

MIN_ALIVE = 4
"""A colour with fewer stones than this is out."""

MOUTH_MOVES: tuple[tuple[int, int, int], ...] = tuple(
    (PASSAGE_BASE + i, m, PARTNER[m]) for i, m in enumerate(MOUTHS)
)
"""(action, mouth, other mouth) for each passage action."""


def step_action(origin: int, direction: int, distance: int, withdraw: bool = False) -> int:
    """Returns the action number of a step (see the module docstring)."""
    return ((origin * 8 + direction) * MAX_DISTANCE + distance - 1) * 2 + int(withdraw)


def decode_step(action: int) -> tuple[int, int, int, int]:
    """Returns ``(origin, direction, distance, kind)`` of a step action (< PASSAGE_BASE)."""
    rest, kind = divmod(action, 2)
    rest, dist = divmod(rest, MAX_DISTANCE)
    origin, direction = divmod(rest, 8)
    return origin, direction, dist + 1, kind


def line_table(geo: Geometry) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """Returns, per point, ``(ray, base action)`` for each direction with a line.

    The base is the action of a one-point slide with kind 0; a slide of ``k`` points adds
    ``2 * (k - 1)``.
    """
    return tuple(
        tuple((ray, (p * 8 + d) * MAX_DISTANCE * 2) for d, ray in geo.lines[p])
        for p in range(NUM_POINTS)
    )


LINE_TABLES = {field: line_table(geo) for field, geo in GEOMETRIES.items()}
"""Field name -> ``line_table`` of its geometry, built once at import."""


def lines_for(geo: Geometry):
    """Returns the ``line_table`` of a geometry."""
    return LINE_TABLES[geo.field]


def reach(board: bytearray, colour: int, lines) -> int:
    """Returns how far a stone of ``colour`` can slide: the longest run of its colour
    starting next to it along one line (the halves of a line are not added), at least 1.

    Args:
        board: the board.
        colour: the moving stone's colour.
        lines: ``line_table(geo)[point]`` of the moving stone's point.
    """
    best = 1
    for ray, _ in lines:
        if board[ray[0]] == colour:
            n = 1
            length = len(ray)
            while n < length and board[ray[n]] == colour:
                n += 1
            if n > best:
                best = n
    return best


def free_steps(board: bytearray, colour: int, table) -> list[int]:
    """Returns the sorted legal actions at the start of a turn with withdrawal off.

    This is the engine's hottest function. With withdrawal off the landing alone decides
    whether a step walks or approaches, and both are kind 0, so no enemy needs to be looked
    at: the legal steps are the empty stretches of each line up to the stone's reach.
    """
    out: list[int] = []
    append = out.append
    find = board.find
    s = find(colour)
    while s >= 0:
        lines = table[s]
        best = 1
        for ray, _ in lines:
            if board[ray[0]] == colour:
                n = 1
                length = len(ray)
                while n < length and board[ray[n]] == colour:
                    n += 1
                if n > best:
                    best = n
        if best == 1:
            for ray, base in lines:
                if not board[ray[0]]:
                    append(base)
        else:
            for ray, base in lines:
                if board[ray[0]]:
                    continue
                append(base)
                limit = len(ray) if len(ray) < best else best
                k = 1
                while k < limit and not board[ray[k]]:
                    append(base + 2 * k)
                    k += 1
        s = find(colour, s + 1)
    for action, mouth, other in MOUTH_MOVES:
        if board[mouth] == colour and not board[other]:
            append(action)
    return out


def withdraw_table(geo: Geometry):
    """Returns, per point, ``(ray, base action, point behind)`` for each direction with a
    line; the point behind is the first one of the opposite ray, or -1 at the edge."""
    table = line_table(geo)
    return tuple(
        tuple(
            (ray, base, geo.rays[p][d][0] if geo.rays[p][d] else -1)
            for (ray, base), d in zip(table[p], (d ^ 4 for d, _ in geo.lines[p]), strict=True)
        )
        for p in range(NUM_POINTS)
    )


def free_steps_withdraw(board: bytearray, colour: int, table, wtable) -> list[int]:
    """Returns the sorted legal actions at the start of a turn with withdrawal on.

    Args:
        board: the board.
        colour: the mover's colour.
        table: ``line_table`` of the field (for reach).
        wtable: ``withdraw_table`` of the field.
    """
    out: list[int] = []
    append = out.append
    find = board.find
    s = find(colour)
    while s >= 0:
        best = reach(board, colour, table[s])
        for ray, base, back in wtable[s]:
            if board[ray[0]]:
                continue
            length = len(ray)
            limit = length if length < best else best
            k = 1
            while k < limit and not board[ray[k]]:
                k += 1
            e = board[back] if back >= 0 else 0
            if e and e != colour:
                # every landing withdraws; only the last one can also approach
                last = base + 2 * (k - 1)
                out.extend(range(base + 1, last, 2))
                if k < length and board[ray[k]] not in (0, colour):
                    append(last)
                append(last + 1)
            else:
                out.extend(range(base, base + 2 * k, 2))
        s = find(colour, s + 1)
    for action, mouth, other in MOUTH_MOVES:
        if board[mouth] == colour and not board[other]:
            append(action)
    return out


def stone_steps(
    board: bytearray,
    colour: int,
    s: int,
    geo: Geometry,
    *,
    withdraw: bool,
    chain: bool,
    touched: int = 0,
) -> list[int]:
    """Returns the sorted step actions (no passage, no STOP) of the stone on ``s``.

    Args:
        board: the board.
        colour: the stone's colour.
        s: its point.
        geo: the field's geometry.
        withdraw: whether withdrawal is played.
        chain: whether this is a chain step: only converting steps count, and the
            ``touched`` points may be neither landed on nor passed through.
        touched: the touched points of the chain, one bit per point.
    """
    out: list[int] = []
    best = reach(board, colour, lines_for(geo)[s])
    rays = geo.rays[s]
    for d, ray in geo.lines[s]:
        base = (s * 8 + d) * MAX_DISTANCE * 2
        length = len(ray)
        behind = False
        if withdraw:
            back = rays[d ^ 4]
            if back:
                e = board[back[0]]
                behind = e != 0 and e != colour
        limit = length if length < best else best
        for k in range(limit):
            q = ray[k]
            if board[q] or (touched >> q) & 1:
                break
            e = board[ray[k + 1]] if k + 1 < length else 0
            # A landing before an enemy approaches; a plain walk only outside chains.
            if (e != 0 and e != colour) or not (chain or behind):
                out.append(base + 2 * k)
            if behind:
                out.append(base + 2 * k + 1)
    return out


def run_points(board: bytearray, colour: int, ray) -> list[int]:
    """Returns the points that convert to ``colour`` along ``ray``: the unbroken run of the
    one enemy colour standing on its first point (empty when that point is empty or own)."""
    if not ray:
        return []
    e = board[ray[0]]
    if e == 0 or e == colour:
        return []
    run = []
    for q in ray:
        if board[q] != e:
            break
        run.append(q)
    return run


def can_move(board: bytearray, colour: int, geo: Geometry) -> bool:
    """Returns whether any stone of ``colour`` has a step at the start of a turn (every stone
    reaches at least one point, so an empty neighbour or an empty far mouth is enough)."""
    neighbours = geo.neighbours
    find = board.find
    s = find(colour)
    while s >= 0:
        for t in neighbours[s]:
            if not board[t]:
                return True
        other = PARTNER.get(s)
        if other is not None and not board[other]:
            return True
        s = find(colour, s + 1)
    return False


def conversions_by_victim(board: bytearray, colour: int, table, geo: Geometry, withdraw: bool):
    """Returns, per colour, the longest run of it that one step of ``colour`` could convert
    now (any stone, as at the start of a turn); index 0 and ``colour`` stay 0.

    The heuristic players call it twice per candidate step (what the step sets up, what it
    leaves exposed), so reach is inlined and blocked lines are skipped first.
    """
    best = [0, 0, 0, 0, 0]
    find = board.find
    rays = geo.rays
    s = find(colour)
    while s >= 0:
        lines = table[s]
        limit_all = 1
        for ray, _ in lines:
            if board[ray[0]] == colour:
                n = 1
                length = len(ray)
                while n < length and board[ray[n]] == colour:
                    n += 1
                if n > limit_all:
                    limit_all = n
        for ray, base in lines:
            if board[ray[0]]:
                continue
            length = len(ray)
            limit = length if length < limit_all else limit_all
            k = 1
            while k < limit and not board[ray[k]]:
                k += 1
            if k < length:
                e = board[ray[k]]
                if e and e != colour:
                    i = k + 1
                    while i < length and board[ray[i]] == e:
                        i += 1
                    if i - k > best[e]:
                        best[e] = i - k
            if withdraw:
                back = rays[s][((base >> 1) // MAX_DISTANCE) % 8 ^ 4]
                if back:
                    e = board[back[0]]
                    if e and e != colour:
                        i = 1
                        while i < len(back) and board[back[i]] == e:
                            i += 1
                        if i > best[e]:
                            best[e] = i
        s = find(colour, s + 1)
    return best
