"""Ratings from game results: Wilson intervals of a proportion, Bradley-Terry Elo, and its 95%
intervals by bootstrap over games.

A game yields comparisons ``(a, b, score of a)``: 1 a win, 0.5 a draw, 0 a loss. A two-player
game is one comparison; a game of more seats yields one per pair of seats held by different
agents, from their places (the higher return ranks above; equal returns draw), which is the
usual way to rate players of free-for-all games on a two-player scale: equal agents score
0.5 against each other however many sit at the table.

The comparisons of one game are not independent (one bad game loses all three), so the
intervals come from resampling whole games, within each pairing, and fitting again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

import numpy as np

Z95 = 1.959963984540054

Comparison = tuple[str, str, float]


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Returns the Wilson score interval of a proportion (95% by default); (0, 1) if no trials.

    It stays inside [0, 1] and behaves at 0% and 100%, where the normal interval does not.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry_elo(
    results: Iterable[Comparison],
    agents: Sequence[str] | None = None,
    *,
    prior_draws: float = 1.0,
    iterations: int = 2000,
) -> dict[str, float]:
    """Fits Bradley-Terry strengths to game results and returns them as Elo (mean 0).

    Args:
        results: ``(a, b, score of a)`` per comparison: 1 a win, 0.5 a draw, 0 a loss.
        agents: the names to rate (default: every name in ``results``).
        prior_draws: virtual draws added between every pair that met, so an agent that
            won every game gets a finite rating (the usual regularisation).

    Draws count half a win for each side. The fit is the minorise-maximise iteration of
    Hunter (2004); the Elo of strength ``g`` is ``400 * log10(g)``.
    """
    results = list(results)
    names = list(dict.fromkeys(agents or []))
    for a, b, _ in results:
        for name in (a, b):
            if name not in names:
                names.append(name)
    elo = _fit(_wins(results, {n: i for i, n in enumerate(names)}), prior_draws, iterations)
    return dict(zip(names, elo.tolist(), strict=True))


def _wins(results: Iterable[Comparison], index: dict[str, int]) -> np.ndarray:
    """The matrix of points scored: ``wins[i, j]`` is what ``i`` scored against ``j``."""
    wins = np.zeros((len(index), len(index)))
    for a, b, score in results:
        i, j = index[a], index[b]
        wins[i, j] += score
        wins[j, i] += 1.0 - score
    return wins


def _fit(wins: np.ndarray, prior_draws: float, iterations: int) -> np.ndarray:
    """Bradley-Terry Elo (mean 0) from a matrix of points scored."""
    wins = wins.copy()
    np.fill_diagonal(wins, 0.0)  # an agent against itself says nothing of its strength
    met = (wins + wins.T) > 0
    wins = wins + met * (prior_draws / 2)
    games = wins + wins.T
    total = wins.sum(axis=1)
    strength = np.ones(len(wins))
    for _ in range(iterations):
        denominator = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        active = (denominator > 0) & (total > 0)
        new = np.where(active, total / np.where(active, denominator, 1.0), strength)
        new = np.exp(np.log(new) - np.log(new).mean())
        change = np.abs(new - strength).max()
        strength = new
        if change < 1e-10:
            break
    return 400 * np.log10(strength)


def bootstrap_elo(
    games: Sequence[Sequence[Comparison]],
    agents: Sequence[str],
    strata: Sequence[int] | None = None,
    *,
    samples: int = 200,
    seed: int = 0,
    prior_draws: float = 1.0,
) -> np.ndarray:
    """Returns ``samples`` Elo fits (rows; columns in the order of ``agents``, which must be
    distinct) to the games resampled with replacement, each stratum (pairing) keeping its
    number of games."""
    index = {name: i for i, name in enumerate(agents)}
    per_game = [_wins(g, index) for g in games]
    groups: dict[int, list[int]] = {}
    for g, stratum in enumerate(strata if strata is not None else [0] * len(games)):
        groups.setdefault(stratum, []).append(g)
    rng = random.Random(seed)
    fits = np.empty((samples, len(agents)))
    for s in range(samples):
        wins = np.zeros((len(agents), len(agents)))
        for members in groups.values():
            for _ in members:
                wins += per_game[rng.choice(members)]
        fits[s] = _fit(wins, prior_draws, 1000)
    return fits


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The central ``level`` interval of bootstrap values."""
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def ladder_steps(fits: np.ndarray, agents: Sequence[str], elo: dict[str, float]) -> list[dict]:
    """Each agent against the one listed before it: the Elo difference of the fit to all
    games and its 95% bootstrap interval (``agents`` listed weakest first, as a ladder)."""
    steps = []
    for k in range(1, len(agents)):
        lower, upper = agents[k - 1], agents[k]
        low, high = percentile_interval(fits[:, k] - fits[:, k - 1])
        steps.append({
            "agents": [upper, lower],
            "difference": elo[upper] - elo[lower],
            "interval": [low, high],
        })
    return steps
