"""Golden playthroughs: seeded random games written out in full and kept in the repository.

A change to rules, notation or text boards shows up as a diff here. After an intended change,
regenerate with ``CATHEDRAL_REGENERATE=1 python -m pytest tests/playthroughs`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import cathedral
from cathedral.testing import playthrough

HERE = Path(__file__).parent
CASES = {
    "classic": ("classic", {}, 1),
    "classic_lehmann": ("classic", {"opening": "lehmann"}, 2),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_matches_the_golden_file(name):
    game_name, params, seed = CASES[name]
    text = playthrough(cathedral.load(game_name, **params), seed=seed)
    path = HERE / f"{name}.txt"
    if os.environ.get("CATHEDRAL_REGENERATE"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with CATHEDRAL_REGENERATE=1"
    assert text == path.read_text(encoding="utf-8")
