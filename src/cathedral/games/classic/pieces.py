"""Squares, buildings and the table of every placement, built once at import (the leaf of
the classic package: it imports nothing of it).

The board is 10 × 10; a square is an int, file-major within each rank::

    rank 10 | 90 91 92 93 94 95 96 97 98 99
    ...     | ...
    rank 2  | 10 11 12 13 14 15 16 17 18 19
    rank 1  |  0  1  2  3  4  5  6  7  8  9
              a  b  c  d  e  f  g  h  i  j

A set of squares is a 100-bit Python int (bit ``s`` is square ``s``): union, intersection and
the flood fills of the territory rule are a few integer operations each.

The action space is every distinct placement, in blocks: the eleven building shapes (Light's
and Dark's Abbey and Academy are separate blocks, since they are mirror images and pieces are
never reflected), then the Cathedral. Within a block, placements are sorted by their squares.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

Square = int
SIZE = 10
FILES = "abcdefghij"
FULL = (1 << 100) - 1
LIGHT, DARK = 0, 1
COLOUR_NAMES = ("Light", "Dark")


def parse_square(name: str) -> Square:
    """Returns the square named like ``"c3"`` or ``"j10"``; raises ValueError otherwise."""
    text = name.strip().lower()
    if len(text) < 2 or text[0] not in FILES or not text[1:].isdigit():
        raise ValueError(f"bad square {name!r} (expected a file a-j and a rank 1-10, like c3)")
    rank = int(text[1:])
    if not 1 <= rank <= SIZE:
        raise ValueError(f"bad square {name!r} (ranks run 1-10)")
    return (rank - 1) * SIZE + FILES.index(text[0])


def square_name(square: Square) -> str:
    """Returns the name of a square index (``99`` -> ``"j10"``)."""
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


def squares_of(mask: int) -> list[Square]:
    """Returns the squares set in a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(squares) -> int:
    mask = 0
    for s in squares:
        mask |= 1 << s
    return mask


class Building(IntEnum):
    """The kinds of building; ``CATHEDRAL`` is the neutral piece."""

    TAVERN = 0
    STABLE = 1
    INN = 2
    BRIDGE = 3
    SQUARE = 4
    MANOR = 5
    ABBEY = 6
    ACADEMY = 7
    INFIRMARY = 8
    CASTLE = 9
    TOWER = 10
    CATHEDRAL = 11

    @property
    def title(self) -> str:
        return self.name.capitalize()


PLAYER_BUILDINGS = tuple(b for b in Building if b is not Building.CATHEDRAL)
COPIES = {b: 2 if b in (Building.TAVERN, Building.STABLE, Building.INN) else 1
          for b in PLAYER_BUILDINGS}

# The Cathedral: in Light's hand, on the board, or gone for good (captured).
IN_HAND, ON_BOARD, GONE = 0, 1, 2

# Top row first (rules.md, The pieces); Light's Abbey and Academy mirror Dark's.
_SHAPES = {
    Building.TAVERN: ("#",),
    Building.STABLE: ("##",),
    Building.INN: ("#.", "##"),
    Building.BRIDGE: ("###",),
    Building.SQUARE: ("##", "##"),
    Building.MANOR: ("###", ".#."),
    Building.INFIRMARY: (".#.", "###", ".#."),
    Building.CASTLE: ("###", "#.#"),
    Building.TOWER: ("##.", ".##", "..#"),
    Building.CATHEDRAL: (".#.", "###", ".#.", ".#."),
}
_CHIRAL = {
    (Building.ABBEY, LIGHT): (".##", "##."),
    (Building.ABBEY, DARK): ("##.", ".##"),
    (Building.ACADEMY, LIGHT): ("##.", ".##", ".#."),
    (Building.ACADEMY, DARK): (".##", "##.", ".#."),
}


def shape(building: Building, colour: int) -> tuple[str, ...]:
    """Returns the drawing of a building for a colour (top row first)."""
    return _CHIRAL.get((building, colour)) or _SHAPES[building]


