"""The shipped conformance checker: plays random games and checks the contract on every state.

``check_game(game)`` is what every game's test suite calls first (and what RL adapters and
third-party games can call too). It checks, over ``games`` random games:

- ``current_player()`` is a player, CHANCE or TERMINAL; chance outcomes sum to 1;
- ``legal_actions()`` is sorted, unique, in range, non-empty for a player to move, and
  agrees with ``legal_actions_mask()``;
- every legal action's notation parses back to the same action;
- a sample of actions that are not legal are rejected and leave the state unchanged;
- ``to_json()`` round trips exactly and a clone is independent of its original;
- ``observation_tensor`` has the declared shape and dtype;
- terminal ``returns()`` are zero-sum and every game ends within ``max_game_length()``;
- replaying ``history()`` from the initial state reproduces the final state.
"""

from __future__ import annotations

import math
import random

import numpy as np

from cathedral.core.contract import CHANCE, TERMINAL, Game, State
from cathedral.core.errors import IllegalActionError
from cathedral.core.record import Record


def random_action(state: State, rng: random.Random) -> int:
    """Returns a uniformly random legal action, or a chance outcome drawn by its probability."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def check_state(state: State, rng: random.Random, *, illegal_samples: int = 3) -> None:
    """Checks the contract on one state (without changing it)."""
    game = state.game
    size = game.num_distinct_actions()
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < game.num_players, player
    before = state.to_json()
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal_actions must be sorted and unique"
    assert all(0 <= a < size for a in legal)
    mask = state.legal_actions_mask()
    assert mask.dtype == bool and mask.shape == (size,)
    assert np.flatnonzero(mask).tolist() == legal, "mask disagrees with legal_actions"
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node needs outcomes"
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-9)
        assert not legal
    elif player == TERMINAL:
        assert not legal
        returns = state.returns()
        assert len(returns) == game.num_players
        assert math.isclose(sum(returns), 0.0, abs_tol=1e-9), returns
    else:
        assert legal, "a player to move must have a legal action (passes are skipped)"
        for action in legal if len(legal) <= 64 else rng.sample(legal, 64):
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action, (action, text)
        legal_set = set(legal)
        for _ in range(illegal_samples):
            action = rng.randrange(size)
            if action in legal_set:
                continue
            try:
                state.apply_action(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal action {action} was accepted")
            assert state.to_json() == before, "a rejected action changed the state"
    for p in range(game.num_players):
        obs = state.observation_tensor(p)
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape()
    again = game.state_from_json(before)
    assert again.to_json() == before, "JSON does not round trip"
    copy = state.clone()
    assert copy.to_json() == before
    if not state.is_terminal():
        copy.apply_action(random_action(copy, rng))
        assert state.to_json() == before, "a clone shares data with its original"


def check_game(game: Game, *, games: int = 10, seed: int = 0, check_every: int = 1) -> None:
    """Plays ``games`` random games of ``game`` and checks the contract (see module doc).

    Raises:
        AssertionError: naming the broken invariant.
    """
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        steps = 0
        while True:
            if steps % check_every == 0 or state.is_terminal():
                check_state(state, rng)
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
            steps += 1
            assert steps <= game.max_game_length(), "game longer than max_game_length()"
        assert len(state.history()) == steps
        replay = game.new_initial_state()
        for action in state.history():
            replay.apply_action(action)
        assert replay.to_json() == state.to_json(), "replaying history differs"
        record = Record.from_json(Record.from_state(state).to_json())
        assert record.final_state().to_json() == state.to_json(), "record replay differs"


def playthrough(game: Game, *, seed: int = 0) -> str:
    """Returns a seeded random game written out step by step: the player to move, the number of
    legal actions, the action chosen (number and notation), and the board after it; then the
    returns and scores. Kept under ``tests/playthroughs`` so that a rule change shows as a diff.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    lines = [f"game: {game!r}", f"seed: {seed}", "", str(state), ""]
    while not state.is_terminal():
        player = state.current_player()
        action = random_action(state, rng)
        count = len(state.chance_outcomes()) if state.is_chance_node() else len(
            state.legal_actions()
        )
        who = "chance" if player == CHANCE else game.player_names()[player]
        lines.append(
            f"{len(state.history()) + 1}. {who} ({count} choices): "
            f"{action} {state.action_to_string(action)}"
        )
        state.apply_action(action)
        lines += [str(state), ""]
    lines.append(f"returns: {state.returns()}")
    lines.append(f"scores: {state.scores()}")
    return "\n".join(lines) + "\n"
