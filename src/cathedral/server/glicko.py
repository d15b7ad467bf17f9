"""Glicko-2 ratings: the arithmetic, the rated settings and the computer levels' fixed ratings.

This module owns the numbers of ``docs/accounts.md`` ("Ratings") and nothing else: no storage,
no accounts. It is written from Glickman's "Example of the Glicko-2 system" (2013), whose
steps the comments in ``rate`` follow. Each game is one rating period; a game of three or four
players counts as the pairwise games between every two of them by finishing place, all taken
as one period (``rate_game``). A computer level keeps a fixed rating: its Elo on the measured
ladder plus 1500, RD 30 (``computer_rating``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

from cathedral.core.errors import UnknownGameError
from cathedral.core.registry import game_class

SCALE = 400.0 / math.log(10.0)  # 173.7178 in the paper: Glicko-2 units to rating points
TAU = 0.5  # the system constant, which limits how fast volatility changes
MAX_RD = 350.0  # a new player's RD, and the most any RD grows to
PROVISIONAL_RD = 110.0  # at or above this RD a rating is provisional
EPSILON = 1e-6  # the convergence tolerance of the volatility iteration (step 5)
_MAX_ITERATIONS = 200  # bound on each loop of step 5; it converges in far fewer


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: rating, rating deviation (RD) and volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    def to_dict(self) -> dict[str, float]:
        """Returns ``{"rating", "rd", "volatility"}``."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        """The rating that ``to_dict`` wrote; a missing key takes a new player's value."""
        return cls(**{f.name: float(data[f.name]) for f in fields(cls) if f.name in data})


