"""Gymnasium environments: one seat of a game against built-in computer players.

Importing this module registers ``cathedral/Classic-v0``, ``cathedral/Allmer-v0`` and
``cathedral/Red-v0``:

>>> import gymnasium as gym
>>> import cathedral.envs.gymnasium
>>> env = gym.make("cathedral/Allmer-v0", players=4, opponent="easy", seat=1)
>>> obs, info = env.reset(seed=0)
>>> action = env.action_space.sample(obs["action_mask"])
>>> obs, reward, terminated, truncated, info = env.step(action)

Keyword arguments are the game's parameters plus ``opponent`` (a level or agent name as
``cathedral.ai.load_agent`` takes it, default ``random``; or one per other seat, in seat
order), ``seat`` (the player the agent plays, default 0), ``render_mode`` and
``illegal_reward``. Observations are dicts of the game's ``observation_tensor`` for that
seat and the int8 ``action_mask``; the mask is also in ``info["action_mask"]``. The reward
is the seat's return (``returns()``) when the episode ends: at the end of the game, or when
the seat is eliminated in Allmer's game. An illegal action ends the episode with
``illegal_reward`` (default -1) and ``info["illegal_action"] = True``, as PettingZoo's
wrapper does. Opponents and chance are seeded from ``reset(seed=...)``; ``game_state`` is
the engine's state (``cathedral.State``). Once the episode is over the mask is all zero.

Under ``gymnasium.make_vec`` pass ``vector_kwargs={"autoreset_mode":
gymnasium.vector.AutoresetMode.SAME_STEP}``: Gymnasium's default (``NEXT_STEP``) hands back
each episode's last observation (its empty mask) and ignores the next action, where
``SAME_STEP`` returns the next episode's first observation at once (docs/research.md).
``cathedral.envs.sb3`` fits these environments to sb3-contrib's MaskablePPO.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from cathedral.core.contract import Game, State
from cathedral.core.errors import IllegalActionError, ParameterError
from cathedral.envs import adapter

ENV_IDS = {
    "classic": "cathedral/Classic-v0",
    "allmer": "cathedral/Allmer-v0",
    "red": "cathedral/Red-v0",
}
"""Game name -> its Gymnasium id."""


class CathedralEnv(gymnasium.Env):
    """One seat of a Cathedral game (any of the three) against computer players."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(adapter.RENDER_MODES),
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str | Game = "classic",
        *,
        opponent: str | Any | Sequence[str | Any] = "random",
        seat: int = 0,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        **params: Any,
    ) -> None:
        self.game = adapter.load_game(game, params)
        players = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ParameterError(
                f"seat {seat!r} is not a player of {self.game.name} (expected 0..{players - 1})"
            )
        self.seat = seat
        others = [p for p in range(players) if p != seat]
        if isinstance(opponent, str) or not isinstance(opponent, Sequence):
            opponent = [opponent] * len(others)
        if len(opponent) != len(others):
            raise ParameterError(
                f"{len(opponent)} opponents given for {len(others)} other seats of "
                f"{self.game.name} (expected one name, or one per other seat)"
            )
        self._opponent_specs = dict(zip(others, opponent))
        for p in others:
            self._opponent(p, seed=0)  # a bad name fails here, with the agent's own message
        self.render_mode = adapter.check_render_mode(render_mode)
        self.illegal_reward = float(illegal_reward)
        self.observation_space = adapter.observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self._observe = adapter.observation_function(self.game)
        self._legal_mask = adapter.mask_function(self.game)
        self._chance = random.Random()
        self._opponents: dict[int, Any] = {}
        self._mask: np.ndarray | None = None
        self._done = True
        self.game_state: State | None = None

    def _opponent(self, player: int, seed: int) -> Any:
        spec = self._opponent_specs[player]
        if isinstance(spec, str):
            from cathedral.ai import load_agent

            return load_agent(spec, self.game, seed=seed)
        if not callable(getattr(spec, "choose", None)):
            raise ParameterError(
                f"opponent {spec!r} is neither an agent name nor an agent with choose(state)"
            )
        return spec

    # ----- the episode --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        seeds = self.np_random.integers(0, 2**62, size=self.game.num_players + 1)
        self._chance.seed(int(seeds[-1]))
        self._opponents = {p: self._opponent(p, int(seeds[p])) for p in self._opponent_specs}
        self.game_state = self.game.new_initial_state()
        self._mask = None
        self._done = False
        self._advance()
        obs = self._observation()
        if self.render_mode == "human":
            self.render()
        return obs, {"action_mask": obs["action_mask"]}

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise IllegalActionError(
                f"action {action!r} after the episode ended (call reset() first)"
            )
        mask = self._current_mask()
        legal = (
            isinstance(action, (int, np.integer))
            and not isinstance(action, bool)
            and 0 <= action < mask.shape[0]
            and bool(mask[action])
        )
        if not legal:
            self._done = True
            obs = self._observation()
            info = {"action_mask": obs["action_mask"], "illegal_action": True}
            return obs, self.illegal_reward, True, False, info
        adapter.apply_checked(self.game_state, action, mask)
        self._mask = None
        self._advance()
        state = self.game_state
        reward = 0.0
        if state.is_terminal():
            reward = float(state.returns()[self.seat])
            self._done = True
        elif self.seat in adapter.players_out(state):
            reward = float(adapter.settled_return(state, self.seat))
            self._done = True
        obs = self._observation()
        if self.render_mode == "human":
            self.render()
        return obs, reward, self._done, False, {"action_mask": obs["action_mask"]}

    def _advance(self) -> None:
        """Plays chance and the opponents until the seat is to move or its episode is over."""
        state = self.game_state
        seat = self.seat
        while True:
            adapter.resolve_chance(state, self._chance)
            player = state.current_player()
            if player == seat or player < 0 or seat in adapter.players_out(state):
                return
            state.apply_action(self._opponents[player].choose(state))

    def _current_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = self._legal_mask(self.game_state)
        return self._mask

    def _observation(self) -> dict[str, np.ndarray]:
        if self._done:
            mask = np.zeros(self.action_space.n, dtype=np.int8)
        else:
            mask = self._current_mask().copy()
        return {"observation": self._observe(self.game_state, self.seat), "action_mask": mask}

    # ----- rendering ----------------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None or self.game_state is None:
            return None
        return adapter.render(self.game_state, self.render_mode)


def register() -> None:
    """Registers the three environment ids (again harmlessly: known ids are skipped)."""
    for game, env_id in ENV_IDS.items():
        if env_id not in gymnasium.envs.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:CathedralEnv",
                               kwargs={"game": game})


register()
