"""Batched, jit-compiled engines of the games for reinforcement learning, with pgx's ``Env`` API.

This package owns the registry of those engines: ``make(name, **params)`` returns a pgx
``Env`` (``init``, ``step``, ``observe``; vmap and jit them as pgx's own examples do). Each
engine lives in its own module, imported only when made, so that ``import cathedral.jax``
needs neither JAX nor pgx:

- ``classic`` (``cathedral.jax.classic``): params ``opening="standard"|"lehmann"``;
- ``allmer`` (``cathedral.jax.allmer``, when that module exists): params ``players=2|4``.

Both take ``layout="reference"|"hwc"``: the observation as the reference engine's tensor
(default; classic a flat (524,) vector, Allmer (2n + 5, 15, 15) channels first), or as a
channels-last image for pgx's conv nets (classic (10, 10, 29): the five board planes, then the
hand values and flags each broadcast over a plane; Allmer (15, 15, 2n + 5)). Another value is
a ValueError.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

# name -> (module under cathedral.jax, factory in it). A factory takes the game's params.
_ENGINES: dict[str, tuple[str, str]] = {
    "classic": ("classic", "Classic"),
    "allmer": ("allmer", "make"),
}


def names() -> list[str]:
    """Returns the names ``make`` knows whose module is present."""
    return sorted(name for name, (module, _) in _ENGINES.items() if _module_exists(module))


def _module_exists(module: str) -> bool:
    return importlib.util.find_spec(f"{__name__}.{module}") is not None


def make(name: str, **params: Any):
    """Returns the JAX environment of game ``name`` with ``params`` (keyword arguments).

    Raises:
        ValueError: an unknown name (the message lists the known ones), or a bad parameter.
    """
    entry = _ENGINES.get(name)
    if entry is None or not _module_exists(entry[0]):
        raise ValueError(f"no JAX engine named {name!r}; known: {', '.join(names())}")
    module = importlib.import_module(f"{__name__}.{entry[0]}")
    try:
        return getattr(module, entry[1])(**params)
    except TypeError as error:  # an unknown keyword
        raise ValueError(f"bad parameters for JAX engine {name!r}: {error}") from error
