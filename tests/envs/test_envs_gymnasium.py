"""The Gymnasium environments pass Gymnasium's checker and play one seat of the real games."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cathedral  # noqa: E402
import cathedral.envs.gymnasium  # noqa: E402 - registers the ids
from cathedral.envs import adapter  # noqa: E402
from cathedral.envs.gymnasium import ENV_IDS, CathedralEnv  # noqa: E402


def play_episode(env, seed: int) -> tuple[float, int]:
    """Plays one episode with random legal actions; returns the reward and the steps taken."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps


def test_check_env(config):
    name, params = config
    env = gymnasium.make(ENV_IDS[name], **params)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []  # red's Box too: its bounds are finite


def test_the_three_ids_are_registered():
    for name, env_id in ENV_IDS.items():
        env = gymnasium.make(env_id)
        assert env.unwrapped.game.name == name


def test_an_episode_ends_with_the_seats_return(config):
    name, params = config
    env = gymnasium.make(ENV_IDS[name], seat=1, **params)
    reward, _ = play_episode(env, seed=2)
    state = env.unwrapped.game_state
    if state.is_terminal():
        assert reward == state.returns()[1]
    else:  # allmer: the seat was eliminated, its place settled
        assert 1 in state.eliminated
        assert reward == adapter.settled_return(state, 1) < 1.0


def test_the_observation_is_the_seats_and_the_mask_its_legal_actions():
    env = CathedralEnv("allmer", players=4, seat=2, opponent="random")
    obs, info = env.reset(seed=4)
    state = env.game_state
    assert state.current_player() == 2
    assert np.array_equal(obs["observation"], state.observation_tensor(2))
    assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()


def test_reset_with_a_seed_replays_opponents_and_dice():
    def history(seed: int) -> list[int]:
        env = CathedralEnv("red", players=3, opponent="random")
        play_episode(env, seed=seed)
        return env.game_state.history()

    assert history(6) == history(6)
    assert history(6) != history(7)


def test_opponents_by_level_and_one_per_seat():
    env = CathedralEnv("allmer", players=4, opponent=["random", "easy", "random"], seat=0)
    env.reset(seed=0)
    labels = [env._opponents[p].label for p in (1, 2, 3)]
    assert labels == ["random", "easy", "random"]
    with pytest.raises(cathedral.ParameterError, match="unknown agent"):
        CathedralEnv("classic", opponent="grandmaster")
    with pytest.raises(cathedral.ParameterError, match="opponents given"):
        CathedralEnv("classic", opponent=["random", "random"])
    with pytest.raises(cathedral.ParameterError, match="seat 2"):
        CathedralEnv("classic", seat=2)


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward():
    env = CathedralEnv("classic", illegal_reward=-5.0)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game_state.to_json()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    assert env.game_state.to_json() == before
    assert not obs["action_mask"].any()
    with pytest.raises(cathedral.IllegalActionError, match="reset"):
        env.step(0)


def test_render_modes():
    env = gymnasium.make("cathedral/Allmer-v0", render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    env = gymnasium.make("cathedral/Red-v0", render_mode="ansi")
    env.reset(seed=0)
    assert "MARKET" in env.render()
