"""The declared observation and action layouts: they cover each game's tensor and action
space, their bounds hold over random games of every game, and ``cathedral rules GAME`` and
docs/research.md show the tables generated from them."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cathedral
from cathedral.envs import adapter, layouts

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = [
    ("classic", {}),
    ("allmer", {"players": 2}),
    ("allmer", {"players": 4}),
    ("red", {"players": 2}),
    ("red", {"players": 3}),
    ("red", {"players": 4}),
]
SETTING_IDS = ["classic", "allmer2", "allmer4", "red2", "red3", "red4"]


@pytest.mark.parametrize(("name", "params"), SETTINGS, ids=SETTING_IDS)
def test_the_layouts_cover_the_tensor_and_the_action_space(name, params):
    game = cathedral.load(name, **params)
    parts = layouts.observation_parts(game)
    assert parts[0]["offset"] == 0
    assert sum(p["size"] for p in parts) == int(np.prod(game.observation_shape()))
    assert len({p["name"] for p in parts}) == len(parts)
    blocks = layouts.action_blocks(game)
    assert blocks[0][1] == 0 and blocks[-1][2] == game.num_distinct_actions() - 1
    low, high = layouts.observation_bounds(game)
    assert low.shape == high.shape == game.observation_shape()
    assert np.isfinite(low).all() and np.isfinite(high).all() and (low < high).all()


@pytest.mark.parametrize(("name", "params"), SETTINGS, ids=SETTING_IDS)
def test_every_observation_of_random_games_lies_in_the_box(name, params):
    game = cathedral.load(name, **params)
    space = adapter.observation_space(game)["observation"]
    rng = random.Random(7)
    games = 3 if name == "red" else 8
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            adapter.resolve_chance(state, rng)
            for player in range(game.num_players):
                obs = state.observation_tensor(player)
                assert space.contains(obs), (
                    name, np.flatnonzero((obs < space.low) | (obs > space.high))[:5])
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_layout_names_the_parts_of_the_tensor():
    """Spot checks of the declared offsets against what the engines write there."""
    state = cathedral.load("classic").new_initial_state()
    part = {p["name"]: p for p in layouts.observation_parts(state.game)}
    obs = state.observation_tensor(0)
    assert obs[part["cathedral_to_place"]["offset"]] == 1.0
    assert obs[part["own_hand"]["offset"]] == 1.0  # two Taverns, halved
    red = cathedral.load("red", players=3).new_initial_state()
    part = {p["name"]: p for p in layouts.observation_parts(red.game)}
    obs = red.observation_tensor(1)
    rubles = part["players"]["offset"]  # the observer's row first, rubles / 10 first
    assert obs[rubles] == red.rubles[1] / 10


def test_cathedral_rules_prints_the_observation_and_action_sections():
    result = subprocess.run([sys.executable, "-m", "cathedral", "rules", "red"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0
    out = result.stdout
    assert "## Observation" in out and "## Action" in out
    assert out.index("## Observation") < out.index("## Action")
    game = cathedral.load("red")
    assert layouts.observation_table(game) in out
    assert layouts.action_table(game) in out


@pytest.mark.parametrize(("name", "params"), SETTINGS[:4], ids=SETTING_IDS[:4])
def test_research_md_shows_the_generated_tables(name, params):
    """docs/research.md holds the tables as generated, so they cannot drift from the code."""
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    game = cathedral.load(name, **params)
    assert layouts.observation_table(game) in text
    assert layouts.action_table(game) in text
