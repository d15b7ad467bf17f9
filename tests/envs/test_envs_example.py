"""The training example runs and learns: its agent beats the random player after training."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_classic_pg.py"


def load_example():
    spec = importlib.util.spec_from_file_location("train_classic_pg", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_policy_only_picks_legal_placements_and_learns_from_a_game():
    example = load_example()
    envs = [gymnasium.make("cathedral/Classic-v0", seat=seat) for seat in (0, 1)]
    features = example.placement_features(envs[0].unwrapped.game)
    assert features.shape == (2765, 12 + 100 + 1)
    policy = example.MaskedLinearPolicy(features, np.random.default_rng(0))
    reward, trajectory = example.play(envs[0], policy, seed=1)
    assert reward in (-1.0, 0.0, 1.0) and trajectory
    policy.update(trajectory, advantage=1.0, rate=0.1)
    assert policy.theta.any()


@pytest.mark.slow
def test_training_lifts_the_win_rate_against_random(monkeypatch, capsys):
    example = load_example()
    monkeypatch.setattr(sys, "argv", ["train", "--games", "100", "--eval-every", "100",
                                      "--eval-games", "60"])
    example.main()
    lines = capsys.readouterr().out.splitlines()
    before, after = (float(line.split("random")[1].split("%")[0]) for line in lines[:2])
    assert after >= 80.0 and after > before + 20.0
