"""PettingZoo AEC environments for every game and parameter set.

>>> from cathedral.envs.pettingzoo import env
>>> e = env("allmer", players=4)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are named ``<seat>_<player number>`` after the game's seats (``light_0``,
``dark_1``; ``white_0``, ``blue_1``, ``black_2``, ``red_3``; ``red_0``, ``blue_1``, ...).
Observations are dicts with the game's ``observation_tensor`` for that seat (float32, shape
``game.observation_shape()``) and an int8 ``action_mask`` over ``game.num_distinct_actions()``
(all zeros when it is not that seat's turn). Rewards are the game's ``returns()``, given when
the game ends, or when an Allmer congregation is eliminated (its place is settled then; it
leaves ``agents`` after one last ``step(None)``). Dice and card draws are resolved inside the
environment from the seed of ``reset(seed=...)``. ``env.unwrapped.game_state`` is the
engine's state (``cathedral.State``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cathedral.core.contract import CHANCE, Game, State
from cathedral.envs import adapter

RENDER_MODES = adapter.RENDER_MODES


def env(game: str | Game = "classic", render_mode: str | None = None, **params: Any) -> AECEnv:
    """Returns the AEC environment of ``game`` with PettingZoo's usual wrappers: an illegal
    action ends the game with -1 for the player who made it, actions outside the action space
    are refused, and calls out of order are reported."""
    environment: AECEnv = raw_env(game, render_mode=render_mode, **params)
    environment = _TerminateIllegal(environment, illegal_reward=-1)
    environment = _AssertOutOfBounds(environment)
    return _OrderEnforcing(environment)


# The loop state every AEC call reads (``last()`` alone reads five of these): PettingZoo's
# wrappers find each through ``__getattr__`` at every level, about 36 lookups a step. These
# subclasses of the same wrappers read them from the unwrapped environment by property instead,
# which is several times cheaper, and answer the common case of each check (a plain int in the
# action space) without the generic path; everything else is PettingZoo's code.
_LOOP_STATE = (
    "agent_selection",
    "agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "_cumulative_rewards",
)


def _forwarding(wrapper: type, *, before_reset_error: bool = False) -> type:
    """Returns a subclass of a PettingZoo wrapper that forwards ``_LOOP_STATE`` by property
    from the unwrapped environment (refusing, like OrderEnforcingWrapper, to show them before
    ``reset``)."""

    def forward(name: str) -> property:
        if before_reset_error:

            def get(self):
                if not self._has_reset:
                    raise AttributeError(f"{name} cannot be accessed before reset")
                return getattr(self._raw, name)

        else:

            def get(self):
                return getattr(self._raw, name)

        return property(get)

    def __init__(self, env, *args, **kwargs):
        self._raw = env.unwrapped
        wrapper.__init__(self, env, *args, **kwargs)

    namespace = {name: forward(name) for name in _LOOP_STATE}
    namespace["__init__"] = __init__
    return type(wrapper.__name__, (wrapper,), namespace)


class _TerminateIllegal(_forwarding(wrappers.TerminateIllegalWrapper)):
    def observe(self, agent: str) -> Any:
        raw = self._raw
        obs = self.env.observe(agent)
        selected = raw.agent_selection
        if agent == selected:
            self._prev_obs = obs
            self._prev_info = raw.infos.get(selected, {})
        return obs

    def step(self, action: Any) -> None:
        # the common case, a legal int after observing, straight through; anything else (a
        # dead agent, an illegal action, no observation yet) takes PettingZoo's own path
        raw = self._raw
        agent = raw.agent_selection
        obs = self._prev_obs
        if (
            type(action) is int
            and not self._terminated
            and type(obs) is dict
            and not raw.terminations[agent]
            and not raw.truncations[agent]
            and 0 <= action < len(obs["action_mask"])
            and obs["action_mask"][action]
        ):
            self._prev_obs = None
            self._prev_info = None
            self.env.step(action)
        else:
            super().step(action)


class _AssertOutOfBounds(_forwarding(wrappers.AssertOutOfBoundsWrapper)):
    def step(self, action: Any) -> None:
        # a plain int in range is in the action space: skip Discrete.contains() for it
        if type(action) is int and 0 <= action < self._raw._num_actions:
            self.env.step(action)
        else:
            super().step(action)


class _OrderEnforcing(_forwarding(wrappers.OrderEnforcingWrapper, before_reset_error=True)):
    def last(self, observe: bool = True) -> tuple:
        agent = self.agent_selection  # raises before reset, as PettingZoo's does
        assert agent is not None
        raw = self._raw
        return (
            self.observe(agent) if observe else None,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return super().observe(agent)  # PettingZoo's error
        return self.env.observe(agent)


class raw_env(AECEnv):
    """One game of Cathedral (any of the three) as an AEC environment, without wrappers.

    An illegal action raises ``cathedral.IllegalActionError`` (a ValueError) and changes
    nothing; ``env()`` wraps this so that it ends the game instead.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "cathedral_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, game: str | Game = "classic", render_mode: str | None = None, **params: Any
    ) -> None:
        super().__init__()
        self.game = adapter.load_game(game, params)
        self.render_mode = adapter.check_render_mode(render_mode)
        self.metadata = dict(self.metadata, name=f"cathedral_{self.game.name}_v0")
        self.possible_agents = agent_names(self.game)
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        n = self.game.num_distinct_actions()
        # One space object per agent, the same on every call (PettingZoo's api_test checks).
        self.observation_spaces = {
            a: adapter.observation_space(self.game) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observe = adapter.observation_function(self.game)
        self._legal_mask = adapter.mask_function(self.game)
        self._num_actions = n
        self._rng = random.Random()
        self._mask: np.ndarray | None = None  # the legal mask of the position, once computed
        self.game_state: State | None = None

    # ----- spaces -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----- the AEC loop -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        state = self.game.new_initial_state()
        adapter.resolve_chance(state, self._rng)
        self.game_state = state
        self._mask = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._out = 0  # how many players have left the game so far
        self._rewarded = False  # whether ``rewards`` holds anything but zeros
        self.agent_selection = self.possible_agents[state.current_player()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        player = self._seat[agent]
        if player == state.current_player():
            mask = self._mask
            if mask is None:
                mask = self._mask = self._legal_mask(state)
            mask = mask.copy()
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"observation": self._observe(state, player), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        adapter.apply_checked(state, action, self._mask)
        self._mask = None
        player = state.current_player()
        if player == CHANCE:
            adapter.resolve_chance(state, self._rng)
            player = state.current_player()
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            rewards = self.rewards
            for name in rewards:
                rewards[name] = 0.0
            self._rewarded = False
        if player >= 0 and len(adapter.players_out(state)) == self._out:
            # the usual step: nobody's game ended, so no rewards and no dead agents to step
            self.agent_selection = self.possible_agents[player]
        else:
            self._settle(state)
        if self.render_mode == "human":
            self.render()

    def _settle(self, state: State) -> None:
        """Gives the players whose game just ended (all at the end, an eliminated Allmer
        player before) their returns, and marks them terminated."""
        rewards = self.rewards
        names = self.possible_agents
        if state.is_terminal():
            for name, value in zip(names, state.returns()):
                if name in rewards and not self.terminations[name]:
                    rewards[name] = float(value)
                    self.terminations[name] = True
        else:
            out = adapter.players_out(state)
            while self._out < len(out):
                player = out[self._out]
                self._out += 1
                name = names[player]
                rewards[name] = adapter.settled_return(state, player)
                self.terminations[name] = True
            self.agent_selection = names[state.current_player()]
        self._rewarded = True
        self._accumulate_rewards()
        self._deads_step_first()

    # ----- rendering ----------------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        return adapter.render(self.game_state, self.render_mode)

    def close(self) -> None:
        pass


def agent_names(game: Game) -> list[str]:
    """Returns the agent names of ``game``: each seat's name and player number, ``light_0``
    (PettingZoo's ``<descriptor>_<number>`` convention in the game's own words)."""
    return [f"{name.lower()}_{p}" for p, name in enumerate(game.player_names())]
