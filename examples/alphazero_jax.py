"""AlphaZero on the batched engines: self-play with mctx's Gumbel MuZero policy, JAX only.

Every part runs inside ``jax.jit`` over a batch of games played at once
(``cathedral.jax.make``: pgx's ``Env`` API): the search (``mctx.gumbel_muzero_policy``, the
engine's own ``step`` as the model), the self-play moves, the network (a plain MLP written in
jax.numpy, so nothing beyond the ``jax`` extra is needed) and its training (optax). Each
iteration plays ``--steps`` moves in every game of the batch, trains on them (policy:
the search's improved policy; value: the final result for the player to move), and every
``--eval-every`` iterations plays the network's greedy policy against uniformly random play.

Small (these 2 CPU cores, well under an hour)::

    python examples/alphazero_jax.py --game classic --size small

Full size, the same command on a GPU::

    python examples/alphazero_jax.py --game classic --size full

Two-player games only (classic, or allmer with ``--players 2``): the search flips the value's
sign when the turn passes to the opponent and keeps it when a player moves again (classic's
skipped turns).
"""

from __future__ import annotations

import argparse
import math
import time

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax

from cathedral import jax as engines

SIZES = {
    # batch, simulations, moves per iteration, iterations, hidden width
    "tiny": dict(batch=16, simulations=8, steps=8, iterations=3, hidden=64),
    "small": dict(batch=64, simulations=16, steps=32, iterations=60, hidden=128),
    "full": dict(batch=1024, simulations=64, steps=64, iterations=400, hidden=512),
}


def init_network(key, inputs: int, actions: int, hidden: int) -> dict:
    sizes = [(inputs, hidden), (hidden, hidden)]
    keys = jax.random.split(key, 4)
    params = {}
    for i, (a, b) in enumerate(sizes):
        params[f"w{i}"] = jax.random.normal(keys[i], (a, b)) * math.sqrt(2.0 / a)
        params[f"b{i}"] = jnp.zeros(b)
    params["policy"] = jax.random.normal(keys[2], (hidden, actions)) * 0.01
    params["value"] = jnp.zeros((hidden, 1))
    return params


def forward(params: dict, observation):
    x = observation.reshape(observation.shape[0], -1).astype(jnp.float32)
    x = jax.nn.relu(x @ params["w0"] + params["b0"])
    x = jax.nn.relu(x @ params["w1"] + params["b1"])
    return x @ params["policy"], jnp.tanh(x @ params["value"])[:, 0]


def masked(logits, mask):
    return jnp.where(mask, logits - logits.max(axis=-1, keepdims=True), jnp.finfo(jnp.float32).min)


def make_search(env, simulations: int):
    step = jax.vmap(env.step)

    def recurrent_fn(params, key, action, state):
        mover = state.current_player
        child = step(state, action)
        logits, value = forward(params, child.observation)
        index = jnp.arange(action.shape[0])
        reward = child.rewards[index, mover]
        # The value is for the player to move in the child: the mover's own when it moves
        # again (a skipped opponent), the opposite otherwise; nothing after the end.
        discount = jnp.where(child.current_player == mover, 1.0, -1.0)
        discount = jnp.where(child.terminated, 0.0, discount)
        value = jnp.where(child.terminated, 0.0, value)
        out = mctx.RecurrentFnOutput(reward=reward, discount=discount,
                                     prior_logits=masked(logits, child.legal_action_mask),
                                     value=value)
        return out, child

    def search(params, key, state):
        logits, value = forward(params, state.observation)
        root = mctx.RootFnOutput(prior_logits=masked(logits, state.legal_action_mask),
                                 value=value, embedding=state)
        return mctx.gumbel_muzero_policy(params, key, root, recurrent_fn, simulations,
                                         invalid_actions=~state.legal_action_mask)

    return search


def make_self_play(env, simulations: int, steps: int):
    search = make_search(env, simulations)
    step = jax.vmap(env.step)
    init = jax.vmap(env.init)

    def one_move(carry, key):
        params, state = carry
        k1, k2 = jax.random.split(key)
        out = search(params, k1, state)
        mover = state.current_player
        observation = state.observation
        mask = state.legal_action_mask
        state = step(state, out.action)
        index = jnp.arange(mover.shape[0])
        record = dict(observation=observation, policy=out.action_weights,
                      reward=state.rewards[index, mover], terminated=state.terminated,
                      mover=mover, next_mover=state.current_player, mask=mask)
        fresh = init(jax.random.split(k2, mover.shape[0]))
        state = jax.tree_util.tree_map(
            lambda a, b: jnp.where(_wide(state.terminated, a), a, b), fresh, state)
        return (params, state), record

    @jax.jit
    def play(params, state, key):
        (_, state), records = jax.lax.scan(one_move, (params, state),
                                           jax.random.split(key, steps))
        return state, records

    return play


def _wide(flag, like):
    return flag.reshape(flag.shape + (1,) * (like.ndim - flag.ndim))


