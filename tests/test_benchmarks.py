"""``benchmarks/run.py``: one entry per product benchmark, each of which answers ``--help``, and
``benchmarks/reports`` holds summaries only."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
RUN = BENCHMARKS / "run.py"
ENTRIES = ["engine", "ai", "parallel", "endgame", "envs", "jax", "server", "strength", "ladder",
           "versus", "balance"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RUN), *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_list_names_every_entry_and_its_command():
    done = run("--list")
    assert done.returncode == 0, done.stderr
    assert re.findall(r"^\| `(\w+)` \|", done.stdout, flags=re.M) == ENTRIES
    for name in ENTRIES:
        assert f"`python benchmarks/run.py {name}`" in done.stdout


@pytest.mark.parametrize("name", ENTRIES)
def test_every_entry_answers_help(name):
    done = run(name, "--help")
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_an_unknown_entry_is_named_with_the_known_ones():
    done = run("nope")
    assert done.returncode == 2
    assert "unknown entry 'nope'" in done.stderr and "ladder" in done.stderr


def test_the_reports_are_summaries_under_a_megabyte():
    paths = list((BENCHMARKS / "reports").iterdir())
    assert paths and all(p.suffix == ".json" for p in paths)
    assert sum(p.stat().st_size for p in paths) < 1_000_000
    for path in paths:
        games = json.loads(path.read_text(encoding="utf-8"))["games"]
        assert games and not any("record" in g for g in games), path.name
