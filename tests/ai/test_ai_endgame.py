"""The exact endgame solver against brute force, and alpha-beta handing it the endgame."""

from __future__ import annotations

import pytest

import cathedral
from cathedral.ai import analysis, load_agent
from cathedral.ai.alphabeta import AlphaBetaAgent
from cathedral.ai.budget import Budget, Deadline
from cathedral.ai.endgame import EndgameSolver, final_margin
from cathedral.ai.levels import level_spec


def brute_force(state, root: int) -> float:
    """The root player's margin with best play, by plain minimax over every legal action."""
    if state.is_terminal():
        return final_margin(state, root)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(brute_force(child, root))
    return max(values) if state.current_player() == root else min(values)


@pytest.fixture(scope="module")
def greedy_games():
    """The positions of three greedy classic games, each a list from the first move on."""
    game = cathedral.load("classic")
    lines = []
    for seed in range(3):
        agent = load_agent("greedy", game, seed=seed)
        state, line = game.new_initial_state(), []
        while not state.is_terminal():
            line.append(state.clone())
            state.apply_action(agent.choose(state))
        lines.append(line)
    return lines


@pytest.mark.parametrize("back", [1, 2, 3])
def test_endgame_solver_margin_equals_brute_force(greedy_games, back):
    for line in greedy_games:
        state = line[-back]
        root = state.current_player()
        solution = EndgameSolver().solve(state, Deadline(Budget(iterations=1_000_000)))
        assert solution is not None
        assert solution.margin == brute_force(state, root)
        # The chosen action itself achieves the margin.
        child = state.clone()
        child.apply_action(solution.action)
        assert brute_force(child, root) == solution.margin


def test_endgame_solver_reused_table_gives_the_same_answers(greedy_games):
    solver = EndgameSolver()
    line = greedy_games[0]
    first = [solver.solve(line[-b], Deadline(Budget(iterations=1_000_000))) for b in (1, 2, 3)]
    again = [solver.solve(line[-b], Deadline(Budget(iterations=1_000_000))) for b in (3, 2, 1)]
    assert [s.margin for s in first] == [s.margin for s in reversed(again)]


def test_endgame_solver_pv_is_legal_and_ends_the_game(greedy_games):
    state = greedy_games[1][-3].clone()
    solution = EndgameSolver().solve(state, Deadline(Budget(iterations=1_000_000)))
    for action in solution.pv:
        state.apply_action(action)  # raises on an illegal action
    assert state.is_terminal()
    assert final_margin(state, greedy_games[1][-3].current_player()) == solution.margin


def test_endgame_solver_gives_up_when_the_budget_runs_out(greedy_games):
    state = greedy_games[0][0]  # the first move: far too big to solve
    solver = EndgameSolver()
    assert solver.solve(state, Deadline(Budget(iterations=50))) is None
    assert solver.nodes == 50


def _sign_only(state) -> tuple[int, object]:
    """Returns a node budget within which the solver proves who wins ``state`` but not by
    how much (halving the full solve's nodes until the margin is out of reach), and that
    inexact solution."""
    budget = EndgameSolver().solve(state, Deadline(Budget(iterations=10**7))).nodes
    while budget > 1:
        budget //= 2
        solution = EndgameSolver().solve(state, Deadline(Budget(iterations=budget)))
        if solution is None:
            break
        if not solution.exact:
            return budget, solution
    pytest.fail("no budget proves only the sign")


@pytest.mark.parametrize(("game", "back"), [(1, 5), (0, 6), (2, 3)])
def test_endgame_solver_proves_the_winner_before_the_margin(greedy_games, game, back):
    # The first pass asks only who wins (a window around a draw), within a fraction of the
    # nodes the exact margin needs; out of budget then, the proven result is still given.
    state = greedy_games[game][-back]
    root = state.current_player()
    exact = EndgameSolver().solve(state, Deadline(Budget(iterations=10**7))).margin
    _, solution = _sign_only(state)
    assert exact != 0 and (solution.margin > 0) == (exact > 0)
    if exact > 0:  # a win by at least the bound, and its action wins
        assert 1 <= solution.margin <= exact
        child = state.clone()
        child.apply_action(solution.action)
        assert brute_force(child, root) >= 1
    else:
        assert exact <= solution.margin <= -1


def test_endgame_solver_can_stop_once_the_winner_is_known(greedy_games):
    state = greedy_games[1][-5]
    root = state.current_player()
    solution = EndgameSolver().solve(state, Deadline(Budget(iterations=10**7)), margin=False)
    assert not solution.exact and solution.margin >= 1  # a win, by at least so much
    assert solution.margin <= brute_force(state, root)
    full = EndgameSolver().solve(state, Deadline(Budget(iterations=10**7)))
    assert solution.nodes < full.nodes


