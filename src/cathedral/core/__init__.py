"""The game-independent core: the State/Game contract, parameters, registry, records, errors."""

from cathedral.core.contract import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    Player,
    State,
    ranked_returns,
)
from cathedral.core.errors import (
    AgentError,
    AmbiguousActionError,
    CathedralError,
    IllegalActionError,
    NotationError,
    ParameterError,
    RecordError,
    StateError,
    UnknownGameError,
)
from cathedral.core.hooks import Evaluation, Presentation
from cathedral.core.params import Param
from cathedral.core.record import Record
from cathedral.core.registry import games, load, register

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "AgentError",
    "AmbiguousActionError",
    "CathedralError",
    "Evaluation",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "NotationError",
    "Param",
    "ParameterError",
    "Player",
    "Presentation",
    "Record",
    "RecordError",
    "State",
    "StateError",
    "UnknownGameError",
    "games",
    "load",
    "ranked_returns",
    "register",
]
