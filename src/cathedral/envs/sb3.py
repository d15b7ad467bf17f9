"""Stable-Baselines3's MaskablePPO (sb3-contrib) on the Gymnasium environments.

MaskablePPO wants a flat ``Box`` observation and an ``action_masks()`` method returning a bool
array (``sb3_contrib.common.maskable.utils.get_action_masks`` calls it through
``env_method``), where ``cathedral.envs.gymnasium`` hands back a dict of the observation and
the int8 mask. ``MaskableEnv`` is the Gymnasium wrapper between the two; nothing here imports
stable-baselines3 or torch (install them with the ``sb3`` extra):

>>> from sb3_contrib import MaskablePPO
>>> from stable_baselines3.common.vec_env import DummyVecEnv
>>> from cathedral.envs.sb3 import make_maskable
>>> env = DummyVecEnv([lambda seat=seat: make_maskable("classic", seat=seat, opponent="easy")
...                    for seat in (0, 1)])
>>> model = MaskablePPO("MlpPolicy", env).learn(10_000)

``PolicyAgent`` turns a policy back into a computer player (``choose(state)``), so a frozen
copy of the network can be the environment's ``opponent=``: self-play
(``examples/self_play.py``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from cathedral.core.contract import Game, State
from cathedral.envs.gymnasium import ENV_IDS, CathedralEnv


class MaskableEnv(gymnasium.Wrapper, gymnasium.utils.RecordConstructorArgs):
    """A Cathedral Gymnasium environment with a flat float32 ``Box`` observation (the game's
    ``observation_tensor`` raveled) and ``action_masks()``, as MaskablePPO expects.

    ``action_masks()`` is the mask of the last observation as bool (all False once the episode
    has ended; Stable-Baselines3's vector environments reset before asking again).
    """

    def __init__(self, env: gymnasium.Env) -> None:
        gymnasium.utils.RecordConstructorArgs.__init__(self)  # its spec can remake it
        gymnasium.Wrapper.__init__(self, env)
        inner = env.observation_space["observation"]
        self.observation_space = spaces.Box(
            low=inner.low.ravel(), high=inner.high.ravel(), dtype=np.float32
        )
        self._mask = np.zeros(env.action_space.n, dtype=bool)

    def _flat(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        self._mask = obs["action_mask"].astype(bool)
        return obs["observation"].ravel()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self._flat(obs), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._flat(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Returns the legal actions of the current observation as a bool array."""
        return self._mask.copy()


def make_maskable(game: str | Game = "classic", **kwargs: Any) -> MaskableEnv:
    """Returns ``MaskableEnv`` around the game's Gymnasium environment; ``kwargs`` are the
    environment's (``opponent``, ``seat``, ``illegal_reward``, ``render_mode``) and the
    game's parameters (``players=4``)."""
    if isinstance(game, str) and game in ENV_IDS:
        return MaskableEnv(gymnasium.make(ENV_IDS[game], **kwargs))
    return MaskableEnv(CathedralEnv(game, **kwargs))


class PolicyAgent:
    """A computer player (``choose(state)``) that runs a policy on the observation and the
    legal mask of the player to move.

    ``policy`` is anything with Stable-Baselines3's ``predict(observation, action_masks=...,
    deterministic=...)``: a ``MaskablePPO`` model or its ``policy`` (a network). Give a frozen
    copy (``copy.deepcopy(model.policy)``) to play against an earlier self while the model
    trains; replace ``agent.policy`` to move the opponent on.
    """

    def __init__(self, policy: Any, *, deterministic: bool = False, name: str = "policy") -> None:
        self.policy = policy
        self.deterministic = deterministic
        self.name = name

    def choose(self, state: State) -> int:
        player = state.current_player()
        obs = state.observation_tensor(player).ravel()
        mask = state.legal_actions_mask()
        action, _ = self.policy.predict(
            obs, action_masks=mask, deterministic=self.deterministic
        )
        return int(action)
