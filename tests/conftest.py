"""The whole suite's switches and shared positions: tests marked ``slow`` (statistical checks,
long runs) run only with ``CATHEDRAL_SLOW=1``; the benchmarks run them, the README's test
command does not."""

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


@pytest.fixture
def classic_endgame():
    """Three plies before the end of a greedy classic game (small enough to solve exactly)."""
    import cathedral
    from cathedral.ai import load_agent

    game = cathedral.load("classic")
    agent = load_agent("greedy", game, seed=2)
    state, line = game.new_initial_state(), []
    while not state.is_terminal():
        line.append(state.clone())
        state.apply_action(agent.choose(state))
    return line[-3]
