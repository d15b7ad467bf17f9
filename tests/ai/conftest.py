"""Toy games for the AI tests, small enough to solve by brute force: Nim variants; and
``red_decision``, a real red position with a choice to make.

``Nim``: a pile of stones; the player to move takes 1, 2 or 3; who takes the last stone wins
(the others lose). Options exercise what search must get right: ``bonus`` (taking exactly 3
earns another move, so the same player moves twice in a row), ``dice`` (before every move a
chance node removes 0 or 1 stone, each with probability 1/2, but never the last one),
``players`` (2 or 3).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import cathedral
from cathedral.core.contract import CHANCE, TERMINAL, Game, GameInfo, State, ranked_returns
from cathedral.core.errors import NotationError
from cathedral.core.params import Param

TAKE = (1, 2, 3)  # actions 0, 1, 2 take 1, 2, 3; chance actions 3, 4 remove 0, 1


class NimGame(Game):
    info = GameInfo(
        name="nim",
        title="Nim (test game)",
        rules_version=1,
        seat_names=("A", "B", "C"),
        parameters=(
            Param("pile", 7, int, "stones at the start", minimum=1),
            Param("bonus", False, bool, "taking exactly 3 earns another move"),
            Param("dice", False, bool, "a chance node removes 0 or 1 stone before each move"),
            Param("players", 2, int, "players", choices=(2, 3)),
        ),
    )

    @property
    def num_players(self) -> int:
        return self.params["players"]

    def player_names(self) -> list[str]:
        return list(self.info.seat_names[: self.num_players])

    def num_distinct_actions(self) -> int:
        return 5

    def observation_shape(self) -> tuple[int, ...]:
        return (2,)

    def max_game_length(self) -> int:
        return 1000

    def new_initial_state(self) -> NimState:
        return NimState(self, self.params["pile"], 0, self.params["dice"])

    def _state_from_dict(self, data: dict) -> NimState:
        state = NimState(self, data["pile"], data["player"], data["chance"])
        state.winner = data["winner"]
        state._history = list(data["history"])
        return state


class NimState(State):
    def __init__(self, game: NimGame, pile: int, player: int, chance: bool) -> None:
        super().__init__(game)
        self.pile = pile
        self.player = player
        self.chance = chance
        self.winner: int | None = None

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.chance else self.player

    def chance_outcomes(self):
        if self.current_player() != CHANCE:
            return []
        return [(3, 0.5), (4, 0.5)] if self.pile >= 2 else [(3, 1.0)]

    def _legal_actions(self) -> list[int]:
        return [i for i, take in enumerate(TAKE) if take <= self.pile]

    def _apply_action(self, action: int) -> None:
        if self.chance:
            self.pile -= action - 3
            self.chance = False  # the last stone is never removed by chance
            return
        take = TAKE[action]
        self.pile -= take
        if self.pile == 0:
            self.winner = self.player
            return
        if not (self.game.params["bonus"] and take == 3):
            self.player = (self.player + 1) % self.game.num_players
        self.chance = self.game.params["dice"]

    def _action_to_string(self, action: int) -> str:
        return f"take{TAKE[action]}" if action < 3 else f"drop{action - 3}"

    def _string_to_action(self, text: str) -> int:
        names = {self._action_to_string(a): a for a in range(5)}
        if text not in names:
            raise NotationError(f"bad move {text!r}")
        return names[text]

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0] * self.game.num_players
        return ranked_returns(self.scores())

    def scores(self) -> list[float]:
        n = self.game.num_players
        return [1.0 if p == self.winner else 0.0 for p in range(n)]

    def observation_tensor(self, player=None):
        return np.array([self.pile, self.player], dtype=np.float32)

    def _to_dict(self) -> dict:
        return {"pile": self.pile, "player": self.player, "chance": self.chance,
                "winner": self.winner, "history": list(self._history)}

    def clone(self) -> NimState:
        other = NimState(self.game, self.pile, self.player, self.chance)
        other.winner = self.winner
        other._history = list(self._history)
        return other

    def __str__(self) -> str:
        return f"pile {self.pile}, player {self.player}"


def solve(state: State) -> list[float]:
    """Returns the exact max^n / expectimax value vector of ``state`` by brute force."""
    player = state.current_player()
    if player == TERMINAL:
        return list(state.returns())
    if player == CHANCE:
        total = [0.0] * state.game.num_players
        for action, probability in state.chance_outcomes():
            child = state.clone()
            child.apply_action(action)
            for i, v in enumerate(solve(child)):
                total[i] += probability * v
        return total
    best = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values = solve(child)
        if best is None or values[player] > best[player]:
            best = values
    return best


@pytest.fixture
def nim():
    """``nim(**params)`` returns a Nim game (see the module docstring)."""
    return NimGame


@pytest.fixture
def brute_force():
    """``brute_force(state)`` returns the exact value vector of a state."""
    return solve


@pytest.fixture
def red_decision():
    """Returns a function giving a 2-player red position (random play from a seed) whose
    player to move has at least ``at_least`` legal actions."""

    def decision(at_least: int, seed: int = 3):
        state = cathedral.load("red").new_initial_state()
        rng = random.Random(seed)
        while state.is_chance_node() or len(state.legal_actions()) < at_least:
            outcomes = state.chance_outcomes() if state.is_chance_node() else None
            state.apply_action(rng.choice([a for a, _ in outcomes]) if outcomes
                               else rng.choice(state.legal_actions()))
        return state

    return decision
