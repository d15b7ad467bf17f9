"""The registry of games: names to lazily imported Game classes.

Games register themselves by name and import path (``cathedral.games`` does it), so that
``import cathedral`` stays cheap and ``core`` never imports a game.
"""

from __future__ import annotations

import importlib
from typing import Any

from cathedral.core.contract import Game
from cathedral.core.errors import UnknownGameError

_GAMES: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Registers a game under ``name``; ``target`` is ``"package.module:ClassName"``."""
    _GAMES[name] = target


def games() -> list[str]:
    """Returns the registered game names, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """Returns the Game class registered as ``name``."""
    if not isinstance(name, str) or name not in _GAMES:
        raise UnknownGameError(f"unknown game {name!r} (available: {', '.join(games())})")
    module, _, cls = _GAMES[name].partition(":")
    return getattr(importlib.import_module(module), cls)


def load(name: str, **params: Any) -> Game:
    """Returns the game ``name`` with ``params`` (defaults filled in, every value checked).

    Raises:
        UnknownGameError: no game has that name; the message lists the available ones.
        ParameterError: an unknown parameter or a bad value; the message says what is valid.
    """
    return game_class(name)(**params)
