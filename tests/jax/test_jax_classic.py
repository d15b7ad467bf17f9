"""The JAX engine of classic (``cathedral.jax.classic``) against the reference engine: random
games played through both with the same actions, compared at every step, and pgx's conventions
(terminal no-ops, illegal actions, the registry, the conversions)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

import cathedral  # noqa: E402
import cathedral.jax as cj  # noqa: E402
from cathedral.games.classic.pieces import NUM_ACTIONS  # noqa: E402
from cathedral.games.classic.state import ClassicState  # noqa: E402

GAMES = 200


@pytest.fixture(scope="module")
def env():
    return cj.make("classic")


@pytest.fixture(scope="module")
def step(env):
    return jax.jit(jax.vmap(env.step))


@pytest.fixture(scope="module")
def observe(env):
    return jax.jit(jax.vmap(env.observe, in_axes=(0, None)))


def play_differential(env, step, observe, games: int, seed: int, opening: str) -> dict:
    """Plays ``games`` random games batched through the JAX engine and one by one through the
    reference, asserting equality at every step; returns counts of what was seen."""
    game = cathedral.load("classic", opening=opening)
    rng = np.random.default_rng(seed)
    refs = [game.new_initial_state() for _ in range(games)]
    state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(seed), games))
    seen = {"steps": 0, "captures": 0, "passes": 0, "draws": 0}
    ended = np.zeros(games, dtype=bool)  # before the last step
    while True:
        host = jax.device_get(state)
        views = [np.asarray(observe(state, p)) for p in (0, 1)]
        actions = np.zeros(games, dtype=np.int32)
        for i, ref in enumerate(refs):
            where = f"game {i}, step {len(ref.history())}"
            assert bool(host.terminated[i]) == ref.is_terminal(), where
            for p in (0, 1):
                assert np.array_equal(views[p][i], ref.observation_tensor(p)), (where, p)
            if ref.is_terminal():
                # The returns on the final step; zero on the no-op steps after it (pgx).
                expected = [0.0, 0.0] if ended[i] else ref.returns()
                assert host.rewards[i].tolist() == expected, where
                continue
            assert not host.rewards[i].any(), where
            assert int(host.current_player[i]) == ref.current_player(), where
            assert np.array_equal(host.legal_action_mask[i], ref.legal_actions_mask()), where
            assert np.array_equal(host.observation[i], ref.observation_tensor()), where
            actions[i] = rng.choice(ref.legal_actions())
        if all(ref.is_terminal() for ref in refs):
            break
        ended = np.asarray(host.terminated).copy()
        for i, ref in enumerate(refs):
            if ref.is_terminal():
                continue
            before = len(ref.position.pieces[0]) + len(ref.position.pieces[1])
            mover = ref.current_player()
            ref.apply_action(int(actions[i]))
            seen["steps"] += 1
            after = len(ref.position.pieces[0]) + len(ref.position.pieces[1])
            seen["captures"] += after < before + (0 if actions[i] >= env_cathedral() else 1)
            seen["passes"] += ref.current_player() == mover and actions[i] < env_cathedral()
            if ref.is_terminal() and ref.returns() == [0.0, 0.0]:
                seen["draws"] += 1
        state = step(state, jnp.asarray(actions))
    return seen


def env_cathedral() -> int:
    from cathedral.jax.classic import CATHEDRAL_START

    return CATHEDRAL_START


def test_jax_random_games_match_reference_at_every_step(env, step, observe):
    seen = play_differential(env, step, observe, GAMES, seed=0, opening="standard")
    # The random games exercise the rules that matter: captures and skipped turns.
    assert seen["steps"] > 20 * GAMES
    assert seen["captures"] > 0
    assert seen["passes"] > 0


def test_jax_lehmann_opening_matches_reference():
    env = cj.make("classic", opening="lehmann")
    step = jax.jit(jax.vmap(env.step))
    observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)))
    seen = play_differential(env, step, observe, 24, seed=1, opening="lehmann")
    assert seen["steps"] > 0


def test_jax_first_placement_is_the_cathedral(env):
    state = env.init(jax.random.PRNGKey(0))
    legal = np.flatnonzero(np.asarray(state.legal_action_mask))
    assert int(state.current_player) == 0
    assert legal.min() == env_cathedral() and legal.max() == NUM_ACTIONS - 1


def random_reference_states(count: int, seed: int) -> list[ClassicState]:
    game = cathedral.load("classic")
    rng = np.random.default_rng(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        stop = int(rng.integers(0, 40))
        while not state.is_terminal() and len(state.history()) < stop:
            state.apply_action(int(rng.choice(state.legal_actions())))
        states.append(state)
    return states


def single(step, state, action: int):
    """Steps one unbatched state through the batched, already compiled ``step``."""
    batched = jax.tree.map(lambda x: x[None], state)
    return jax.tree.map(lambda x: x[0], step(batched, jnp.int32([action])))


def test_jax_conversion_round_trip(env, step):
    for ref in random_reference_states(12, seed=2):
        state = env.from_reference(ref)
        back = env.to_reference(state)
        assert back.position_key() == ref.position_key()
        assert bool(state.terminated) == ref.is_terminal()
        if ref.is_terminal():
            assert state.rewards.tolist() == ref.returns()
            continue
        assert np.array_equal(np.asarray(state.legal_action_mask), ref.legal_actions_mask())
        assert np.array_equal(np.asarray(state.observation), ref.observation_tensor())
        # The converted state plays on exactly as the reference does.
        action = ref.legal_actions()[0]
        ref.apply_action(action)
        after = env.to_reference(single(step, state, action))
        assert after.position_key() == ref.position_key()
        again = env.from_reference(env.to_reference(state))
        for name in ("_walls", "_territory", "_cathedral", "_cathedral_state", "_built"):
            assert np.array_equal(getattr(again, name), getattr(state, name)), name


def finished_state(env, step):
    rng = np.random.default_rng(3)
    state = env.init(jax.random.PRNGKey(0))
    while not bool(state.terminated):
        state = single(step, state, int(rng.choice(np.flatnonzero(state.legal_action_mask))))
    return state


def test_jax_step_on_terminated_state_is_a_noop(env, step):
    done = finished_state(env, step)
    assert float(jnp.abs(done.rewards).sum()) in (0.0, 2.0)
    assert bool(done.legal_action_mask.all())  # pgx: every action "legal" at the end
    again = single(step, done, 0)
    assert bool(again.terminated)
    assert not bool(again.rewards.any())
    for name in ("_walls", "_territory", "_slots", "_cathedral", "current_player"):
        assert np.array_equal(getattr(again, name), getattr(done, name)), name


def test_jax_illegal_action_loses_as_in_pgx(env, step):
    state = env.init(jax.random.PRNGKey(0))
    illegal = 0  # a Tavern: Light must place the Cathedral first
    assert not bool(state.legal_action_mask[illegal])
    after = single(step, state, illegal)
    assert bool(after.terminated)
    assert after.rewards.tolist() == [-1.0, 1.0]


def test_jax_observe_any_player(env):
    ref = random_reference_states(1, seed=4)[0]
    state = env.from_reference(ref)
    for player in (0, 1):
        assert np.array_equal(np.asarray(env.observe(state, player)),
                              ref.observation_tensor(player))


def test_jax_pgx_api(env):
    assert isinstance(env.id, str) and isinstance(env.version, str)
    assert env.num_players == 2
    assert env.num_actions == NUM_ACTIONS
    assert env.observation_shape == (cathedral.load("classic").observation_shape()[0],)
    from pgx.experimental import auto_reset

    batch = 4
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = jax.vmap(env.init)(keys)
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    rng = np.random.default_rng(5)
    for _ in range(40):  # longer than a game: every game restarts at least once
        mask = np.asarray(state.legal_action_mask)
        actions = jnp.asarray([rng.choice(np.flatnonzero(m)) for m in mask], dtype=jnp.int32)
        state = step(state, actions, jax.random.split(jax.random.PRNGKey(1), batch))
    assert state.legal_action_mask.shape == (batch, NUM_ACTIONS)


def test_jax_make_rejects_unknown_names_and_params():
    with pytest.raises(ValueError, match="classic"):
        cj.make("chess")
    with pytest.raises(ValueError, match="opening"):
        cj.make("classic", opening="sideways")
    with pytest.raises(ValueError):
        cj.make("classic", players=4)
