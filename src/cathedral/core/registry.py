"""The registry of games: names to lazily imported Game classes and their hooks.

Games register themselves by name and import path (``cathedral.games`` does it), so that
``import cathedral`` stays cheap and ``core`` never imports a game. Beside its Game class a
game may name a ``Presentation`` and an ``Evaluation`` (see ``cathedral.core.hooks``); the
contract's ``State`` finds them here by the game's name. Each import path is imported on first
use, by ``importlib``: that is how a registry reaches code it must not import, not a way round
an import circle.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cathedral.core.errors import UnknownGameError
from cathedral.core.hooks import Evaluation, Presentation

if TYPE_CHECKING:
    from cathedral.core.contract import Game

_GAMES: dict[str, str] = {}
_PRESENTATION_PATHS: dict[str, str] = {}
_EVALUATION_PATHS: dict[str, str] = {}
_PRESENTATIONS: dict[str, Presentation] = {}
_EVALUATIONS: dict[str, Evaluation] = {}


def register(name: str, target: str, *, presentation: str | None = None,
             evaluation: str | None = None) -> None:
    """Registers a game under ``name``.

    Args:
        name: the registry name (``cathedral.load(name)``).
        target: the Game class, as ``"package.module:ClassName"``.
        presentation: the game's ``Presentation`` subclass, written the same way (default:
            the base class, which shows ``str(state)`` and the notation).
        evaluation: the game's ``Evaluation`` subclass (default: none, so ``evaluate`` raises
            NotImplementedError).
    """
    _GAMES[name] = target
    for paths, resolved, path in ((_PRESENTATION_PATHS, _PRESENTATIONS, presentation),
                                  (_EVALUATION_PATHS, _EVALUATIONS, evaluation)):
        resolved.pop(name, None)
        if path is None:
            paths.pop(name, None)
        else:
            paths[name] = path


def games() -> list[str]:
    """Returns the registered game names, sorted."""
    return sorted(_GAMES)


def _attribute(target: str) -> Any:
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def game_class(name: str) -> type[Game]:
    """Returns the Game class registered as ``name``."""
    if not isinstance(name, str) or name not in _GAMES:
        raise UnknownGameError(f"unknown game {name!r} (available: {', '.join(games())})")
    return _attribute(_GAMES[name])


def presentation(name: str) -> Presentation:
    """Returns the Presentation of the game ``name`` (the base one for a game that registered
    none, or was never registered)."""
    found = _PRESENTATIONS.get(name)
    if found is None:
        path = _PRESENTATION_PATHS.get(name)
        found = _PRESENTATIONS[name] = _attribute(path)() if path else Presentation()
    return found


def evaluation(name: str) -> Evaluation:
    """Returns the Evaluation of the game ``name`` (the base one, which has no ``evaluate``,
    for a game that registered none, or was never registered)."""
    found = _EVALUATIONS.get(name)
    if found is None:
        path = _EVALUATION_PATHS.get(name)
        found = _EVALUATIONS[name] = _attribute(path)() if path else Evaluation()
    return found


def load(name: str, **params: Any) -> Game:
    """Returns the game ``name`` with ``params`` (defaults filled in, every value checked).

    Raises:
        UnknownGameError: no game has that name; the message lists the available ones.
        ParameterError: an unknown parameter or a bad value; the message says what is valid.
    """
    return game_class(name)(**params)
