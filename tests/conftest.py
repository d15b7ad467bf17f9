"""The whole suite's switches: tests marked ``slow`` (statistical checks, long runs) run only
with ``CATHEDRAL_SLOW=1``; the benchmarks run them, the README's test command does not."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    if os.environ.get("CATHEDRAL_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set CATHEDRAL_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
