"""Random-play steps per second of the JAX engines (``cathedral.jax``) beside the Python engine.

    python benchmarks/bench_jax.py                           # batches 1 16 256 1024 4096, 3 s each
    python benchmarks/bench_jax.py --batches 1024 4096 --seconds 5
    python benchmarks/bench_jax.py --differential 2000       # both engines, every step compared
    python benchmarks/bench_jax.py --game allmer --players 4 # once cathedral.jax.allmer exists

JAX column: a batch of games played by ``jax.jit(jax.vmap(env.step))`` inside one jitted
``lax.scan`` of ``--chunk`` steps (so Python dispatch is not what is measured), each action drawn
uniformly among the legal ones (``jax.random.categorical`` over the log of the mask, as pgx's
random baselines do, or ``--sampler index``: a uniform rank among the legal actions found by a
cumulative sum, cheaper), finished games restarted from the initial state so the batch keeps
running. Every step counted is a real placement (terminated games are reset before they would
be stepped). Compile time is excluded (one warm-up chunk).

Python column: the reference engine through the contract, ``legal_actions()`` and
``apply_action(random.choice(...))``, same process, same clock.

Copy the output, with the machine line, into benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime
import random
import time

import numpy as np

import cathedral
from cathedral.bench import machine

BATCHES = (1, 16, 256, 1024, 4096)


def python_rate(name: str, params: dict, seconds: float) -> float:
    """Random-play steps per second of the reference engine."""
    game = cathedral.load(name, **params)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def sampler(kind: str):
    import jax
    import jax.numpy as jnp

    def categorical(key, mask):
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)

    def index(key, mask):
        # The r-th legal action, r uniform in [0, count): one random number per game. Two
        # levels (blocks of 64 actions, then the actions of one block) so that the mask is
        # read once; the cumulative sums are small matrix products (XLA's CPU scan is slow).
        batch, n = mask.shape
        blocks = -(-n // 64)
        grid = jnp.pad(mask, ((0, 0), (0, blocks * 64 - n))).reshape(batch, blocks, 64)
        per = grid.astype(jnp.uint8).sum(axis=-1, dtype=jnp.uint8).astype(jnp.float32)
        cum = per @ jnp.triu(jnp.ones((blocks, blocks), jnp.float32))
        r = jnp.floor(jax.random.uniform(key, (batch,)) * cum[:, -1])
        block = jnp.minimum(jnp.sum(cum <= r[:, None], axis=-1), blocks - 1)
        before = jnp.take_along_axis(cum - per, block[:, None], axis=1)[:, 0]
        row = jnp.take_along_axis(grid, block[:, None, None], axis=1)[:, 0].astype(jnp.float32)
        inner = row @ jnp.triu(jnp.ones((64, 64), jnp.float32))
        j = jnp.sum(inner <= (r - before)[:, None], axis=-1)
        return (block * 64 + j).astype(jnp.int32)

    return {"categorical": categorical, "index": index}[kind]


def jax_runner(env, batch: int, chunk: int, sample):
    """Returns (init, run): ``run(state, key)`` plays ``chunk`` batched steps, restarting
    finished games, and returns the new state and key."""
    import jax
    import jax.numpy as jnp

    step = jax.vmap(env.step)
    initial = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), batch))

    def one(carry, _):
        state, key = carry
        key, sub = jax.random.split(key)
        action = sample(sub, state.legal_action_mask)
        state = step(state, action)
        state = jax.tree.map(
            lambda new, old: jnp.where(
                state.terminated.reshape((-1,) + (1,) * (new.ndim - 1)), old, new
            ),
            state,
            initial,
        )
        return (state, key), None

    @jax.jit
    def run(state, key):
        (state, key), _ = jax.lax.scan(one, (state, key), None, length=chunk)
        return state, key

    return initial, run


def jax_rate(env, batch: int, seconds: float, chunk: int, kind: str) -> float:
    import jax

    initial, run = jax_runner(env, batch, chunk, sampler(kind))
    state, key = run(initial, jax.random.PRNGKey(1))  # compile and warm up
    jax.block_until_ready(state)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, key = run(state, key)
        jax.block_until_ready(state)
        steps += batch * chunk
    return steps / (time.perf_counter() - start)


def differential(env, name: str, params: dict, games: int, batch: int, seed: int) -> None:
    """Plays ``games`` random games through both engines, comparing every step."""
    import jax
    import jax.numpy as jnp

    game = cathedral.load(name, **params)
    step = jax.jit(jax.vmap(env.step))
    observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)))
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    played = steps = 0
    while played < games:
        n = min(batch, games - played)
        refs = [game.new_initial_state() for _ in range(n)]
        state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(played), n))
        ended = np.zeros(n, dtype=bool)  # before the last step: later steps reward nothing
        while True:
            host = jax.device_get(state)
            obs = [np.asarray(observe(state, p)) for p in range(env.num_players)]
            actions = np.zeros(n, dtype=np.int32)
            for i, ref in enumerate(refs):
                where = f"game {played + i}, step {len(ref.history())}"
                assert bool(host.terminated[i]) == ref.is_terminal(), where
                if ref.is_terminal():
                    expected = [0.0] * env.num_players if ended[i] else ref.returns()
                    assert host.rewards[i].tolist() == expected, where
                    continue
                assert int(host.current_player[i]) == ref.current_player(), where
                assert (host.legal_action_mask[i] == ref.legal_actions_mask()).all(), where
                assert not host.rewards[i].any(), where
                for p in range(env.num_players):
                    assert (obs[p][i] == ref.observation_tensor(p)).all(), (where, p)
                actions[i] = rng.choice(ref.legal_actions())
            if all(ref.is_terminal() for ref in refs):
                break
            ended = np.asarray(host.terminated).copy()
            for i, ref in enumerate(refs):
                if not ref.is_terminal():
                    ref.apply_action(int(actions[i]))
                    steps += 1
            state = step(state, jnp.asarray(actions))
        played += n
        print(f"  {played} games, {steps} steps compared, {time.perf_counter() - start:.1f} s",
              flush=True)
    print(f"differential: {games} games, {steps} steps, every step identical "
          f"({time.perf_counter() - start:.1f} s)")


def make_env(args):
    import cathedral.jax as cj

    params = {"players": args.players} if args.game == "allmer" else {"opening": args.opening}
    return cj.make(args.game, **params), params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("classic", "allmer"), default="classic")
    parser.add_argument("--opening", default="standard", help="classic: standard or lehmann")
    parser.add_argument("--players", type=int, default=2, help="allmer: 2 or 4")
    parser.add_argument("--batches", type=int, nargs="+", default=list(BATCHES))
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--chunk", type=int, default=16, help="steps per jitted call")
    parser.add_argument("--sampler", choices=("categorical", "index"), default="index",
                        help="how the random legal action is drawn (see the docstring)")
    parser.add_argument("--differential", type=int, metavar="N",
                        help="play N random games through both engines, comparing every step")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env, params = make_env(args)
    if args.differential:
        differential(env, args.game, params, args.differential, 256, args.seed)
        return
    import jax

    print(f"{datetime.date.today()} - {machine()}, jax {jax.__version__} "
          f"({jax.default_backend()}), --seconds {args.seconds:g} --chunk {args.chunk} "
          f"--sampler {args.sampler}\n")
    python = python_rate(args.game, params, args.seconds)
    print(f"Python engine ({args.game} {params}), legal_actions() + apply_action(): "
          f"{python:,.0f} steps/s\n")
    print("| batch | JAX steps/s | JAX / Python |")
    print("|---:|---:|---:|")
    for batch in args.batches:
        rate = jax_rate(env, batch, args.seconds, args.chunk, args.sampler)
        print(f"| {batch} | {rate:,.0f} | {rate / python:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
