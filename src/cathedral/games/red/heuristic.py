"""The Red Cathedral's evaluation: expected final prestige per player, and the greedy player's
one-decision scores built on it.

``expected_prestige`` adds what a player holds now (prestige on the track and the progress to
the next prestige space), what is on the way (claimed cards weighted by the materials already
delivered or in hand, at the current recognition-to-prestige rate), what is at risk (penalties
that rivals' claims above an unfinished card threaten), the towers as if the game ended now
(presence) and the leftovers. A decision is scored by the change it makes for the player to
move, after playing out its obvious follow-up (a die move is worth its best market take, a
claim its best tile placement).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from cathedral.core.hooks import Evaluation
from cathedral.games.red import actions as A
from cathedral.games.red import phases as P
from cathedral.games.red.components import MAX_HEIGHT
from cathedral.games.red.scoring import Track, tower_points

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState

RUBLE = 0.15
"""A ruble: a fifth of a prestige point at the end (leftovers), less the chance of wasting it."""
MATERIAL = 0.03
"""A material in hand that no claimed card needs: nearly nothing, since it blocks a slot."""
CLAIM_BASE = 0.3
"""Share of a claimed card's reward counted before any delivery."""
IN_HAND = 0.8
"""Share of a delivery a matching material in hand is worth."""
ORNAMENT = 0.25
"""An ornament still available (it will add presence and a point of tower value)."""
RISK = 0.3
"""Share of a threatened penalty counted before it happens."""


HORIZON = 30
"""Recognition steps over which a point of recognition is valued (the track gets denser)."""


@lru_cache(maxsize=1 << 12)
def _track_rate(tr: Track, pos: int) -> tuple[float, float]:
    """Returns (prestige now including progress to the next space, prestige per recognition
    step averaged over the next ``HORIZON`` steps) of a marker at ``pos``."""
    # Cached: asked for every player of every child a decision scores.
    count = tr.prestige(pos)
    nxt = tr.next_space(pos)
    below = max(tr.prev_space(pos + 1), 0)
    gap = max(nxt - below, 1)
    return count + (pos - below) / gap, (tr.prestige(pos + HORIZON) - count) / HORIZON


def expected_prestige(state: RedState) -> list[float]:
    """Returns each player's expected final prestige (a heuristic, not a forecast)."""
    if state.stage == P.OVER:
        return [float(x) for x in state.final]
    return _expected(state)


def _expected(state: RedState, shares: list[list[float]] | None = None) -> list[float]:
    """``expected_prestige`` of a game in play; ``shares``, if given, gets each player's
    claimed unfinished cards' progress shares (for ``race``).

    The hot path of every red search, so one pass over the towers, bottom to dome, indexing
    the flat lists directly, finds the claimed cards' progress (claims are served materials
    in slot order), the towers' points as if the game ended now (claimed cards counting as
    built in proportion to their progress) and the threats above each claim.
    """
    c, n = state.c, state.n
    thirds, halving = state.game.thirds, state.game.halving
    card_total, recognition, card_rubles = c.card_total, c.card_recognition, c.card_rubles
    owner, built, orn, need, slot_card = (state.owner, state.built, state.orn, state.need,
                                          state.slot_card)
    spare = state.inv[:]
    towers = [0.0] * n
    claims = []  # (player, share, card, threat) per claimed unfinished card, in slot order
    for t, height in enumerate(state.heights()):
        value = 0.0
        presence = [0.0] * n
        bottom = t * MAX_HEIGHT
        top = bottom + height
        for s in range(bottom, top):
            p = owner[s]
            if built[s]:
                value += 2
                presence[p] += 1
            elif p >= 0:
                total = card_total[slot_card[s]]
                done = float(total)
                k = s * 6
                to_hand = p * 6 - k  # need[j] is material j - k; its owner's is spare[j + to_hand]
                for j in range(k, k + 6):
                    want = need[j]
                    if want:
                        have = spare[j + to_hand]
                        use = want if want < have else have
                        spare[j + to_hand] = have - use
                        done -= want - IN_HAND * use
                f = CLAIM_BASE + (0.95 - CLAIM_BASE) * done / total
                value += 2 * f
                presence[p] += f
                threat = 0
                for u in range(s + 1, top):  # the rivals' claims above, to the dome
                    q = owner[u]
                    if q >= 0 and q != p:
                        threat += 1
                claims.append((p, f, slot_card[s], threat))
            if orn[s] >= 0:
                value += 1
                presence[orn[s]] += 1
        if value:
            points = _points(value, tuple(presence), thirds, halving)
            for p in range(n):
                towers[p] += points[p]
    out = []
    rates = []
    track, pos, rubles, orn_avail = state.track, state.pos, state.rubles, state.orn_avail
    for p in range(n):
        now, rate = _track_rate(track, pos[p])
        rates.append(rate)
        b = p * 6
        v = now + towers[p] + RUBLE * rubles[p] + MATERIAL * sum(spare[b : b + 6])
        v += ORNAMENT * sum(orn_avail[p * 3 : p * 3 + 3])
        out.append(v)
    for p, f, card, threat in claims:
        rate = rates[p]
        out[p] += f * (recognition[card] * rate + card_rubles[card] * RUBLE)
        out[p] -= RISK * threat * rate * (1 - f)
        if shares is not None:
            shares[p].append(f)
    if state.trigger < 0:
        for p in range(n):
            # the sixth completion's 3 prestige, approached section by section
            out[p] += 3 * (state.completed[p] / c.banners) ** 3
    return out


