"""Self-play: MaskablePPO (sb3-contrib) trained against a frozen copy of its own network.

    .venv/bin/pip install -e '.[sb3]'      # sb3-contrib, stable-baselines3 and torch
    .venv/bin/python examples/self_play.py --game classic --rounds 5 --steps 20000
    .venv/bin/python examples/self_play.py --game red --players 3 --rounds 3 --steps 10000

The Gymnasium environments take as ``opponent=`` any object with ``choose(state)``.
``cathedral.envs.sb3.PolicyAgent`` is one: it runs a policy on the observation and the legal
mask of the player to move. Every other seat is played by one such agent holding a frozen copy
(``copy.deepcopy(model.policy)``) of the network; after each round of ``--steps`` timesteps
the copy is replaced by the network as it now is, so the opponent keeps up with the learner.
After each round the script prints the new network's record against the previous copy and
against ``random``; at the end, a table against ``random`` and ``easy`` (as
``maskable_ppo.py``).
"""

from __future__ import annotations

import argparse
import copy
import time

from maskable_ppo import evaluate, play

from cathedral.envs.gymnasium import CathedralEnv
from cathedral.envs.sb3 import PolicyAgent, make_maskable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("classic", "allmer", "red"), default="classic")
    parser.add_argument("--players", type=int, default=None, help="allmer 2/4, red 2-4")
    parser.add_argument("--rounds", type=int, default=5, help="times the opponent is renewed")
    parser.add_argument("--steps", type=int, default=20_000, help="timesteps per round")
    parser.add_argument("--eval-games", type=int, default=40, help="games per evaluation")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    params = {"players": args.players} if args.players else {}
    players = make_maskable(args.game, **params).unwrapped.game.num_players
    frozen = PolicyAgent(None, name="frozen self")  # its policy is set below
    env = DummyVecEnv([
        lambda seat=seat: make_maskable(args.game, seat=seat, opponent=frozen, **params)
        for seat in range(players)
    ])
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=max(256, 2048 // players), batch_size=256, n_epochs=4,
        gamma=0.995, ent_coef=0.01, policy_kwargs={"net_arch": [256, 256]}, seed=args.seed,
    )
    frozen.policy = copy.deepcopy(model.policy)  # round 1: the untrained network
    start = time.monotonic()
    for round_ in range(1, args.rounds + 1):
        model.learn(args.steps, reset_num_timesteps=False)
        # The new network against the copy it trained against, every seat in turn.
        rewards = [
            play(model, CathedralEnv(args.game, seat=g % players, opponent=frozen, **params),
                 seed=10**5 * round_ + g)
            for g in range(args.eval_games)
        ]
        won = sum(r == 1.0 for r in rewards) / len(rewards)
        vs_random = evaluate(model, args, "random")[0]
        print(f"round {round_}: {model.num_timesteps:,} timesteps, {time.monotonic() - start:.0f}"
              f" s; won {won:.0%} against its previous copy, {vs_random:.0%} against random",
              flush=True)
        frozen.policy = copy.deepcopy(model.policy)  # the opponent catches up
    print("| opponent | games | won | lost | mean return |\n|---|---|---|---|---|")
    for opponent in ("random", "easy"):
        won, lost, mean = evaluate(model, args, opponent)
        print(f"| {opponent} | {args.eval_games} | {won:.0%} | {lost:.0%} | {mean:+.2f} |")


if __name__ == "__main__":
    main()
