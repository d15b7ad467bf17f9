"""Computer players over the contract: agents, and ``load_agent`` to get one by name."""

from __future__ import annotations

from cathedral.ai.base import Agent, GreedyAgent, RandomAgent
from cathedral.core.contract import Game
from cathedral.core.errors import ParameterError

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def agent_names() -> list[str]:
    """Returns the names ``load_agent`` accepts."""
    return sorted(AGENTS)


def load_agent(name: str, game: Game | None = None, seed: int | None = None) -> Agent:
    """Returns a fresh agent by name (``random``, ``greedy``, ...) for ``game``.

    Raises:
        ParameterError: an unknown name; the message lists the known ones.
    """
    if name not in AGENTS:
        raise ParameterError(f"unknown agent {name!r} (available: {', '.join(agent_names())})")
    return AGENTS[name](seed=seed)


__all__ = ["AGENTS", "Agent", "GreedyAgent", "RandomAgent", "agent_names", "load_agent"]