def _g(phi: float) -> float:
    """Step 3: the weight of an opponent whose deviation is ``phi`` (Glicko-2 units)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(z: float) -> float:
    """1 / (1 + exp(-z)), without overflow for large ``|z|``."""
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def expected(a: Rating, b: Rating) -> float:
    """Returns ``a``'s expected score against ``b`` (a win 1, a draw 0.5).

    Both deviations widen the prediction (the paper's E with the opponent's phi replaced by
    ``sqrt(phi_a**2 + phi_b**2)``), so ``expected(a, b) + expected(b, a) == 1``.
    """
    phi = math.hypot(a.rd, b.rd) / SCALE
    return _logistic(_g(phi) * (a.rating - b.rating) / SCALE)


def _grown(player: Rating) -> Rating:
    """Step 6 alone, for a period without games: RD grows by the volatility, nothing else."""
    phi = player.rd / SCALE
    rd = math.sqrt(phi * phi + player.volatility * player.volatility) * SCALE
    return Rating(player.rating, min(rd, MAX_RD), player.volatility)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the paper's Illinois iteration on f(x) = 0."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0.0 and k < _MAX_ITERATIONS:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON or f_b == f_a:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0.0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """Returns ``player``'s rating after one rating period.

    Args:
        player: the rating before the period.
        results: ``(opponent's rating before the period, score)`` per game, the score 1 for a
            win, 0.5 for a draw, 0 for a loss. Empty: the period only grows RD (step 6).
        tau: the system constant.

    Raises:
        ValueError: a score outside [0, 1].
    """
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 1, 0.5 or 0, not {score!r}")
    if not results:
        return _grown(player)
    # Step 2: onto the Glicko-2 scale.
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.rd / SCALE, player.volatility
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    information = 0.0
    gain = 0.0  # sum of g(phi_j) * (s_j - E_j)
    for opponent, score in results:
        g = _g(opponent.rd / SCALE)
        z = g * (mu - (opponent.rating - 1500.0) / SCALE)
        e = _logistic(z)
        information += g * g * e * _logistic(-z)
        gain += g * (score - e)
    if information <= 0.0:  # opponents so far off that the games tell nothing
        return _grown(player)
    v = 1.0 / information
    delta = v * gain
    # Step 5: the new volatility.
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    # Step 6: the pre-period deviation.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    # Step 7: the new deviation and rating.
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    # Step 8: back onto the Glicko scale.
    return Rating(new_mu * SCALE + 1500.0, min(new_phi * SCALE, MAX_RD), new_sigma)


def pairwise(returns: list[float]) -> list[list[tuple[int, float]]]:
    """Returns, for each seat, ``(other seat, score)`` against every other seat in seat order,
    by finishing place: a higher return scores 1, an equal one 0.5, a lower one 0."""
    return [[(j, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
             for j, theirs in enumerate(returns) if j != i]
            for i, mine in enumerate(returns)]


def rate_game(ratings: list[Rating], returns: list[float], fixed: list[bool]) -> list[Rating]:
    """Returns every seat's rating after one game, rated as one period of pairwise games
    against the others' ratings before the game; a ``fixed`` seat keeps its rating.

    Raises:
        ValueError: the three lists differ in length.
    """
    if not len(ratings) == len(returns) == len(fixed):
        raise ValueError(f"{len(ratings)} ratings, {len(returns)} returns and "
                         f"{len(fixed)} fixed flags: one of each per seat")
    return [ratings[i] if fixed[i] else rate(ratings[i], [(ratings[j], s) for j, s in games])
            for i, games in enumerate(pairwise(returns))]


SETTINGS = ("classic", "allmer2", "allmer4", "red2", "red3", "red4")


def setting_of(game: str, params: dict) -> str | None:
    """Returns the rated setting of ``game`` with ``params`` (``"red3"``), or None when it is
    unrated: an unknown game, a player count without a setting, or any other parameter
    different from its default (a parameter left out, or given its default, is the default)."""
    try:
        defaults = {p.name: p.default for p in game_class(game).info.parameters}
    except UnknownGameError:
        return None
    params = params or {}
    for name, value in params.items():
        if name == "players":
            continue
        if name not in defaults or value != defaults[name]:
            return None
    if "players" in defaults:
        setting = f"{game}{params.get('players', defaults['players'])}"
    else:  # a game without the parameter (classic) is for two
        setting = game if params.get("players", 2) == 2 else None
    return setting if setting in SETTINGS else None


# 1500 + each level's Elo on the measured ladder (key "elo", the max level's key cut at ":"),
# rounded to whole points, from benchmarks/reports/ladder_classic_100.json,
# ladder_allmer2_100.json, ladder_allmer4_100.json, ladder_red2_100.json,
# ladder_red3_102.json and ladder_red4_100.json (see benchmarks/RESULTS.md).
COMPUTER_RATINGS: dict[str, dict[str, float]] = {
    "classic": {"random": 442.0, "easy": 1363.0, "medium": 1673.0, "hard": 1881.0,
                "max": 2141.0},
    "allmer2": {"random": 499.0, "easy": 1248.0, "medium": 1647.0, "hard": 1915.0,
                "max": 2192.0},
    "allmer4": {"random": -290.0, "easy": 821.0, "medium": 1930.0, "hard": 2269.0,
                "max": 2769.0},
    "red2": {"random": 353.0, "easy": 1274.0, "medium": 1806.0, "hard": 1969.0,
             "max": 2098.0},
    "red3": {"random": 345.0, "easy": 1390.0, "medium": 1781.0, "hard": 1941.0,
             "max": 2042.0},
    "red4": {"random": 334.0, "easy": 1446.0, "medium": 1689.0, "hard": 1929.0,
             "max": 2101.0},
}
COMPUTER_RD = 30.0


def computer_rating(setting: str, kind: str) -> Rating | None:
    """Returns the fixed rating of the computer seat ``kind`` (``"hard"``, ``"hard:seed=3"``)
    in ``setting``, or None for an unknown setting or level."""
    level = COMPUTER_RATINGS.get(setting, {}).get(kind.partition(":")[0])
    return None if level is None else Rating(level, COMPUTER_RD)


def provisional(r: Rating) -> bool:
    """Whether ``r`` is still provisional: RD at least 110."""
    return r.rd >= PROVISIONAL_RD
