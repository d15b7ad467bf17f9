"""Test doubles for code that drives agents: a scripted agent and a fake clock.

``ScriptedAgent`` plays a fixed list of actions (or notation strings) and fails loudly when
the script runs out or a scripted move is illegal, so CLI, server and arena tests can play
exact games without search. ``FakeClock`` is a clock that advances only when told to (or by a
fixed step each time it is read), so time budgets can be tested exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from cathedral.ai.base import Agent
from cathedral.core.contract import Action, State
from cathedral.core.errors import AgentError


class ScriptedAgent(Agent):
    """Plays the given moves in order: action numbers or notation strings.

    Raises ``AgentError`` when asked for a move after the script ends, or when the next
    scripted move is not legal in the state it is asked about.
    """

    name = "scripted"

    def __init__(self, moves: Sequence[Action | str], seed: int | None = None) -> None:
        super().__init__(seed)
        self.moves = list(moves)
        self.position = 0
        self.asked: list[str] = []  # the JSON of every state it was asked about

    def choose(self, state: State) -> Action:
        self.asked.append(state.to_json())
        if self.position >= len(self.moves):
            raise AgentError(f"scripted agent ran out of moves after {self.position}")
        move = self.moves[self.position]
        self.position += 1
        if isinstance(move, str):
            return state.string_to_action(move)
        if move not in state.legal_actions():
            raise AgentError(f"scripted move {move} is not legal here")
        return move

    def reset(self) -> None:
        self.position = 0


class FakeClock:
    """A clock for budgets: ``clock()`` returns the fake time, then adds ``step`` to it."""

    def __init__(self, start: float = 0.0, step: float = 0.0) -> None:
        self.now = start
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        now = self.now
        self.now += self.step
        return now

    def advance(self, seconds: float) -> None:
        self.now += seconds
