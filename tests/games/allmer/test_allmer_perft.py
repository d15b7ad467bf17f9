"""Perft: complete-turn counts from the initial position, read from tests/data/allmer.perft."""

from __future__ import annotations

from pathlib import Path

import pytest

import cathedral
from cathedral.games.allmer.perft import perft

PERFT_FILE = Path(__file__).parents[2] / "data" / "allmer.perft"


def perft_rows() -> list[tuple[dict, int, int]]:
    rows = []
    for line in PERFT_FILE.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        *settings, depth, count = line.split()
        params = dict(item.split("=", 1) for item in settings)
        rows.append((params, int(depth), int(count)))
    return rows


ROWS = perft_rows()


def test_perft_file_covers_the_spec_table():
    table = {(p["players"], p["field"], d): c for p, d, c in ROWS if "withdraw" not in p}
    assert table[("2", "middle4", 1)] == 30 and table[("2", "middle4", 2)] == 900
    assert table[("2", "middle8", 1)] == 26 and table[("2", "middle8", 2)] == 676
    assert table[("4", "middle4", 1)] == 28 and table[("4", "middle4", 2)] == 780


@pytest.mark.parametrize(
    ("params", "depth", "count"),
    ROWS,
    ids=[" ".join(f"{k}={v}" for k, v in r[0].items()) + f" d{r[1]}" for r in ROWS],
)
def test_perft(params, depth, count):
    state = cathedral.load("allmer", **params).new_initial_state()
    assert perft(state, depth) == count
