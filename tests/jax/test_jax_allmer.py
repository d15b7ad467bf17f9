"""The JAX engine of Allmer's Cathedral against the reference engine, step by step."""

from __future__ import annotations

import random

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

from cathedral.games.allmer.state import AllmerState as RefState  # noqa: E402
from cathedral.jax import allmer  # noqa: E402

_ENVS = {}
_JITTED = {}


def _env(**params):
    """One env per setting for the whole module, so that each compiles once."""
    key = tuple(sorted(params.items()))
    if key not in _ENVS:
        _ENVS[key] = allmer.make(**params)
    return _ENVS[key]


def _jitted(env):
    if id(env) not in _JITTED:
        _JITTED[id(env)] = (jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step)))
    return _JITTED[id(env)]


def _step_one(env, state, action: int, batch: int):
    """Steps one unbatched state with the env's batched step (copied ``batch`` times, the
    batch size its differential test compiled for), returning the first copy."""
    _, step = _jitted(env)
    states = jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (batch, *x.shape)), state)
    out = step(states, jnp.full(batch, action, jnp.int32))
    return _tree_index(jax.device_get(out), 0)


def _choose(ref, rng: random.Random, greed: float, undo: float = 0.0) -> int:
    """A random legal action; with probability ``greed`` a converting one when there is one
    (so that eliminations and long chains happen), with probability ``undo`` one that walks
    the mover's last stone back (so that positions repeat)."""
    legal = ref.legal_actions()
    if undo and rng.random() < undo:
        back = [a for a in legal if ref.undoes(a)]
        if back:
            return back[0]
    if rng.random() < greed:
        converting = [a for a in legal if ref.converts(a)]
        if converting:
            return rng.choice(converting)
    return rng.choice(legal)


def _assert_same(jstate, ref, where: str) -> None:
    """The pgx view of one state equals the reference's."""
    terminal = ref.is_terminal()
    assert bool(jstate.terminated) == terminal, where
    assert not bool(jstate.truncated), where
    assert int(jstate.current_player) == ref.player, where
    mask = np.asarray(jstate.legal_action_mask)
    if terminal:
        assert mask.all(), where  # pgx's convention for finished games
    else:
        assert np.array_equal(np.flatnonzero(mask), ref.legal_actions()), where
    assert np.array_equal(np.asarray(jstate.observation), ref.observation_tensor()), where


def _tree_index(tree, i):
    return jax.tree_util.tree_map(lambda x: x[i], tree)


def _tree_equal(a, b) -> bool:
    leaves_a, tree_a = jax.tree_util.tree_flatten(a)
    leaves_b, tree_b = jax.tree_util.tree_flatten(b)
    return tree_a == tree_b and all(
        np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(leaves_a, leaves_b)
    )


def _same_state(a, b) -> bool:
    """Whether two unbatched states are equal, the turn-start keys compared as a multiset (the
    order they are stored in carries no meaning)."""

    def canonical(state):
        k = int(state._n_seen)
        keys = sorted(zip(np.asarray(state._seen_hi)[:k], np.asarray(state._seen_lo)[:k]))
        hi = np.zeros_like(np.asarray(state._seen_hi))
        lo = np.zeros_like(hi)
        if keys:
            hi[:k], lo[:k] = zip(*keys)
        return state.replace(_seen_hi=hi, _seen_lo=lo)

    return _tree_equal(canonical(a), canonical(b))


def _ref_dict(ref) -> dict:
    data = ref._to_dict()
    data.pop("history")
    return data


def _play_differential(
    env, games: int, batch: int, max_plies: int, greed: float, seed: int, undo: float = 0.0
):
    """Plays ``games`` games (``batch`` at a time, each capped at ``max_plies`` steps) on both
    engines with the same actions, comparing everything pgx exposes after every step.

    Returns the reference terminations seen (None for a game cut at the cap) and the number
    of round trips checked.
    """
    init, step = _jitted(env)
    game = env.reference_game()
    rng = random.Random(seed)
    terminations = []
    round_trips = 0
    n = env.num_players
    for first in range(0, games, batch):
        size = min(batch, games - first)
        keys = jax.random.split(jax.random.PRNGKey(first), size)
        jstates = init(keys)
        host = jax.device_get(jstates)
        refs = [game.new_initial_state() for _ in range(size)]
        for i in range(size):
            _assert_same(_tree_index(host, i), refs[i], f"game {first + i} at start")
        live = list(range(size))
        for ply in range(max_plies):
            if not live:
                break
            actions = np.zeros(size, np.int32)
            for i in live:
                actions[i] = _choose(refs[i], rng, greed, undo)
                refs[i].apply_action(int(actions[i]))
            before = host
            jstates = step(jstates, jnp.asarray(actions))
            host = jax.device_get(jstates)
            for i in list(live):
                js = _tree_index(host, i)
                where = f"game {first + i} ply {ply + 1} ({env.params})"
                _assert_same(js, refs[i], where)
                expected = refs[i].returns() if refs[i].is_terminal() else [0.0] * n
                assert np.allclose(js.rewards, expected), where
                if ply % 97 == i % 97 or refs[i].is_terminal():
                    js_dev = js
                    back = allmer.to_reference(js_dev, env)
                    assert _ref_dict(back) == _ref_dict(refs[i]), where
                    again = allmer.from_reference(refs[i], env)
                    assert _same_state(
                        again.replace(rewards=js_dev.rewards, _step_count=js_dev._step_count),
                        js_dev,
                    ), where
                    round_trips += 1
                if refs[i].is_terminal():
                    terminations.append(refs[i].termination)
                    live.remove(i)
            # a finished game stays as it is under further steps, with zero rewards
            done = np.asarray(before.terminated)
            if done.any():
                for i in np.flatnonzero(done):
                    old, new = _tree_index(before, i), _tree_index(host, i)
                    assert not np.asarray(new.rewards).any()
                    assert _tree_equal(
                        new.replace(rewards=old.rewards, _step_count=old._step_count), old
                    )
        terminations.extend(None for _ in live)
    return terminations, round_trips


