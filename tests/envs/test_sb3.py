"""MaskablePPO's wrapper (``cathedral.envs.sb3``) without stable-baselines3: Gymnasium's
checker passes, the bool masks are the engine's legal actions, random masked episodes end,
and a policy plays as an opponent through ``PolicyAgent``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from cathedral.envs.sb3 import MaskableEnv, PolicyAgent, make_maskable  # noqa: E402

WRAPPED = "most likely has a wrapper applied to it"
"""Gymnasium's checker notes that it checks a wrapper: that is the point here."""


def test_check_env(config):
    name, params = config
    env = make_maskable(name, **params)
    assert isinstance(env, MaskableEnv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert [str(w.message) for w in caught if WRAPPED not in str(w.message)] == []
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    assert env.observation_space.shape == (int(np.prod(env.unwrapped.game.observation_shape())),)


def random_masked_episode(env: MaskableEnv, seed: int, check_state: bool = True) -> int:
    """Plays one episode choosing uniformly among ``action_masks()``; checks each observation
    and mask against the engine; returns the steps taken."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
        assert env.observation_space.contains(obs)
        if check_state:
            state = env.unwrapped.game_state
            seat = env.unwrapped.seat
            assert np.flatnonzero(mask).tolist() == state.legal_actions()
            assert np.array_equal(obs, state.observation_tensor(seat).ravel())
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if terminated or truncated:
            assert not env.action_masks().any()
            assert env.observation_space.contains(obs)
            return steps


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("classic", {}),
        ("allmer", {"players": 2}),
        ("allmer", {"players": 4}),
        ("red", {"players": 2}),
        ("red", {"players": 3}),
    ],
    ids=["classic", "allmer2", "allmer4", "red2", "red3"],
)
def test_a_random_masked_episode_reaches_its_end(name, params):
    env = make_maskable(name, seat=1, opponent="random", **params)
    assert random_masked_episode(env, seed=3) > 0
    state = env.unwrapped.game_state
    assert state.is_terminal() or 1 in getattr(state, "eliminated", ())


def test_make_maskable_takes_a_loaded_game_and_the_envs_arguments():
    import cathedral

    env = make_maskable(cathedral.load("allmer", players=4), seat=2, opponent="easy")
    assert env.unwrapped.seat == 2 and env.unwrapped.game.num_players == 4
    random_masked_episode(env, seed=0)


class FirstLegal:
    """A stand-in for a Stable-Baselines3 policy: ``predict`` picks the first legal action."""

    def __init__(self) -> None:
        self.seen: list[tuple[np.ndarray, np.ndarray]] = []

    def predict(self, observation, action_masks=None, deterministic=False):
        self.seen.append((observation, action_masks))
        return np.int64(np.flatnonzero(action_masks)[0]), None


@pytest.mark.parametrize(("name", "params"), [("classic", {}), ("red", {"players": 3})])
def test_a_policy_plays_as_the_opponent(name, params):
    policy = FirstLegal()
    env = make_maskable(name, opponent=PolicyAgent(policy), **params)
    random_masked_episode(env, seed=5)
    assert policy.seen
    game = env.unwrapped.game
    for observation, mask in policy.seen:
        assert observation.shape == (int(np.prod(game.observation_shape())),)
        assert mask.dtype == np.bool_ and mask.any()


@pytest.mark.slow
@pytest.mark.parametrize("script", ["maskable_ppo.py", "self_play.py"])
def test_the_examples_train_and_print_their_table(script, monkeypatch, capsys):
    """Runs an example for a few seconds (needs sb3-contrib and torch: the ``sb3`` extra)."""
    pytest.importorskip("sb3_contrib")
    import importlib.util
    import sys
    from pathlib import Path

    examples = Path(__file__).resolve().parents[2] / "examples"
    monkeypatch.syspath_prepend(str(examples))  # self_play imports maskable_ppo
    spec = importlib.util.spec_from_file_location(script[:-3], examples / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    budget = ["--minutes", "0.05"] if script == "maskable_ppo.py" else [
        "--rounds", "1", "--steps", "256"]
    monkeypatch.setattr(sys, "argv", [script, *budget, "--eval-games", "2"])
    module.main()
    out = capsys.readouterr().out
    assert "| random | 2 |" in out and "| easy | 2 |" in out
