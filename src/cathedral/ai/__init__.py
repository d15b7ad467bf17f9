"""Computer players over the contract: agents, named levels, ``load_agent`` and ``hint``.

>>> import cathedral
>>> from cathedral.ai import load_agent
>>> game = cathedral.load("classic")
>>> agent = load_agent("greedy", game, seed=1)
>>> state = game.new_initial_state()
>>> state.apply_action(agent.choose(state))

A name is a level (``random``, ``easy``, ``medium``, ``hard``, ``max``: see ``levels``), an
agent (``random``, ``greedy``, ``mcts``, ``alphabeta``, ``rollout``), or an agent with
arguments after a colon: ``mcts:seconds=2,c=0.5`` or ``alphabeta:depth=3,width=8`` (``seconds``,
``iterations`` and ``depth`` make the budget).
"""

from __future__ import annotations

from cathedral.ai.alphabeta import AlphaBetaAgent
from cathedral.ai.base import Agent, GreedyAgent, RandomAgent
from cathedral.ai.budget import Budget, SearchInfo
from cathedral.ai.levels import LEVEL_NAMES, level_spec
from cathedral.ai.mcts import MCTSAgent
from cathedral.ai.rollout import RolloutAgent
from cathedral.core.contract import Game, State
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
    """Splits ``"mcts:seconds=2,c=0.5"`` into ``("mcts", {"seconds": 2, "c": 0.5})``."""
    base, _, rest = name.partition(":")
    kwargs: dict = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParameterError(f"agent argument {item!r} in {name!r} is not NAME=VALUE")
        kwargs[key.strip()] = _value(value)
    return base.strip(), kwargs


def load_agent(name: str, game: Game | None = None, seed: int | None = None) -> Agent:
    """Returns a fresh agent by level, agent name or spec (see the module docstring).

    Raises:
        ParameterError: an unknown name or argument; the message lists the known ones.
    """
    base, kwargs = parse_spec(name)
    budget_args = {k: kwargs.pop(k) for k in _BUDGET_KEYS if k in kwargs}
    if base in LEVEL_NAMES:
        players = game.num_players if game is not None else 2
        base, level_args = level_spec(base, game.name if game is not None else None, players)
        kwargs = {**level_args, **kwargs}
    if base not in AGENTS:
        raise ParameterError(f"unknown agent {base!r} (available: {', '.join(agent_names())})")
    if budget_args:
        old = kwargs.get("budget") or Budget()
        merged = {k: getattr(old, k) for k in _BUDGET_KEYS} | budget_args
        kwargs["budget"] = Budget(**merged)
    try:
        agent = AGENTS[base](seed=seed, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"bad arguments for agent {name!r}: {exc}") from None
    agent.label = name
    return agent


def hint(state: State, level: str = "medium", seed: int | None = 0) -> SearchInfo:
    """Returns the best action for the player to move by the search of ``level``, with its
    value per player and principal variation (what a front end's ``hint`` shows).

    Raises:
        ValueError: nobody is to move (a chance node or the end of the game).
    """
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("a hint needs a player to move")
    agent = load_agent(level, state.game, seed=seed)
    return agent.analyse(state)


__all__ = [
    "AGENTS",
    "LEVEL_NAMES",
    "Agent",
    "AlphaBetaAgent",
    "Budget",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "RolloutAgent",
    "SearchInfo",
    "agent_names",
    "hint",
    "load_agent",
    "parse_spec",
]
