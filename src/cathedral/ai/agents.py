"""Agents by name: the agent classes, specs such as ``alphabeta:depth=3,width=8`` parsed and
checked against each agent's arguments, and ``load_agent``, which also resolves the levels."""

from __future__ import annotations

import inspect

from cathedral.ai.alphabeta import AlphaBetaAgent
from cathedral.ai.base import Agent, GreedyAgent, RandomAgent
from cathedral.ai.budget import Budget, Clock
from cathedral.ai.levels import LEVEL_NAMES, level_spec
from cathedral.ai.mcts import MCTSAgent
from cathedral.ai.rollout import RolloutAgent
from cathedral.core.contract import Game
from cathedral.core.errors import ParameterError

AGENTS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "alphabeta": AlphaBetaAgent,
    "rollout": RolloutAgent,
}
_BUDGET_KEYS = ("seconds", "iterations", "depth")


def agent_names() -> list[str]:
    """Returns the names ``load_agent`` accepts (levels and agents, without arguments)."""
    return sorted(set(AGENTS) | set(LEVEL_NAMES))


def _value(text: str) -> object:
    lowered = text.strip().lower()
    if lowered in ("none", "null"):
        return None
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_spec(name: str) -> tuple[str, dict]:
    """Splits ``"mcts:seconds=2,c=0.5"`` into ``("mcts", {"seconds": 2, "c": 0.5})``.

    Values are read as none, true/false, integers or numbers where they look like one, else
    kept as text; ``load_agent`` then checks each against what the agent accepts.
    """
    if not isinstance(name, str):
        raise ParameterError(f"agent {name!r} is not a name")
    base, _, rest = name.partition(":")
    kwargs: dict = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParameterError(f"agent argument {item!r} in {name!r} is not NAME=VALUE")
        kwargs[key.strip()] = _value(value)
    return base.strip(), kwargs


# What a budget key accepts: seconds any positive number, the counts positive integers.
_BUDGET_KINDS = {"seconds": "number", "iterations": "integer", "depth": "integer"}
_INTERNAL = {"self", "seed", "budget", "clock"}


def _accepted(annotation: object, default: object) -> tuple[str, bool]:
    """Returns the kind an agent argument takes (``bool``, ``integer``, ``number`` or ``any``)
    and whether ``none`` is allowed, read from its annotation (a string here, the modules use
    postponed annotations) or else its default."""
    parts = [part.strip() for part in str(annotation).split("|")]
    optional = "None" in parts or default is None
    for word, kind in (("bool", "bool"), ("int", "integer"), ("float", "number")):
        if word in parts:
            return kind, optional
    for kind_type, kind in ((bool, "bool"), (int, "integer"), (float, "number")):
        if isinstance(default, kind_type):
            return kind, optional
    return "any", optional


def _check_value(spec: str, key: str, value: object, kind: str, optional: bool,
                 *, positive: bool) -> object:
    """Returns ``value`` as the kind an argument takes, or raises ParameterError naming it."""
    if value is None:
        if optional:
            return None
        raise ParameterError(f"agent {spec!r}: {key}=none is not accepted "
                             f"(expected {_kind_words(kind, positive)})")
    ok = True
    if kind == "bool":
        ok = isinstance(value, bool)
    elif kind in ("integer", "number"):
        numeric = int if kind == "integer" else (int, float)
        ok = isinstance(value, numeric) and not isinstance(value, bool)
        if ok and (value != value or value in (float("inf"), float("-inf"))):
            ok = False  # nan or infinity
        if ok and (value <= 0 if positive else value < 0):
            ok = False
        if ok and kind == "number":
            value = float(value)
    if not ok:
        shown = str(value).lower() if isinstance(value, bool) else value
        if isinstance(shown, str) and not shown.isprintable():
            shown = repr(shown)  # keep the message on one line
        raise ParameterError(f"agent {spec!r}: bad value {key}={shown!s} "
                             f"(expected {_kind_words(kind, positive)}"
                             + (" or none)" if optional else ")"))
    return value


def _kind_words(kind: str, positive: bool) -> str:
    if kind == "bool":
        return "true or false"
    if kind == "any":
        return "a value"
    sign = "a positive" if positive else "a non-negative"
    return f"{sign} {'whole number' if kind == 'integer' else 'number'}"


def _checked_arguments(spec: str, base: str, kwargs: dict, budget_args: dict) -> None:
    """Checks every argument of a spec against the agent's constructor, in place.

    Raises:
        ParameterError: an argument the agent does not take (listing those it does) or a value
            of the wrong kind (naming the value and what is accepted).
    """
    for key, value in budget_args.items():
        budget_args[key] = _check_value(spec, key, value, _BUDGET_KINDS[key], False,
                                        positive=True)
    parameters = inspect.signature(AGENTS[base].__init__).parameters
    known = sorted(k for k in parameters if k not in _INTERNAL
                   and parameters[k].kind is inspect.Parameter.KEYWORD_ONLY)
    for key, value in list(kwargs.items()):
        if key == "budget" and isinstance(value, Budget):
            continue  # from a level's table, not typed by a person
        if key not in known:
            accepted = ", ".join([*_BUDGET_KEYS, *known])
            raise ParameterError(f"agent {spec!r}: unknown argument {key!r} for {base} "
                                 f"(accepted: {accepted})")
        parameter = parameters[key]
        kind, optional = _accepted(parameter.annotation, parameter.default)
        kwargs[key] = _check_value(spec, key, value, kind, optional, positive=False)


def load_agent(name: str, game: Game | None = None, seed: int | None = None, *,
               clock: Clock | None = None) -> Agent:
    """Returns a fresh agent by level, agent name or spec (see the module docstring).

    ``clock`` replaces the time source of a searching agent (tests fake time with it; the
    server's workers pass one that jumps ahead to stop a search early).

    Raises:
        ParameterError: an unknown name or argument, or a bad value (``mcts:seconds=abc``,
            ``alphabeta:depth=0``); the message names it and lists what is accepted.
    """
    base, kwargs = parse_spec(name)
    budget_args = {k: kwargs.pop(k) for k in _BUDGET_KEYS if k in kwargs}
    if base in LEVEL_NAMES:
        players = game.num_players if game is not None else 2
        base, level_args = level_spec(base, game.name if game is not None else None, players)
        kwargs = {**level_args, **kwargs}
    if base not in AGENTS:
        raise ParameterError(f"unknown agent {base!r} (available: {', '.join(agent_names())})")
    _checked_arguments(name, base, kwargs, budget_args)
    if budget_args:
        old = kwargs.get("budget") or Budget()
        merged = {k: getattr(old, k) for k in _BUDGET_KEYS} | budget_args
        kwargs["budget"] = Budget(**merged)
    if clock is not None and "clock" in inspect.signature(AGENTS[base].__init__).parameters:
        kwargs["clock"] = clock
    try:
        agent = AGENTS[base](seed=seed, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"bad arguments for agent {name!r}: {exc}") from None
    agent.label = name
    return agent
