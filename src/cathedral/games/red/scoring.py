"""The score track (recognition moves the marker, prestige is counted on prestige spaces) and
the final scoring (leftovers, tower majorities, tie-breaks).

The marker position is an unbounded recognition count; the track's prestige spaces repeat on
every lap, each lap worth ``len(prestige_spaces)`` prestige (the "+40" side of the marker).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence


class Track:
    """Prestige arithmetic on one component set's score track."""

    def __init__(self, length: int, spaces: Sequence[int]) -> None:
        self.length = length
        self.spaces = tuple(spaces)
        self.per_lap = len(self.spaces)
        gaps = [b - a for a, b in zip(self.spaces, self.spaces[1:], strict=False)]
        gaps.append(self.spaces[0] + length - self.spaces[-1])
        self.max_gap = max([*gaps, self.spaces[0]])
        # Tables for the laps games reach; the lap arithmetic below covers the rest.
        self._limit = 4 * length
        self._count = [self._count_slow(x) for x in range(self._limit)]
        self._next = [self._next_slow(x) for x in range(self._limit)]
        self._prev = [self._prev_slow(x) for x in range(self._limit)]

    def _count_slow(self, pos: int) -> int:
        lap, rest = divmod(pos, self.length)
        return lap * self.per_lap + bisect_right(self.spaces, rest)

    def _next_slow(self, pos: int) -> int:
        lap, rest = divmod(pos, self.length)
        i = bisect_right(self.spaces, rest)
        if i < self.per_lap:
            return lap * self.length + self.spaces[i]
        return (lap + 1) * self.length + self.spaces[0]

    def _prev_slow(self, pos: int) -> int:
        lap, rest = divmod(pos, self.length)
        i = bisect_left(self.spaces, rest) - 1
        if i >= 0:
            return lap * self.length + self.spaces[i]
        if lap > 0:
            return (lap - 1) * self.length + self.spaces[-1]
        return -1

    def prestige(self, pos: int) -> int:
        """Returns the prestige of a marker at ``pos``: prestige spaces at or below it."""
        return self._count[pos] if pos < self._limit else self._count_slow(pos)

    def next_space(self, pos: int) -> int:
        """Returns the first prestige space strictly above ``pos``."""
        return self._next[pos] if pos < self._limit else self._next_slow(pos)

    def prev_space(self, pos: int) -> int:
        """Returns the last prestige space strictly below ``pos``, or -1 when there is none."""
        return self._prev[pos] if pos < self._limit else self._prev_slow(pos)

    def gain_prestige(self, pos: int, n: int) -> int:
        """Returns the position after gaining ``n`` prestige (a prestige space each)."""
        for _ in range(n):
            pos = self.next_space(pos)
        return pos


def tower_points(
    value: int, presence: Sequence[int], *, thirds: bool = False, halving: bool = False
) -> list[int]:
    """Returns each player's points from one tower worth ``value``.

    Seed rule: the highest presence takes ``value``, the second ``value // 2``, the third 1;
    tied players add up the points of the positions they fill and split them rounded down;
    no presence, no points. ``halving`` is the published ladder for the third place and below
    (each place half of the one before, rounded down: 11 -> 11, 5, 2, 1). ``thirds`` is the
    published two-player rule: the greater presence takes the whole value, the other a third
    of it (rounded down) if present, and a tie scores nothing for either.
    """
    n = len(presence)
    out = [0] * n
    if value <= 0:
        return out
    if thirds and n == 2:
        a, b = presence
        if a == b:
            return out
        hi, lo = (0, 1) if a > b else (1, 0)
        out[hi] = value
        if presence[lo] > 0:
            out[lo] = value // 3
        return out
    ladder = (
        [value // (1 << k) for k in range(n)] if halving else [value, value // 2, 1] + [0] * n
    )
    ranked = sorted((p for p in range(n) if presence[p] > 0), key=lambda p: -presence[p])
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and presence[ranked[j + 1]] == presence[ranked[i]]:
            j += 1
        share = sum(ladder[i : j + 1]) // (j - i + 1)
        for k in range(i, j + 1):
            out[ranked[k]] = share
        i = j + 1
    return out


def tie_break_key(prestige: int, completed: int, ornaments: int) -> float:
    """Returns one number ordering players by prestige, then completed sections, then
    ornaments placed (the seed's tie-breaks); equal keys share the victory."""
    return prestige * 10000 + completed * 100 + ornaments