def value_targets(records) -> tuple[np.ndarray, np.ndarray]:
    """Returns each recorded move's value target (the final result for its mover) and
    whether its game ended within the iteration (the others are not trained on for value)."""
    reward = np.asarray(records["reward"])
    ended = np.asarray(records["terminated"])
    mover = np.asarray(records["mover"])
    next_mover = np.asarray(records["next_mover"])
    steps, batch = reward.shape
    target = np.zeros((steps, batch), dtype=np.float32)
    known = np.zeros((steps, batch), dtype=bool)
    value = np.zeros(batch, dtype=np.float32)
    have = np.zeros(batch, dtype=bool)
    for t in range(steps - 1, -1, -1):
        # Walking back: the value for the mover at t, from the value for the mover at t + 1.
        same = mover[t] == np.where(ended[t], mover[t], next_mover[t])
        value = np.where(ended[t], reward[t], np.where(same, value, -value))
        have = ended[t] | have
        target[t], known[t] = value, have
    return target, known


def make_train_step(optimiser):
    def loss(params, batch):
        logits, value = forward(params, batch["observation"])
        logits = masked(logits, batch["mask"])
        policy_loss = optax.softmax_cross_entropy(logits, batch["policy"]).mean()
        value_loss = (((value - batch["value"]) ** 2) * batch["known"]).sum() / jnp.maximum(
            batch["known"].sum(), 1.0)
        return policy_loss + value_loss, (policy_loss, value_loss)

    @jax.jit
    def train_step(params, opt_state, batch):
        (_, parts), grads = jax.value_and_grad(loss, has_aux=True)(params, batch)
        updates, opt_state = optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, parts

    return train_step


def make_evaluate(env, games: int):
    """The network's greedy policy against uniformly random moves, seats alternating: the
    network's mean return (+1 a win, -1 a loss)."""
    step = jax.vmap(env.step)
    init = jax.vmap(env.init)

    @jax.jit
    def evaluate(params, key):
        k0, key = jax.random.split(key)
        state = init(jax.random.split(k0, games))
        seat = jnp.arange(games) % 2

        def cond(carry):
            return ~carry[0].terminated.all()

        def body(carry):
            state, key, total = carry
            key, k = jax.random.split(key)
            logits, _ = forward(params, state.observation)
            greedy = masked(logits, state.legal_action_mask).argmax(axis=-1)
            uniform = jax.random.categorical(
                k, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
            action = jnp.where(state.current_player == seat, greedy, uniform)
            state = step(state, action)
            total = total + state.rewards[jnp.arange(games), seat]
            return state, key, total

        _, _, total = jax.lax.while_loop(cond, body, (state, key, jnp.zeros(games)))
        return total.mean()

    return evaluate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--size", choices=SIZES, default="small")
    for name in ("batch", "simulations", "steps", "iterations", "hidden"):
        parser.add_argument(f"--{name}", type=int, help=f"overrides the size's {name}")
    parser.add_argument("--train-steps", type=int, default=8,
                        help="gradient steps an iteration, over equal shares of its moves")
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-games", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    size = {**SIZES[args.size],
            **{k: getattr(args, k) for k in SIZES["full"] if getattr(args, k) is not None}}
    params_of_game = {"players": args.players} if args.game == "allmer" else {}
    env = engines.make(args.game, **params_of_game)
    if env.num_players != 2:
        parser.error("AlphaZero here is for two players")
    key = jax.random.PRNGKey(args.seed)
    key, k_net, k_init = jax.random.split(key, 3)
    state = jax.vmap(env.init)(jax.random.split(k_init, size["batch"]))
    inputs = int(np.prod(state.observation.shape[1:]))
    params = init_network(k_net, inputs, env.num_actions, size["hidden"])
    optimiser = optax.adam(1e-3)
    opt_state = optimiser.init(params)
    play = make_self_play(env, size["simulations"], size["steps"])
    train_step = make_train_step(optimiser)
    evaluate = make_evaluate(env, args.eval_games)
    print(f"{args.game}: batch {size['batch']}, {size['simulations']} simulations, "
          f"{size['steps']} moves an iteration, {size['iterations']} iterations, "
          f"on {jax.devices()[0].platform}")
    began = time.perf_counter()
    for iteration in range(1, size["iterations"] + 1):
        key, k_play, k_eval = jax.random.split(key, 3)
        state, records = play(params, state, k_play)
        target, known = value_targets(records)
        flat = lambda a: np.asarray(a).reshape(-1, *np.asarray(a).shape[2:])  # noqa: E731
        batch = dict(observation=flat(records["observation"]), policy=flat(records["policy"]),
                     mask=flat(records["mask"]), value=target.reshape(-1),
                     known=known.reshape(-1).astype(np.float32))
        order = np.random.default_rng(iteration).permutation(len(batch["value"]))
        for part in np.array_split(order, args.train_steps):
            params, opt_state, (policy_loss, value_loss) = train_step(
                params, opt_state, {k: v[part] for k, v in batch.items()})
        line = (f"{iteration:4d}  {time.perf_counter() - began:7.0f} s  policy loss "
                f"{float(policy_loss):.3f}  value loss {float(value_loss):.3f}")
        if iteration % args.eval_every == 0 or iteration == size["iterations"]:
            line += f"  vs random: mean return {float(evaluate(params, k_eval)):+.2f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
