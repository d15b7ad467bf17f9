"""cathedral: exact rules, fast engines and computer players for three games named Cathedral.

>>> import cathedral
>>> cathedral.games()
['allmer', 'classic', 'red']
>>> state = cathedral.load("classic").new_initial_state()
>>> state.current_player()
0
"""

from cathedral import games  # registers the games; callable: games() lists them
from cathedral.core import (
    CHANCE,
    TERMINAL,
    AgentError,
    AmbiguousActionError,
    CathedralError,
    Game,
    GameInfo,
    IllegalActionError,
    NotationError,
    Param,
    ParameterError,
    Record,
    RecordError,
    State,
    StateError,
    UnknownGameError,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AgentError",
    "AmbiguousActionError",
    "CathedralError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "NotationError",
    "Param",
    "ParameterError",
    "Record",
    "RecordError",
    "State",
    "StateError",
    "UnknownGameError",
    "__version__",
    "games",
    "load",
]
