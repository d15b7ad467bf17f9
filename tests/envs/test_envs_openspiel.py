"""The OpenSpiel registrations pass OpenSpiel's own random simulation test and its Python MCTS
plays them unchanged."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

import cathedral  # noqa: E402
import cathedral.envs.openspiel  # noqa: E402 - registers the games
from cathedral.envs.openspiel import SHORT_NAMES  # noqa: E402


def shortened(name: str, params: dict) -> dict:
    """Returns ``params`` with the long games cut short by their own length parameters, so that
    OpenSpiel's per-step checks (every player's observation string, serialization) stay quick;
    the interface under test is the same."""
    if name == "allmer" and params.get("players") == 4:
        return {**params, "max_turns": 80}
    if name == "red":
        return {**params, "turn_cap": 6 if params.get("players") == 2 else 3}
    return params


def load(name: str, params: dict) -> pyspiel.Game:
    return pyspiel.load_game(SHORT_NAMES[name], params)


def test_the_three_games_are_registered():
    names = set(pyspiel.registered_names())
    assert {"cathedral_classic", "cathedral_allmer", "cathedral_red"} <= names
    red = pyspiel.load_game("cathedral_red").get_type()
    assert red.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert red.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert red.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_random_sim_test_with_serialization(config):
    name, params = config
    game = load(name, shortened(name, params))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_facts_are_the_engines(config):
    name, params = config
    game = load(name, params)
    engine = cathedral.load(name, **params)
    assert game.num_players() == engine.num_players
    assert game.num_distinct_actions() == engine.num_distinct_actions()
    assert tuple(game.observation_tensor_shape()) == engine.observation_shape()
    assert game.max_game_length() == engine.max_game_length()
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


def test_observation_tensor_and_clone_and_serialization_round_trip():
    game = pyspiel.load_game("cathedral_allmer", {"players": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    engine = state.engine
    for player in range(4):
        tensor = np.array(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(tensor, engine.observation_tensor(player).ravel())
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history()) == 25 and len(copy.history()) == 26
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state) and again.history() == state.history()
    assert again.engine.to_json() == engine.to_json()


def test_parameters_reach_the_engine_and_bad_ones_are_refused():
    game = pyspiel.load_game("cathedral_allmer(players=4,max_turns=7,withdraw=True)")
    engine = game.new_initial_state().engine.game
    assert engine.params["players"] == 4 and engine.params["max_turns"] == 7
    assert engine.params["withdraw"] is True
    assert pyspiel.load_game("cathedral_allmer").new_initial_state().engine.game.params[
        "max_turns"
    ] is None  # -1, OpenSpiel's "none", is the default turn cap
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("cathedral_allmer(players=3)")


def test_an_illegal_action_raises_and_changes_nothing():
    state = pyspiel.load_game("cathedral_classic").new_initial_state()
    illegal = next(a for a in range(2765) if a not in set(state.legal_actions()))
    with pytest.raises(Exception, match="illegal action"):
        state.apply_action(illegal)
    assert state.history() == []


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("classic", {}),
        ("allmer", {"players": 2, "max_turns": 40}),
        ("allmer", {"players": 4, "max_turns": 40}),
        ("red", {"players": 2, "turn_cap": 4}),
        ("red", {"players": 4, "turn_cap": 2}),
    ],
    ids=["classic", "allmer2", "allmer4", "red2", "red4"],
)
def test_openspiel_mcts_plays_a_complete_game_against_uniform_random(name, params):
    game = load(name, params)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    players = game.num_players()
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                         random_state=rng)]
    bots += [uniform_random.UniformRandomBot(p, rng) for p in range(1, players)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    assert returns == state.engine.returns() and abs(sum(returns)) < 1e-9
    assert state.engine.is_terminal()
