"""Trains MaskablePPO (sb3-contrib) on any game, then measures it against `random` and `easy`.

    .venv/bin/pip install -e '.[sb3]'      # sb3-contrib, stable-baselines3 and torch
    .venv/bin/python examples/maskable_ppo.py --game classic --minutes 10
    .venv/bin/python examples/maskable_ppo.py --game allmer --players 4 --opponent easy
    .venv/bin/python examples/maskable_ppo.py --game red --players 2 --minutes 10 --eval-games 100

One environment per seat (``cathedral.envs.sb3.make_maskable``: the flat observation and
``action_masks()``), so the network learns every seat against ``--opponent``. Training stops
after ``--minutes`` of wall-clock time; then the greedy policy plays ``--eval-games`` games
against each of ``random`` and ``easy``, seats in turn (``--sample``: sampled actions instead
of the most likely; ``--load``: evaluate a model saved with ``--save``), and the script
prints a table: games won (return +1: first place alone), lost (return -1: last place alone)
and the mean return (for more than two players the place: (players beaten - players beating
it) / (players - 1)).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cathedral.envs.gymnasium import CathedralEnv
from cathedral.envs.sb3 import make_maskable


def train(args: argparse.Namespace):
    """Returns the MaskablePPO model trained for ``args.minutes`` and the timesteps taken."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    params = {"players": args.players} if args.players else {}
    players = make_maskable(args.game, **params).unwrapped.game.num_players
    env = DummyVecEnv([
        lambda seat=seat: make_maskable(args.game, seat=seat, opponent=args.opponent, **params)
        for seat in range(players)
    ])
    deadline = time.monotonic() + 60 * args.minutes

    class Deadline(BaseCallback):
        def _on_step(self) -> bool:
            return time.monotonic() < deadline

    model = MaskablePPO(
        "MlpPolicy", env, n_steps=max(256, 2048 // players), batch_size=256, n_epochs=4,
        gamma=0.995, ent_coef=0.01, learning_rate=3e-4,
        policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, verbose=0,
    )
    model.learn(total_timesteps=10**12, callback=Deadline())
    return model, model.num_timesteps


def play(model, env: CathedralEnv, seed: int, sample: bool = False) -> float:
    """Plays one episode with the policy's most likely actions (or sampled ones); returns the
    seat's reward."""
    obs, _ = env.reset(seed=seed)
    while True:
        action, _ = model.predict(
            obs["observation"].ravel(), action_masks=obs["action_mask"].view(bool),
            deterministic=not sample,
        )
        obs, reward, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            return float(reward)


def evaluate(model, args: argparse.Namespace, opponent: str) -> tuple[float, float, float]:
    """Returns (won, lost, mean return) over ``args.eval_games`` games against
    ``opponent``, seats in turn."""
    params = {"players": args.players} if args.players else {}
    envs = []
    seat = 0
    rewards = []
    for g in range(args.eval_games):
        if len(envs) <= seat:
            envs.append(CathedralEnv(args.game, seat=seat, opponent=opponent, **params))
        rewards.append(play(model, envs[seat], seed=10**6 + g,
                            sample=getattr(args, "sample", False)))
        seat = (seat + 1) % envs[0].game.num_players
    rewards = np.array(rewards)
    return float(np.mean(rewards == 1.0)), float(np.mean(rewards == -1.0)), float(rewards.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("classic", "allmer", "red"), default="classic")
    parser.add_argument("--players", type=int, default=None, help="allmer 2/4, red 2-4")
    parser.add_argument("--minutes", type=float, default=10.0, help="training wall-clock time")
    parser.add_argument("--opponent", choices=("random", "easy"), default="random",
                        help="the computer players trained against")
    parser.add_argument("--eval-games", type=int, default=100, help="games per opponent")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", metavar="PATH", help="save the trained model here")
    parser.add_argument("--load", metavar="PATH", help="evaluate this saved model, no training")
    parser.add_argument("--sample", action="store_true",
                        help="evaluate with sampled actions instead of the most likely ones")
    args = parser.parse_args()

    start = time.monotonic()
    if args.load:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(args.load)
        print(f"{args.game} players={args.players or 'default'}: {args.load}, "
              f"{model.num_timesteps:,} timesteps", flush=True)
    else:
        model, steps = train(args)
        print(f"{args.game} players={args.players or 'default'}: trained "
              f"{(time.monotonic() - start) / 60:.1f} min against {args.opponent}, "
              f"{steps:,} timesteps", flush=True)
    trained = time.monotonic() - start
    if args.save:
        model.save(args.save)
    print("| opponent | games | won | lost | mean return |\n|---|---|---|---|---|")
    for opponent in ("random", "easy"):
        won, lost, mean = evaluate(model, args, opponent)
        print(f"| {opponent} | {args.eval_games} | {won:.0%} | {lost:.0%} | {mean:+.2f} |",
              flush=True)
    print(f"(evaluation {time.monotonic() - start - trained:.0f} s)")


if __name__ == "__main__":
    main()
