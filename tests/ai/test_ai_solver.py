"""Search values on games small enough to solve: Nim variants and a classic endgame."""

from __future__ import annotations

import random

import pytest

import cathedral
from cathedral.ai import AlphaBetaAgent, Budget, MCTSAgent
from cathedral.core.contract import TERMINAL


@pytest.mark.parametrize("pile", [1, 4, 5, 8, 9, 11])
def test_alphabeta_solves_nim(nim, brute_force, pile):
    state = nim(pile=pile).new_initial_state()
    info = AlphaBetaAgent(seed=0, budget=Budget(depth=40)).analyse(state)
    exact = brute_force(state)
    assert info.proven
    assert info.values == pytest.approx(exact)
    child = state.clone()
    child.apply_action(info.action)
    if exact[0] > 0:  # a won position: the move chosen keeps the win
        assert brute_force(child)[0] == exact[0]


@pytest.mark.parametrize("pile", [3, 6, 7, 10])
def test_alphabeta_reads_the_player_to_move_not_alternation(nim, brute_force, pile):
    # Taking 3 gives another move, so plies do not alternate between the players.
    state = nim(pile=pile, bonus=True).new_initial_state()
    info = AlphaBetaAgent(seed=0, budget=Budget(depth=40)).analyse(state)
    assert info.values == pytest.approx(brute_force(state))


@pytest.mark.parametrize("pile", [2, 5, 6, 9])
def test_alphabeta_takes_the_expectation_at_chance_nodes(nim, brute_force, pile):
    state = nim(pile=pile, dice=True).new_initial_state()
    state.apply_action(3)  # the first chance node: nothing removed
    info = AlphaBetaAgent(seed=0, budget=Budget(depth=20), width=None).analyse(state)
    assert info.proven
    assert info.values == pytest.approx(brute_force(state))


@pytest.mark.parametrize("pile", [4, 5, 7, 9])
def test_mcts_solver_proves_nim(nim, brute_force, pile):
    state = nim(pile=pile).new_initial_state()
    info = MCTSAgent(seed=1, budget=Budget(iterations=20_000)).analyse(state)
    exact = brute_force(state)
    assert info.proven
    assert info.values == pytest.approx(exact)
    assert info.iterations < 20_000  # the proof stopped the search early


@pytest.mark.parametrize("pile", [3, 7, 10])
def test_mcts_solver_with_repeated_turns(nim, brute_force, pile):
    state = nim(pile=pile, bonus=True).new_initial_state()
    info = MCTSAgent(seed=2, budget=Budget(iterations=20_000)).analyse(state)
    assert info.proven
    assert info.values == pytest.approx(brute_force(state))


def test_mcts_max_n_with_three_players_takes_the_win(nim):
    state = nim(pile=3, players=3).new_initial_state()
    info = MCTSAgent(seed=0, budget=Budget(iterations=200)).analyse(state)
    assert state.action_to_string(info.action) == "take3"
    assert info.proven and info.values == pytest.approx([1.0, -0.5, -0.5])


@pytest.mark.parametrize("pile", [4, 5])
def test_mcts_three_players_matches_max_n_values(nim, brute_force, pile):
    # Piles where the root player's own result does not hang on how others break ties.
    state = nim(pile=pile, players=3).new_initial_state()
    info = MCTSAgent(seed=0, budget=Budget(iterations=30_000)).analyse(state)
    assert info.proven
    # Max^n breaks a player's ties arbitrarily, which moves the others' values: only the
    # root player's own value is determined.
    assert info.values[0] == pytest.approx(brute_force(state)[0])


def test_mcts_chance_nodes_are_sampled(nim):
    state = nim(pile=3, dice=True).new_initial_state()
    state.apply_action(3)
    info = MCTSAgent(seed=0, budget=Budget(iterations=500)).analyse(state)
    assert state.action_to_string(info.action) == "take3"  # an immediate win


@pytest.mark.parametrize("pile", [4, 6, 9])
def test_mcts_estimates_the_expectation_at_chance_nodes(nim, brute_force, pile):
    # The solver proves wins and losses; an expectation (or a draw) it only estimates, since
    # proving one needs every sibling proven too.
    state = nim(pile=pile, dice=True).new_initial_state()
    state.apply_action(3)
    info = MCTSAgent(seed=0, budget=Budget(iterations=20_000)).analyse(state)
    exact = brute_force(state)
    assert info.values[0] == pytest.approx(exact[0], abs=0.05)
    child = state.clone()
    child.apply_action(info.action)
    assert brute_force(child)[0] == pytest.approx(exact[0])


def _classic_endgame(seed: int, limit: int = 3000):
    """Returns a late classic position (player to move) whose whole tree is small."""
    game = cathedral.load("classic")
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    for candidate in reversed(states):
        if _tree_size(candidate, limit) > limit:
            break
        best = candidate
    return best


def _tree_size(state, limit):
    count = 1
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        count += _tree_size(child, limit)
        if count > limit:
            break
    return count


def _minimax(state):
    player = state.current_player()
    if player == TERMINAL:
        return state.returns()
    best = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values = _minimax(child)
        if best is None or values[player] > best[player]:
            best = values
    return best


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_classic_endgame_values_are_exact(seed):
    state = _classic_endgame(seed)
    exact = _minimax(state)
    player = state.current_player()
    info = AlphaBetaAgent(seed=0, budget=Budget(depth=30), width=None, root_width=None).analyse(
        state
    )
    assert info.proven
    assert info.values[player] == pytest.approx(exact[player])
    mcts = MCTSAgent(seed=0, budget=Budget(iterations=20_000), widen=0).analyse(state)
    if abs(exact[player]) == 1:  # the solver proves wins and losses (not draws)
        assert mcts.proven
        assert mcts.values[player] == pytest.approx(exact[player])
        child = state.clone()
        child.apply_action(mcts.action)
        assert _minimax(child)[player] == pytest.approx(exact[player])
