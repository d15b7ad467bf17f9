"""The ``config`` fixture: every research-interface test runs on each game setting."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests run with --import-mode=importlib

from envs_testlib import CONFIGS, IDS


@pytest.fixture(params=CONFIGS, ids=IDS)
def config(request) -> tuple[str, dict]:
    return request.param
