"""The PettingZoo AEC environments pass PettingZoo's own tests and play the real games."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test

import cathedral
from cathedral.envs.pettingzoo import env, raw_env

# PettingZoo advises plain array observations to every environment not on its own list, even
# to the dict-with-action-mask layout of its own board games; nothing else may show.
ADVICE = ("Observation space for each agent probably should be", "Observation is not a NumPy")


def play_out(environment, seed: int) -> dict[str, float]:
    """Plays one random game through the AEC loop; returns each agent's last reward seen."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    final = {}
    for agent in environment.agent_iter():
        obs, reward, termination, truncation, _ = environment.last()
        if termination or truncation:
            final[agent] = reward
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        environment.step(action)
    return final


def test_api_test(config):
    name, params = config
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # PettingZoo reports its findings as warnings
        api_test(env(name, **params), num_cycles=60)
    findings = [str(w.message) for w in caught if not str(w.message).startswith(ADVICE)]
    assert findings == []


def test_seed_test(config):
    name, params = config
    seed_test(lambda: env(name, **params), num_cycles=60)


def test_render_test(config):
    name, params = config
    render_test(lambda render_mode=None: env(name, render_mode=render_mode, **params))


def test_spaces_come_from_the_game(config):
    name, params = config
    game = cathedral.load(name, **params)
    environment = env(name, **params)
    environment.reset(seed=0)
    names = game.player_names()
    assert environment.possible_agents == [f"{n.lower()}_{p}" for p, n in enumerate(names)]
    for agent in environment.possible_agents:
        space = environment.observation_space(agent)
        assert space["observation"].shape == game.observation_shape()
        assert space["action_mask"].shape == (game.num_distinct_actions(),)
        assert environment.action_space(agent).n == game.num_distinct_actions()


def test_observation_and_mask_are_the_engines(config):
    name, params = config
    environment = raw_env(name, **params)
    environment.reset(seed=3)
    for _ in range(30):
        state = environment.game_state
        if state.is_terminal():
            break
        agent = environment.agent_selection
        player = state.current_player()
        obs = environment.observe(agent)
        assert np.array_equal(obs["observation"], state.observation_tensor(player))
        assert np.flatnonzero(obs["action_mask"]).tolist() == state.legal_actions()
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        environment.step(state.legal_actions()[-1])


def test_rewards_are_the_returns_at_the_end(config):
    name, params = config
    environment = raw_env(name, **params)
    final = play_out(environment, seed=5)
    returns = environment.game_state.returns()
    assert environment.game_state.is_terminal()
    assert final == {a: returns[p] for p, a in enumerate(environment.possible_agents)}
    assert environment.agents == []


def test_reset_with_a_seed_replays_the_same_game():
    first = raw_env("red", players=3)
    play_out(first, seed=11)
    second = raw_env("red", players=3)
    play_out(second, seed=11)
    assert first.game_state.history() == second.game_state.history()
    play_out(second, seed=12)
    assert first.game_state.history() != second.game_state.history()


def test_chance_is_resolved_inside_the_environment():
    environment = raw_env("red", players=2)
    environment.reset(seed=0)
    state = environment.game_state
    assert state.current_player() >= 0
    # setup is all chance: the history already holds the tiles, cards and dice drawn
    assert len(state.history()) > 10


def test_an_eliminated_allmer_player_leaves_the_agent_list():
    game = cathedral.load("allmer", players=4)
    # White converts Blue's line down to 3 stones: Blue is out, the others play on.
    state = type(game.new_initial_state()).from_position(
        game,
        {"W": "h4 g1 i1 j1", "U": "h6 h7 h8 a7 a8 a9", "B": "h15 i15 j15 h14", "R": "o7 o8 o9 o10"},
    )
    environment = raw_env(game)
    environment.reset(seed=0)
    environment.game_state = state
    action = state.string_to_action("h4-h5A")
    environment.step(action)
    assert environment.terminations["blue_1"]
    assert environment.rewards["blue_1"] == -1.0
    assert environment.agent_selection == "blue_1"  # the dead agent steps first, with None
    environment.step(None)
    assert environment.agents == ["white_0", "black_2", "red_3"]
    assert "blue_1" not in environment.rewards
    rng = np.random.default_rng(0)
    for _agent in environment.agent_iter():
        obs, _, termination, truncation, _ = environment.last()
        done = termination or truncation
        environment.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert environment.game_state.returns()[1] == -1.0  # the place settled at elimination held