def _cells(rows: tuple[str, ...]) -> frozenset[tuple[int, int]]:
    """Returns the (file, rank) offsets of a drawing; the top row has the highest rank."""
    height = len(rows)
    return frozenset(
        (x, height - 1 - y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"
    )


def _normalise(cells) -> frozenset[tuple[int, int]]:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return frozenset((x - mx, y - my) for x, y in cells)


def rotations(rows: tuple[str, ...]) -> list[frozenset[tuple[int, int]]]:
    """Returns the distinct quarter-turn rotations of a drawing (never reflections)."""
    seen: list[frozenset[tuple[int, int]]] = []
    cells = _normalise(_cells(rows))
    for _ in range(4):
        if cells not in seen:
            seen.append(cells)
        cells = _normalise({(y, -x) for x, y in cells})
    return seen


def _placements(rows: tuple[str, ...]) -> list[int]:
    masks = set()
    for cells in rotations(rows):
        width = max(x for x, _ in cells) + 1
        height = max(y for _, y in cells) + 1
        for oy in range(SIZE - height + 1):
            for ox in range(SIZE - width + 1):
                masks.add(mask_of((y + oy) * SIZE + x + ox for x, y in cells))
    return sorted(masks, key=squares_of)


# The blocks of the action space, in order: (building, colour or None when shared).
BLOCK_KEYS: tuple[tuple[Building, int | None], ...] = (
    (Building.TAVERN, None),
    (Building.STABLE, None),
    (Building.INN, None),
    (Building.BRIDGE, None),
    (Building.SQUARE, None),
    (Building.MANOR, None),
    (Building.ABBEY, LIGHT),
    (Building.ABBEY, DARK),
    (Building.ACADEMY, LIGHT),
    (Building.ACADEMY, DARK),
    (Building.INFIRMARY, None),
    (Building.CASTLE, None),
    (Building.TOWER, None),
    (Building.CATHEDRAL, None),
)

PLACEMENTS: list[int] = []
"""The squares (a mask) of every action, by action number."""
ACTION_BUILDING: list[Building] = []
"""The building of every action."""
BLOCKS: dict[tuple[Building, int | None], range] = {}
"""The action numbers of each block."""

for _key in BLOCK_KEYS:
    _start = len(PLACEMENTS)
    _masks = _placements(shape(_key[0], LIGHT if _key[1] is None else _key[1]))
    PLACEMENTS.extend(_masks)
    ACTION_BUILDING.extend([_key[0]] * len(_masks))
    BLOCKS[_key] = range(_start, len(PLACEMENTS))

NUM_ACTIONS = len(PLACEMENTS)
ACTION_SQUARES: list[tuple[Square, ...]] = [tuple(squares_of(m)) for m in PLACEMENTS]
ACTION_SIZE: list[int] = [len(sq) for sq in ACTION_SQUARES]
SQUARES_OF_BUILDING = {b: len(_cells(shape(b, LIGHT))) for b in Building}

# Two uint64 halves: every placement tested against a mask in four numpy operations.
_LOW = (1 << 64) - 1
PLACEMENT_LOW = np.array([m & _LOW for m in PLACEMENTS], dtype=np.uint64)
PLACEMENT_HIGH = np.array([m >> 64 for m in PLACEMENTS], dtype=np.uint64)


def block_of(building: Building, colour: int) -> range:
    """Returns the action numbers of a building for a colour."""
    return BLOCKS.get((building, colour)) or BLOCKS[(building, None)]


# For each colour, the mask -> action lookup of every building it owns (for the notation).
ACTION_OF: tuple[dict[tuple[Building, int], int], ...] = tuple(
    {
        (b, PLACEMENTS[a]): a
        for b in Building
        for a in block_of(b, colour)
    }
    for colour in (LIGHT, DARK)
)

# Masks of the board used by the 8-neighbour flood fill.
NOT_FILE_A = mask_of(s for s in range(100) if s % SIZE != 0)
NOT_FILE_J = mask_of(s for s in range(100) if s % SIZE != SIZE - 1)


def dilate(mask: int) -> int:
    """Returns ``mask`` grown by one square in all 8 directions, clipped to the board."""
    row = mask | ((mask << 1) & NOT_FILE_A) | ((mask >> 1) & NOT_FILE_J)
    return (row | (row << SIZE) | (row >> SIZE)) & FULL


def flood(seed: int, space: int) -> int:
    """Returns the 8-connected region of ``space`` containing the squares of ``seed``."""
    region = seed
    while True:
        grown = dilate(region) & space
        if grown == region:
            return region
        region = grown