@lru_cache(maxsize=1 << 16)
def _points(value: float, presence: tuple, thirds: bool, halving: bool) -> tuple:
    """``tower_points`` for fractional values: the integer rule on the scaled numbers."""
    # Cached: a decision's children differ from their parent in a tower or two.
    return tuple(x / 10 for x in tower_points(round(value * 10), [round(x * 10) for x in presence],
                                              thirds=thirds, halving=halving))


PRESTIGE_SCALE = 10.0
"""Prestige of lead over a rival that makes ``evaluate``'s prestige half against it 0.76."""
RACE_WEIGHT = 0.5
"""Share of ``evaluate`` given to the race to the sixth completion."""
RACE_SCALE = 1.5
"""Sections of lead in that race that make ``evaluate``'s race half worth about 0.6."""
# Steeper or flatter races played no better (benchmarks/RESULTS.md, red).


def race(state: RedState) -> list[float]:
    """Returns each player's way toward the sixth completion that ends the game: sections
    completed, plus the best claimed unfinished ones (as many as are still wanted) counted by
    their progress share."""
    shares: list[list[float]] = [[] for _ in range(state.n)]
    _expected(state, shares)
    return _race(state, shares)


def _race(state: RedState, shares: list[list[float]]) -> list[float]:
    """``race`` from each player's claimed unfinished cards' progress shares."""
    banners = state.c.banners
    out = []
    for p in range(state.n):
        wanted = max(banners - state.completed[p], 0)
        out.append(state.completed[p] + sum(sorted(shares[p], reverse=True)[:wanted]))
    return out


def evaluate(state: RedState) -> list[float]:
    """Returns per player a value in (-1, 1): against each rival, the lead in expected
    prestige (tanh of it over ``PRESTIGE_SCALE``), blended while nobody has ended the game with
    the lead in the race to the sixth completion (tanh of it over ``RACE_SCALE``, a share of
    ``RACE_WEIGHT``); the mean over the rivals.

    The race half is there because the player who completes a sixth section first wins
    almost every game between greedy players (19 of 20 in an arena sample): the rivals'
    unfinished cards stop counting, and the 3 prestige go to the finisher. Expected prestige
    alone sees none of that, so searches built on it raced too slowly.

    With more than two players the mean over the rivals is the scale of ``returns()`` (the
    rivals a player finishes ahead of less those ahead of it, over N - 1): a clear second of
    four is worth about 1/3, as it is at the end. The lead over the best rival alone, as with
    two, valued every place but the first below 0, so a search preferred ending the game in
    second place (1/3) to playing on from it (some -0.7).
    """
    n = state.n
    if n < 2:
        return [0.0] * n
    if state.stage == P.OVER:
        e, r = expected_prestige(state), None
    else:
        shares: list[list[float]] = [[] for _ in range(n)]
        e = _expected(state, shares)
        r = _race(state, shares) if state.trigger < 0 else None
    out = []
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q == p:
                continue
            value = math.tanh((e[p] - e[q]) / PRESTIGE_SCALE)
            if r is not None:
                value = ((1 - RACE_WEIGHT) * value
                         + RACE_WEIGHT * math.tanh((r[p] - r[q]) / RACE_SCALE))
            total += value
        out.append(total / (n - 1))
    return out


def _follow_up(state: RedState, p: int) -> None:
    """Plays the obvious next decision of a die move or a claim on a copy: the largest take,
    the best tile placement."""
    if state.current_player() != p:
        return
    if state.phase == P.MARKET and not state.took:
        limit = state.take_limit(p)
        if limit > 0:
            state._apply_action(A.TAKE + limit - 1)
    elif state.phase == P.CLAIMED:
        best, best_v = None, -math.inf
        for a in state._legal_actions():
            if A.TILE <= a < A.DELIVER:
                child = state.clone()
                child._apply_action(a)
                v = expected_prestige(child)[p]
                if v > best_v:
                    best, best_v = a, v
        if best is not None:
            state._apply_action(best)


def action_heuristics(state: RedState) -> list[tuple[int, float]]:
    """Scores every legal action by the change in the mover's expected prestige (see the
    module docstring), less a sliver of what it gives the rivals."""
    p = state.current_player()
    base = expected_prestige(state)
    out = []
    for a in state.legal_actions():
        if a == A.DONE and state.phase != 3:
            out.append((a, 0.0))
            continue
        child = state.clone()
        child._apply_action(a)
        if A.CLAIM <= a < A.TILE or A.DIE <= a < A.TAKE:
            _follow_up(child, p)
        e = expected_prestige(child)
        gain = e[p] - base[p]
        rivals = max((e[q] - base[q] for q in range(state.n) if q != p), default=0.0)
        out.append((a, gain - 0.2 * rivals))
    return out


class RedEvaluation(Evaluation):
    """Red's search hooks: ``evaluate`` and ``action_heuristics`` above."""

    def evaluate(self, state: RedState) -> list[float]:
        return evaluate(state)

    def action_heuristics(self, state: RedState) -> list[tuple[int, float]]:
        return action_heuristics(state)
