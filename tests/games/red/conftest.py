"""Fixtures of the Red Cathedral tests; the position builders live in red_positions.py."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests run with --import-mode=importlib

from red_positions import setup

import cathedral


@pytest.fixture
def red2():
    return setup(cathedral.load("red", players=2))


@pytest.fixture
def red4():
    return setup(cathedral.load("red", players=4))