TWO = {"players": 2}
TWO_SHORT = {"players": 2, "field": "middle8", "repetition": 2, "quiet_turns": 12, "max_turns": 60}
FOUR_SHORT = {"players": 4, "quiet_turns": 40, "max_turns": 150}
BATCH = 48


def test_two_player_games_match_the_reference_step_by_step():
    terms, trips = _play_differential(
        _env(**TWO), games=96, batch=BATCH, max_plies=160, greed=0.6, seed=1
    )
    assert len(terms) == 96
    assert any(t is not None for t in terms)
    assert trips > 50


def test_two_player_draw_rules_on_the_middle8_field_match_the_reference():
    terms, _ = _play_differential(
        _env(**TWO_SHORT), games=96, batch=BATCH, max_plies=300, greed=0.1, seed=2, undo=0.5
    )
    names = {t.name for t in terms if t is not None}
    assert len(terms) == 96 and None not in terms
    assert {"REPETITION", "QUIET_TURNS"} <= names


def test_four_player_games_with_eliminations_match_the_reference():
    terms, _ = _play_differential(
        _env(**FOUR_SHORT), games=96, batch=BATCH, max_plies=400, greed=0.9, seed=3
    )
    assert len(terms) == 96
    assert any(t is not None for t in terms)


def test_round_trip_of_a_set_up_position_keeps_chain_and_eliminations():
    env = _env(**FOUR_SHORT)
    game = env.reference_game()
    ref = RefState.from_position(
        game,
        {"W": "h5 h6 h7 h8", "B": "h10 h11", "U": "c7 c8 c9 d7", "R": "m7 m8 m9 n7 n8"},
        to_move=0,
        chain="h8",
        touched="h9",
    )
    state = allmer.from_reference(ref, env)
    _assert_same(state, ref, "set-up position")
    back = allmer.to_reference(state, env)
    assert _ref_dict(back) == _ref_dict(ref)
    assert back.eliminated == ref.eliminated == (2,)


def test_a_blocked_player_is_skipped():
    env = _env(**TWO)
    game = env.reference_game()
    # Black's four stones fill the north-west corner of the north arm, walled in by White.
    stones = {"B": "f15 g15 f14 g14", "W": "h15 h14 h13 g13 f13 h5 h6"}
    ref = RefState.from_position(game, stones)
    state = allmer.from_reference(ref, env)
    _assert_same(state, ref, "set-up position")
    # a slide of the far group (the mouth f13 must stay put)
    action = max(a for a in ref.legal_actions() if a < allmer.PASSAGE_BASE)
    ref.apply_action(action)
    state = _step_one(env, state, action, BATCH)
    assert ref.player == 0 and not ref.is_terminal()
    _assert_same(state, ref, "after the move")


def test_the_last_rival_falling_ends_a_four_player_game_with_the_reference_returns():
    env = _env(**FOUR_SHORT)
    stones = {"W": "h5 h6 d8 d9 d10 e10", "B": "h8 h9 h10 h11", "U": "b8 b9", "R": "n8 n9 n10"}
    ref = RefState.from_position(env.reference_game(), stones, eliminated=(3, 1))
    state = allmer.from_reference(ref, env)
    _assert_same(state, ref, "set-up position")
    action = ref.string_to_action("h6-h7A")
    ref.apply_action(action)
    state = _step_one(env, state, action, BATCH)
    assert ref.termination.name == "ONE_LEFT"
    _assert_same(state, ref, "after the move")
    assert np.allclose(state.rewards, ref.returns())
    assert allmer.to_reference(state, env).eliminated == (3, 1, 2)


def test_batched_init_and_step_compile_under_jit_and_vmap():
    env = _env(**FOUR_SHORT)
    init, step = _jitted(env)
    states = init(jax.random.split(jax.random.PRNGKey(0), BATCH))
    assert states.legal_action_mask.shape == (BATCH, allmer.NUM_ACTIONS)
    assert states.observation.shape == (BATCH, 13, 15, 15)
    actions = jnp.argmax(states.legal_action_mask, axis=1)
    states = step(states, actions)
    assert states.current_player.tolist() == [1] * BATCH


def test_unsupported_parameters_are_rejected_with_a_clear_message():
    with pytest.raises(ValueError, match="withdraw"):
        allmer.make(players=2, withdraw=True)
    with pytest.raises(ValueError, match="players"):
        allmer.make(players=3)
    with pytest.raises(ValueError, match="max_turns"):
        allmer.make(players=2, max_turns=0)
