"""OpenSpiel games: importing this module registers ``cathedral_classic``, ``cathedral_allmer``
and ``cathedral_red`` with ``pyspiel.register_game``, so OpenSpiel's algorithms and tools load
them by name like any of its own games:

>>> import pyspiel
>>> import cathedral.envs.openspiel
>>> game = pyspiel.load_game("cathedral_allmer", {"players": 4})
>>> state = game.new_initial_state()
>>> state.observation_tensor(0)[:3]
[0.0, 0.0, 0.0]

The parameters are the game's own (``cathedral rules GAME``); OpenSpiel has no "none", so an
optional parameter (Allmer's ``max_turns``) takes -1 for its default. The games are sequential,
perfect-information and zero-sum with terminal rewards; The Red Cathedral's dice and draws are
explicit chance nodes. Observations come from an observer over the engine's
``observation_tensor``; the information state is the public action history.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import cathedral
from cathedral.core.contract import Game, State

NONE = -1
"""The OpenSpiel value of an optional parameter left at its default (``None``)."""
SHORT_NAMES = {"classic": "cathedral_classic", "allmer": "cathedral_allmer", "red": "cathedral_red"}
"""Game name -> its OpenSpiel short name."""
_STOCHASTIC = {"red"}
_PLAYERS = {"classic": (2, 2), "allmer": (2, 4), "red": (2, 4)}


def _specification(name: str) -> dict[str, Any]:
    """Returns OpenSpiel's parameter specification of a game: each parameter's default."""
    info = cathedral.load(name).info
    return {p.name: (NONE if p.default is None else p.default) for p in info.parameters}


def _game_type(name: str) -> pyspiel.GameType:
    info = cathedral.load(name).info
    low, high = _PLAYERS[name]
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if name in _STOCHASTIC
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=info.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_specification(name),
    )


class _Engine:
    """Holds the engine's state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by
    pickling them; this holder makes the first the engine's cheap ``clone()`` and the second
    its canonical JSON, instead of copying the whole game with every state.
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Engine:
        return _Engine(self.state.clone())

    def __reduce__(self) -> tuple:
        game = self.state.game
        return _engine_from_json, (game.name, game.params, self.state.to_json())


def _engine_from_json(name: str, params: dict, text: str) -> _Engine:
    return _Engine(cathedral.load(name, **params).state_from_json(text))


class CathedralGame(pyspiel.Game):
    """A Cathedral game (any of the three) with its parameters, as an OpenSpiel game; each game
    registers a subclass that fixes ``NAME``."""

    NAME = "classic"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        params = dict(params or {})
        declared = {p.name: p for p in cathedral.load(name).info.parameters}
        engine_params = {
            key: (None if declared[key].optional and value == NONE else value)
            for key, value in params.items()
            if key in declared
        }
        self.engine: Game = cathedral.load(name, **engine_params)
        size = self.engine.num_distinct_actions()
        info = pyspiel.GameInfo(
            num_distinct_actions=size,
            max_chance_outcomes=size if name in _STOCHASTIC else 0,
            num_players=self.engine.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.engine.max_game_length(),
        )
        super().__init__(_TYPES[name], info, params)

    def new_initial_state(self) -> CathedralState:
        return CathedralState(self, self.engine.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Returns the observer OpenSpiel asks for: the engine's tensor for observations, the
        public history for perfect-recall information states."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return TensorObserver(self.engine, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class CathedralState(pyspiel.State):
    """An OpenSpiel state over the engine's state (player and chance ids agree: -1, -4)."""

    def __init__(self, game: CathedralGame, state: State) -> None:
        super().__init__(game)
        self._engine = _Engine(state)

    @property
    def engine(self) -> State:
        """The engine's state (``cathedral.State``) behind this one."""
        return self._engine.state

    def current_player(self) -> int:
        return self._engine.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._engine.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._engine.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._engine.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._engine.state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._engine.state.is_terminal()

    def returns(self) -> list[float]:
        return self._engine.state.returns()

    def __str__(self) -> str:
        return str(self._engine.state)


class TensorObserver:
    """OpenSpiel's observer interface over ``observation_tensor`` (shaped as the game says)."""

    def __init__(self, game: Game, params: dict | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        shape = game.observation_shape()
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: CathedralState, player: int) -> None:
        self.tensor[:] = state.engine.observation_tensor(player).ravel()

    def string_from(self, state: CathedralState, player: int) -> str:
        return str(state.engine)


_TYPES: dict[str, pyspiel.GameType] = {}


def register() -> None:
    """Registers the three games with OpenSpiel (once per process)."""
    known = set(pyspiel.registered_names())
    for name, short in SHORT_NAMES.items():
        if short in known:
            continue
        _TYPES[name] = _game_type(name)
        # OpenSpiel keeps the factory until the interpreter is gone; a class (as OpenSpiel's
        # own Python games register) outlives that safely where a closure would crash at exit.
        factory = type(f"Cathedral{name.title()}Game", (CathedralGame,), {"NAME": name})
        pyspiel.register_game(_TYPES[name], factory)


register()
