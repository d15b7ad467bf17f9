"""Teaches a masked policy-gradient agent classic Cathedral against the random player.

    .venv/bin/python examples/train_classic_pg.py               # a minute or two on a CPU
    .venv/bin/python examples/train_classic_pg.py --games 300 --eval-every 50 --seed 3

The agent plays ``cathedral/Classic-v0`` (Gymnasium) as Light and as Dark in turn against
``random``. Its policy is a softmax over the legal placements only (the observation's
``action_mask``), scoring each placement linearly from its features (which building, which
squares, how many) with weights that depend linearly on the position's hands (the last 24
entries of the observation). It learns by REINFORCE with a running baseline, in numpy.
Every ``--eval-every`` games it plays an evaluation match with its most likely placement and
prints its win rate against ``random``: at the start (all weights zero, ties broken at random)
it is the random player itself.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import cathedral
import cathedral.envs.gymnasium  # registers cathedral/Classic-v0

HANDS = 24
"""The tail of classic's observation: both hands, the Cathedral still to place, to move."""


def placement_features(game: cathedral.Game) -> np.ndarray:
    """Returns one row per action: the building (one-hot), its squares (spread evenly over
    the 100 squares) and its size, read from each action's notation."""
    state = game.new_initial_state()
    names = [state.action_to_string(a).split() for a in range(game.num_distinct_actions())]
    kinds = sorted({name[0] for name in names})
    features = np.zeros((len(names), len(kinds) + 100 + 1))
    for action, (kind, *squares) in enumerate(names):
        features[action, kinds.index(kind)] = 1.0
        for square in squares:
            file, rank = ord(square[0]) - ord("a"), int(square[1:]) - 1
            features[action, len(kinds) + rank * 10 + file] = 1.0 / len(squares)
        features[action, -1] = len(squares) / 6
    return features


class MaskedLinearPolicy:
    """A softmax over the legal actions of ``features[a] . (theta + B @ hands)``."""

    def __init__(self, features: np.ndarray, rng: np.random.Generator) -> None:
        self.features = features
        self.theta = np.zeros(features.shape[1])
        self.mixing = np.zeros((features.shape[1], HANDS + 1))
        self.rng = rng

    def act(self, obs: dict, *, greedy: bool = False) -> tuple[int, tuple]:
        legal = obs["action_mask"].view(bool).nonzero()[0]
        context = np.append(obs["observation"][-HANDS:], 1.0)
        rows = self.features[legal]
        logits = rows @ (self.theta + self.mixing @ context)
        logits -= logits.max()
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum()
        if greedy:
            index = int(self.rng.choice(np.flatnonzero(logits >= -1e-9)))
        else:
            index = int(self.rng.choice(len(legal), p=probabilities))
        return int(legal[index]), (rows, probabilities, index, context)

    def update(self, trajectory: list, advantage: float, rate: float) -> None:
        """One REINFORCE step: raise the log-probability of each chosen action in proportion
        to how much better than the baseline the game went."""
        for rows, probabilities, index, context in trajectory:
            gradient = rate * advantage * (rows[index] - probabilities @ rows)
            self.theta += gradient
            self.mixing += 0.1 * np.outer(gradient, context)


def play(env, policy: MaskedLinearPolicy, seed: int, *, greedy: bool = False):
    """Plays one game; returns the reward and what the agent saw and chose at each decision."""
    obs, _ = env.reset(seed=seed)
    trajectory = []
    while True:
        action, decision = policy.act(obs, greedy=greedy)
        trajectory.append(decision)
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return reward, trajectory


def evaluate(envs, policy: MaskedLinearPolicy, games: int, seed: int) -> float:
    """Returns the win rate of the most likely action over ``games`` games, seats alternating."""
    wins = 0
    for game in range(games):
        reward, _ = play(envs[game % 2], policy, seed + game, greedy=True)
        wins += reward > 0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="training games")
    parser.add_argument("--eval-every", type=int, default=50, help="games between evaluations")
    parser.add_argument("--eval-games", type=int, default=100, help="games per evaluation")
    parser.add_argument("--rate", type=float, default=0.1, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    envs = [gymnasium.make("cathedral/Classic-v0", seat=seat, opponent="random")
            for seat in (0, 1)]
    features = placement_features(envs[0].unwrapped.game)
    policy = MaskedLinearPolicy(features, np.random.default_rng(args.seed))
    start = time.perf_counter()
    untrained = evaluate(envs, policy, args.eval_games, seed=10**6)
    print(f"games {0:5d}  win rate vs random {untrained:6.1%}  (untrained: a random player)")
    baseline, won = 0.0, []
    for game in range(1, args.games + 1):
        reward, trajectory = play(envs[game % 2], policy, seed=args.seed * 10**7 + game)
        policy.update(trajectory, reward - baseline, args.rate)
        baseline += 0.02 * (reward - baseline)
        won.append(reward > 0)
        if game % args.eval_every == 0:
            rate = evaluate(envs, policy, args.eval_games, seed=10**6 + game)
            print(f"games {game:5d}  win rate vs random {rate:6.1%}  (training games won "
                  f"{np.mean(won):6.1%}; {time.perf_counter() - start:4.0f} s)", flush=True)
            won = []


if __name__ == "__main__":
    main()
