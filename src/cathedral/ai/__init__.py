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

from cathedral.ai.agents import AGENTS, agent_names, load_agent, parse_spec
from cathedral.ai.alphabeta import AlphaBetaAgent
from cathedral.ai.analysis import Analysis, analyse
from cathedral.ai.base import Agent, GreedyAgent, RandomAgent
from cathedral.ai.budget import Budget, SearchInfo
from cathedral.ai.levels import LEVEL_NAMES
from cathedral.ai.mcts import MCTSAgent
from cathedral.ai.rollout import RolloutAgent
from cathedral.core.contract import State


def hint(state: State, level: str = "medium", seed: int | None = 0) -> SearchInfo:
    """Returns the best action for the player to move by the search of ``level``, with its
    value per player and principal variation (what a front end's ``hint`` shows).

    Raises:
        ValueError: nobody is to move (a chance node or the end of the game).
    """
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("a hint needs a player to move")
    agent = load_agent(level, state.game, seed=seed)
    try:
        return agent.analyse(state)
    finally:
        agent.close()


__all__ = [
    "AGENTS",
    "LEVEL_NAMES",
    "Agent",
    "AlphaBetaAgent",
    "Analysis",
    "Budget",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "RolloutAgent",
    "SearchInfo",
    "agent_names",
    "analyse",
    "hint",
    "load_agent",
    "parse_spec",
]