@pytest.mark.parametrize(
    ("name", "params"),
    [("allmer", {"players": 4, "max_turns": 12}), ("red", {"players": 4, "turn_cap": 1})],
)
def test_api_test_through_the_end_of_a_game(name, params):
    # api_test plays up to num_cycles rounds; these settings end every game well before that
    short = raw_env(name, **params)
    play_out(short, seed=0)
    decisions = sum(1 for _ in short.game_state.history())
    assert decisions < 400
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        api_test(env(name, **params), num_cycles=400)


def test_illegal_action_raw_raises_and_changes_nothing():
    environment = raw_env("classic")
    environment.reset(seed=0)
    before = environment.game_state.to_json()
    with pytest.raises(cathedral.IllegalActionError, match="illegal action"):
        environment.step(0 if not environment.observe("light_0")["action_mask"][0] else 1)
    assert environment.game_state.to_json() == before


def test_illegal_action_wrapped_loses_the_game():
    environment = env("classic")
    environment.reset(seed=0)
    mask = environment.observe("light_0")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        environment.step(illegal)
    assert environment.rewards["light_0"] == -1.0
    assert all(environment.terminations.values())


def test_bad_render_mode_and_parameters_are_refused():
    with pytest.raises(cathedral.ParameterError, match="render_mode"):
        raw_env("classic", render_mode="svg")
    with pytest.raises(cathedral.ParameterError, match="players"):
        raw_env("allmer", players=3)
    with pytest.raises(cathedral.UnknownGameError):
        raw_env("chess")


def test_ansi_and_rgb_array_show_the_position():
    environment = raw_env("classic", render_mode="ansi")
    environment.reset(seed=0)
    text = environment.render()
    assert "Light" in text and "a" in text
    picture = raw_env("classic", render_mode="rgb_array")
    picture.reset(seed=0)
    empty = picture.render()
    picture.step(int(np.flatnonzero(picture.observe("light_0")["action_mask"])[0]))
    placed = picture.render()
    assert empty.dtype == np.uint8 and empty.shape[2] == 3
    assert not np.array_equal(empty, placed)  # the Cathedral now stands on the board


def test_env_wraps_with_pettingzoos_own_wrappers():
    from pettingzoo.utils import wrappers

    environment = env("classic")
    assert isinstance(environment, wrappers.OrderEnforcingWrapper)
    assert isinstance(environment.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(environment.env.env, wrappers.TerminateIllegalWrapper)
    assert isinstance(environment.unwrapped, raw_env)
    with pytest.raises(AttributeError, match="before reset"):
        environment.agent_selection  # noqa: B018 - the access is the test
    environment.reset(seed=0)
    assert environment.agent_selection == environment.unwrapped.agent_selection == "light_0"
    with pytest.raises(AssertionError, match="action space"):
        environment.step(2765)


def pettingzoos_own_wrapping(name: str, **params):
    """``raw_env`` wrapped in PettingZoo's original wrappers, as ``env()`` wraps it."""
    from pettingzoo.utils import wrappers

    environment = wrappers.TerminateIllegalWrapper(raw_env(name, **params), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(environment))


def trace(environment, seed: int, limit: int = 120) -> list:
    """Everything an AEC loop sees over one game whose actions are mostly legal ints, now and
    then numpy ints, and for odd seeds an illegal action at the tenth step (which ends it)."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        for step, agent in enumerate(environment.agent_iter(max_iter=limit)):
            obs, reward, termination, truncation, info = environment.last()
            seen.append(
                (
                    agent,
                    obs["observation"].tobytes(),
                    obs["action_mask"].tobytes(),
                    reward,
                    termination,
                    truncation,
                    dict(info),
                    dict(environment.rewards),
                    list(environment.agents),
                )
            )
            if termination or truncation:
                action = None
            elif step == 10 and seed % 2:
                action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                if rng.random() < 0.2:
                    action = np.int64(action)
            environment.step(action)
    return seen


@pytest.mark.parametrize(("name", "params"), [("classic", {}), ("allmer", {"players": 4})])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_default_wrappers_behave_as_pettingzoos_own(name, params, seed):
    assert trace(env(name, **params), seed) == trace(pettingzoos_own_wrapping(name, **params), seed)


def test_default_wrappers_refuse_what_pettingzoos_own_refuse():
    environment = env("classic")
    with pytest.raises(AttributeError, match="before reset"):
        environment.last()
    environment.reset(seed=0)
    for bad in (-1, 10**6, 1.5, "a1"):
        with pytest.raises(AssertionError, match="action space"):
            environment.step(bad)
    assert environment.unwrapped.game_state.history() == []
