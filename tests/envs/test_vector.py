"""The Gymnasium environments under ``gymnasium.make_vec``: which autoreset mode hands back a
live mask after every episode (SAME_STEP), and what the default (NEXT_STEP) does instead, as
docs/research.md says."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import cathedral.envs.gymnasium  # noqa: E402, F401 - registers the ids
from cathedral.envs.gymnasium import ENV_IDS  # noqa: E402

AutoresetMode = gymnasium.vector.AutoresetMode


def make_vec(name: str, mode: str, autoreset=None, num_envs: int = 2, **params):
    vector_kwargs = {} if autoreset is None else {"autoreset_mode": autoreset}
    return gymnasium.make_vec(ENV_IDS[name], num_envs=num_envs, vectorization_mode=mode,
                              vector_kwargs=vector_kwargs, **params)


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One legal action per environment (0 where a mask is empty)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(
    ("name", "params"), [("classic", {}), ("allmer", {"players": 4, "max_turns": 20})],
    ids=["classic", "allmer4"],
)
def test_same_step_autoreset_always_hands_back_a_live_mask(mode, name, params):
    envs = make_vec(name, mode, AutoresetMode.SAME_STEP, **params)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=1)
    episodes = 0
    while episodes < 6:
        masks = obs["action_mask"]
        assert masks.dtype == np.int8 and masks.any(axis=1).all()  # every mask a decision
        assert np.array_equal(info["action_mask"], masks)
        if mode == "sync":  # the mask is the engine's legal actions in the game now played
            for env, mask in zip(envs.envs, masks, strict=True):
                assert np.flatnonzero(mask).tolist() == env.unwrapped.game_state.legal_actions()
        obs, reward, terminated, truncated, info = envs.step(random_actions(rng, masks))
        ended = terminated | truncated
        for i in np.flatnonzero(ended):  # the episode's last observation is kept aside
            assert info["_final_obs"][i]
            assert not info["final_obs"][i]["action_mask"].any()
            assert reward[i] in (-1.0, -1 / 3, 0.0, 1 / 3, 1.0)
        episodes += int(ended.sum())
    envs.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_the_default_next_step_autoreset_shows_the_end_then_ignores_an_action(mode):
    envs = make_vec("classic", mode)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=1)
    ended = np.zeros(2, dtype=bool)
    endings = 0
    while endings < 4:
        masks = obs["action_mask"]
        # The observation after an episode ended is that episode's last one: no legal action.
        assert np.array_equal(~masks.any(axis=1), ended)
        obs, reward, terminated, truncated, _ = envs.step(random_actions(rng, masks))
        # The step after the end resets that environment, ignoring its action: no reward.
        assert not (reward[ended].any() or terminated[ended].any())
        ended = terminated | truncated
        endings += int(ended.sum())
    envs.close()