def test_alphabeta_plays_a_proven_win_whose_margin_is_out_of_reach(greedy_games):
    state = greedy_games[1][-5]
    root = state.current_player()
    budget, solution = _sign_only(state)
    assert solution.margin > 0
    agent = AlphaBetaAgent(seed=0, budget=Budget(iterations=2 * budget), endgame=0.5)
    info = agent.analyse(state)
    assert info.proven and not info.margin_exact and info.margin == solution.margin
    assert info.values[root] == 1.0 and info.action == solution.action
    assert analysis.solved_words(state, info.margin, info.margin_exact).endswith(
        f"wins by at least {solution.margin:g}")


def test_alphabeta_searches_on_in_a_loss_of_unknown_margin(greedy_games):
    # Every move loses: without the exact margin the solver has nothing to choose by, so the
    # heuristic search plays for the opponent's mistakes in the time left.
    state = greedy_games[0][-6]
    budget, solution = _sign_only(state)
    assert solution.margin < 0
    agent = AlphaBetaAgent(seed=0, budget=Budget(iterations=2 * budget), endgame=0.5)
    info = agent.analyse(state)
    assert info.margin is None and agent.solver.nodes == budget
    assert info.action in state.legal_actions()


def test_endgame_solver_refuses_games_it_cannot_solve():
    state = cathedral.load("allmer", players=4).new_initial_state()
    with pytest.raises(ValueError, match="two-player"):
        EndgameSolver().solve(state, Deadline(Budget(iterations=10)))


def test_alphabeta_with_endgame_reports_the_solved_margin(greedy_games):
    state = greedy_games[2][-3]
    agent = AlphaBetaAgent(seed=0, budget=Budget(iterations=200_000), endgame=0.5)
    info = agent.analyse(state)
    root = state.current_player()
    assert info.proven
    assert info.margin == brute_force(state, root)
    sign = (info.margin > 0) - (info.margin < 0)
    assert info.values[root] == sign and info.values[1 - root] == -sign


def test_alphabeta_without_endgame_reports_no_margin(greedy_games):
    agent = AlphaBetaAgent(seed=0, budget=Budget(depth=1))
    assert agent.analyse(greedy_games[2][-3]).margin is None


def test_alphabeta_endgame_waits_for_a_small_position(greedy_games):
    # The opening has hundreds of legal placements: the solver is not even tried.
    agent = AlphaBetaAgent(seed=0, budget=Budget(depth=1), endgame=0.5, endgame_actions=40)
    info = agent.analyse(greedy_games[0][1])
    assert info.margin is None and agent.solver.nodes == 0


def test_the_race_answers_with_the_solvers_exact_margin(greedy_games):
    # On two cores one worker solves while the other searches: the solver's answer wins.
    state = greedy_games[2][-3]
    root = state.current_player()
    agent = AlphaBetaAgent(seed=0, budget=Budget(iterations=400_000), endgame=0.5, workers=2)
    try:
        info = agent.analyse(state)
    finally:
        agent.close()
    assert info.proven and info.margin_exact
    assert info.margin == brute_force(state, root)
    child = state.clone()
    child.apply_action(info.action)
    assert brute_force(child, root) == info.margin


def test_the_race_plays_the_search_where_the_solver_does_not_finish(greedy_games):
    state = greedy_games[0][-9]
    nodes = EndgameSolver().solve(state, Deadline(Budget(iterations=10**7)), margin=False).nodes
    agent = AlphaBetaAgent(seed=0, budget=Budget(iterations=nodes), endgame=0.5,
                           endgame_actions=1000, workers=2)  # half the nodes each: too few
    try:
        info = agent.analyse(state)
    finally:
        agent.close()
    assert info.margin is None and info.depth >= 1
    assert info.action in state.legal_actions()


def test_the_race_is_run_only_for_positions_the_solver_may_take(greedy_games):
    agent = AlphaBetaAgent(seed=0, budget=Budget(depth=1), endgame=0.5, endgame_actions=40,
                           workers=2)
    try:
        info = agent.analyse(greedy_games[0][1])  # hundreds of legal placements
    finally:
        agent.close()
    assert info.margin is None and info.depth == 1


def test_the_race_is_not_run_under_a_depth_alone(greedy_games):
    # The solver's cost has no bound without time or nodes: it would race for ever.
    state = greedy_games[0][-9]
    agent = AlphaBetaAgent(seed=0, budget=Budget(depth=1), endgame=0.5, workers=2)
    try:
        assert not agent._endgame_eligible(state)
        info = agent.analyse(state)
    finally:
        agent.close()
    assert info.margin is None and info.depth == 1


def test_classic_hard_and_max_use_the_endgame_solver():
    for level in ("hard", "max"):
        name, kwargs = level_spec(level, "classic")
        assert name == "alphabeta" and kwargs["endgame"] > 0
    with pytest.raises(ValueError, match="endgame"):
        load_agent("alphabeta:depth=1,endgame=2", cathedral.load("classic"))
