"""The cross-shaped board of Allmer's Cathedral: its 125 points, lines, rays and passages.

Points are numbered row by row (north to south, west to east) over the on-board part of
the 15 x 15 box; x grows east, y grows south, and notation ranks count from the south::

    y\\x   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14     rank
     0                         0   1   2   3   4                         15
     1                         5   6   7   8   9                         14
     2                        10  11  12  13  14                         13
     3                        15  16  17  18  19                         12
     4                        20  21  22  23  24                         11
     5    25  26  27  28  29  30  31  32  33  34  35  36  37  38  39     10
     6    40  41  42  43  44  45  46  47  48  49  50  51  52  53  54     9
     7    55  56  57  58  59  60  61  62  63  64  65  66  67  68  69     8
     8    70  71  72  73  74  75  76  77  78  79  80  81  82  83  84     7
     9    85  86  87  88  89  90  91  92  93  94  95  96  97  98  99     6
    10                       100 101 102 103 104                         5
    11                       105 106 107 108 109                         4
    12                       110 111 112 113 114                         3
    13                       115 116 117 118 119                         2
    14                       120 121 122 123 124                         1
           a   b   c   d   e   f   g   h   i   j   k   l   m   n   o

A ray is the tuple of points met walking from a point in one direction along a line,
nearest first, up to the edge. Everything movement needs is a lookup in these tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

Point = int
"""A point number, 0..124 (see the module diagram)."""

SIZE = 15
NUM_POINTS = 125
FILES = "abcdefghijklmno"

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),  # 0 N
    (1, -1),  # 1 NE
    (1, 0),  # 2 E
    (1, 1),  # 3 SE
    (0, 1),  # 4 S
    (-1, 1),  # 5 SW
    (-1, 0),  # 6 W
    (-1, -1),  # 7 NW
)
"""The eight line directions; odd indices are diagonals and ``d ^ 4`` is the opposite."""
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

FIELDS = {"middle4": 1, "middle8": 0}
"""Field name -> the parity of ``x + y`` that makes a point strong."""

PASSAGE_PAIRS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((5, 2), (2, 5)),
    ((9, 2), (12, 5)),
    ((12, 9), (9, 12)),
    ((2, 9), (5, 12)),
)


def on_board(x: int, y: int) -> bool:
    """Returns whether box coordinates (x, y) are a point of the cross."""
    return 0 <= x < SIZE and 0 <= y < SIZE and (5 <= x <= 9 or 5 <= y <= 9)


COORDS: tuple[tuple[int, int], ...] = tuple(
    (x, y) for y in range(SIZE) for x in range(SIZE) if on_board(x, y)
)
"""Point number -> (x, y)."""
BOX_TO_POINT: dict[tuple[int, int], Point] = {xy: p for p, xy in enumerate(COORDS)}
"""(x, y) -> point number, for on-board coordinates only."""

MOUTHS: tuple[Point, ...] = tuple(sorted(BOX_TO_POINT[xy] for pair in PASSAGE_PAIRS for xy in pair))
"""The eight passage mouths in point order; a passage action is numbered by its mouth."""
PARTNER: dict[Point, Point] = {}
for _a, _b in PASSAGE_PAIRS:
    PARTNER[BOX_TO_POINT[_a]] = BOX_TO_POINT[_b]
    PARTNER[BOX_TO_POINT[_b]] = BOX_TO_POINT[_a]


def point_name(p: Point) -> str:
    """Returns the notation of a point, e.g. ``point_name(122) == "h1"``."""
    x, y = COORDS[p]
    return f"{FILES[x]}{SIZE - y}"


def parse_point(text: str) -> Point:
    """Returns the point named ``text`` (``"h1"``, any case).

    Raises:
        ValueError: the text is not a file a-o and rank 1-15, or names a point off the cross;
            the message says which.
    """
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in FILES or not t[1:].isdigit():
        raise ValueError(f"unknown point {text!r} (expected a file a-o and a rank 1-15)")
    rank = int(t[1:])
    if not 1 <= rank <= SIZE:
        raise ValueError(f"unknown point {text!r} (ranks run from 1 to 15)")
    xy = (FILES.index(t[0]), SIZE - rank)
    if xy not in BOX_TO_POINT:
        raise ValueError(f"point {text!r} is off the board (not on the cross)")
    return BOX_TO_POINT[xy]


def chebyshev(p: Point, q: Point) -> int:
    """Returns the king-move distance between two points in the box."""
    (px, py), (qx, qy) = COORDS[p], COORDS[q]
    return max(abs(px - qx), abs(py - qy))


@dataclass(frozen=True)
class Geometry:
    """The line structure of one field (``middle4`` or ``middle8``).

    Attributes:
        field: the field name.
        strong: per point, whether diagonal lines pass through it.
        rays: ``rays[p][d]`` is the tuple of points from ``p`` in direction ``d`` (empty when
            no line leaves ``p`` that way).
        lines: per point, the directions with a line, as ``(d, ray)`` pairs in ``d`` order.
        neighbours: per point, the adjacent points joined to it by a line.
    """

    field: str
    strong: tuple[bool, ...]
    rays: tuple[tuple[tuple[Point, ...], ...], ...]
    lines: tuple[tuple[tuple[int, tuple[Point, ...]], ...], ...]
    neighbours: tuple[tuple[Point, ...], ...]

    @classmethod
    def build(cls, field: str) -> Geometry:
        parity = FIELDS[field]
        strong = tuple((x + y) % 2 == parity for x, y in COORDS)
        rays = []
        for p, (x, y) in enumerate(COORDS):
            per_dir = []
            for d, (dx, dy) in enumerate(DIRECTIONS):
                ray: list[Point] = []
                # Diagonals keep the parity of x + y: from a strong point, the ray stays strong.
                if d % 2 == 0 or strong[p]:
                    cx, cy = x + dx, y + dy
                    while on_board(cx, cy):
                        ray.append(BOX_TO_POINT[(cx, cy)])
                        cx, cy = cx + dx, cy + dy
                per_dir.append(tuple(ray))
            rays.append(tuple(per_dir))
        lines = tuple(tuple((d, r) for d, r in enumerate(per_dir) if r) for per_dir in rays)
        neighbours = tuple(tuple(r[0] for _, r in ls) for ls in lines)
        return cls(field, strong, tuple(rays), lines, neighbours)

    def direction_between(self, p: Point, q: Point) -> tuple[int, int] | None:
        """Returns ``(d, k)`` when ``q`` is ``k`` points from ``p`` along a line, else None."""
        for d, ray in self.lines[p]:
            if q in ray:
                return d, ray.index(q) + 1
        return None


GEOMETRIES: dict[str, Geometry] = {name: Geometry.build(name) for name in FIELDS}
"""Both fields, built once at import."""


SYMMETRIES: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((1, 0), (0, 1)),
    ((0, -1), (1, 0)),
    ((-1, 0), (0, -1)),
    ((0, 1), (-1, 0)),
    ((-1, 0), (0, 1)),
    ((1, 0), (0, -1)),
    ((0, 1), (1, 0)),
    ((0, -1), (-1, 0)),
)
"""The 8 symmetries of the square about (7, 7), as 2x2 matrices acting on (x-7, y-7)."""


def transform_point(sym: int, p: Point) -> Point:
    """Returns the image of point ``p`` under symmetry ``sym`` (an index into SYMMETRIES)."""
    (a, b), (c, d) = SYMMETRIES[sym]
    x, y = COORDS[p]
    u, v = x - 7, y - 7
    return BOX_TO_POINT[(a * u + b * v + 7, c * u + d * v + 7)]
