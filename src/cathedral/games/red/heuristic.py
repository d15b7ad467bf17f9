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

from cathedral.games.red import actions as A
from cathedral.games.red import state as S
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


def _progress(state: RedState) -> tuple[dict[int, float], list[int]]:
    """Returns, per claimed unfinished slot, the share of the card counted as done (materials
    delivered count fully, matching materials in its owner's hand count ``IN_HAND``), and
    each player's materials in hand that no claimed card needs."""
    # The hot path of every red search (each greedy decision scores a dozen children): index
    # the flat lists directly rather than slice and enumerate them.
    card_total = state.c.card_total
    out = {}
    spare = state.inv[:]
    owner, built, need, slot_card = state.owner, state.built, state.need, state.slot_card
    for s in state.slots:
        p = owner[s]
        if p < 0 or built[s]:
            continue
        total = card_total[slot_card[s]]
        done = float(total)
        k = s * 6
        to_hand = p * 6 - k  # need[j] is material j - k; its owner holds spare[j + to_hand]
        for j in range(k, k + 6):
            want = need[j]
            if want:
                have = spare[j + to_hand]
                use = want if want < have else have
                spare[j + to_hand] = have - use
                done -= want - IN_HAND * use
        out[s] = CLAIM_BASE + (0.95 - CLAIM_BASE) * done / total
    return out, [sum(spare[b : b + 6]) for b in range(0, 6 * state.n, 6)]


def expected_prestige(state: RedState) -> list[float]:
    """Returns each player's expected final prestige (a heuristic, not a forecast)."""
    if state.stage == S.OVER:
        return [float(x) for x in state.final]
    return _expected(state, *_progress(state))


def _expected(state: RedState, progress: dict[int, float], spare: list[int]) -> list[float]:
    """``expected_prestige`` of a game in play, from its ``_progress``."""
    c, n = state.c, state.n
    towers = _tower_now(state, progress)
    out = []
    rates = []
    track, pos, rubles, orn_avail = state.track, state.pos, state.rubles, state.orn_avail
    for p in range(n):
        now, rate = _track_rate(track, pos[p])
        rates.append(rate)
        v = now + towers[p] + RUBLE * rubles[p] + MATERIAL * spare[p]
        v += ORNAMENT * sum(orn_avail[p * 3 : p * 3 + 3])
        out.append(v)
    # Claimed cards, in slot order.
    owner, slot_card = state.owner, state.slot_card
    recognition, card_rubles, heights = c.card_recognition, c.card_rubles, state.heights()
    for s, f in progress.items():
        p = owner[s]
        card = slot_card[s]
        rate = rates[p]
        out[p] += f * (recognition[card] * rate + card_rubles[card] * RUBLE)
        threat = 0
        t = s // MAX_HEIGHT
        for u in range(s + 1, t * MAX_HEIGHT + heights[t]):  # the slots above, to the dome
            q = owner[u]
            if q >= 0 and q != p:
                threat += 1
        out[p] -= RISK * threat * rate * (1 - f)
    if state.trigger < 0:
        for p in range(n):
            # the sixth completion's 3 prestige, approached section by section
            out[p] += 3 * (state.completed[p] / c.banners) ** 3
    return out


def _tower_now(state: RedState, progress: dict[int, float]) -> list[float]:
    """Returns the tower points as if the game ended now, claimed cards counting as built in
    proportion to their progress."""
    n = state.n
    out = [0.0] * n
    thirds, halving = state.game.thirds, state.game.halving
    built, owner, orn = state.built, state.owner, state.orn
    for t, height in enumerate(state.heights()):
        value = 0.0
        presence = [0.0] * n
        bottom = t * MAX_HEIGHT
        for s in range(bottom, bottom + height):
            if built[s]:
                value += 2
                presence[owner[s]] += 1
            elif owner[s] >= 0:
                f = progress[s]
                value += 2 * f
                presence[owner[s]] += f
            if orn[s] >= 0:
                value += 1
                presence[orn[s]] += 1
        if not value:
            continue
        points = _points(value, tuple(presence), thirds, halving)
        for p in range(n):
            out[p] += points[p]
    return out


@lru_cache(maxsize=1 << 16)
def _points(value: float, presence: tuple, thirds: bool, halving: bool) -> tuple:
    """``tower_points`` for fractional values: the integer rule on the scaled numbers."""
    # Cached: a decision's children differ from their parent in a tower or two, so the same
    # towers are scored again and again (this was a third of the greedy player's time).
    return tuple(x / 10 for x in tower_points(round(value * 10), [round(x * 10) for x in presence],
                                              thirds=thirds, halving=halving))


PRESTIGE_SCALE = 10.0
"""Prestige of lead over the best rival that makes ``evaluate``'s prestige half worth 0.76."""
RACE_WEIGHT = 0.5
"""Share of ``evaluate`` given to the race to the sixth completion."""
RACE_SCALE = 1.5
"""Sections of lead in that race that make ``evaluate``'s race half worth about 0.6."""
# Fitted to who won (benchmarks/fit_red_evaluation.py), a steeper race (weight 0.7, scale 0.6)
# predicts the winner better (log loss 0.594 -> 0.554) but plays worse: 41% in 100 games of
# hard against hard as it is; a flatter race (weight 0.3) scored 50.9% in 110 (benchmarks/
# RESULTS.md, red).


def race(state: RedState) -> list[float]:
    """Returns each player's way toward the sixth completion that ends the game: sections
    completed, plus the best claimed unfinished ones (as many as are still wanted) counted by
    their progress share."""
    return _race(state, _progress(state)[0])


def _race(state: RedState, progress: dict[int, float]) -> list[float]:
    """``race`` from the game's ``_progress``."""
    shares: list[list[float]] = [[] for _ in range(state.n)]
    for s, f in progress.items():
        shares[state.owner[s]].append(f)
    banners = state.c.banners
    out = []
    for p in range(state.n):
        wanted = max(banners - state.completed[p], 0)
        out.append(state.completed[p] + sum(sorted(shares[p], reverse=True)[:wanted]))
    return out


def evaluate(state: RedState) -> list[float]:
    """Returns per player a value in (-1, 1): the lead in expected prestige over the best
    rival (tanh of it over ``PRESTIGE_SCALE``), blended while nobody has ended the game with
    the lead in the race to the sixth completion (tanh of it over ``RACE_SCALE``, a share of
    ``RACE_WEIGHT``).

    The race half is there because the player who completes a sixth section first wins
    almost every game between greedy players (19 of 20 in an arena sample): the rivals'
    unfinished cards stop counting, and the 3 prestige go to the finisher. Expected prestige
    alone sees none of that, so searches built on it raced too slowly.
    """
    if state.n < 2:
        return [0.0] * state.n
    if state.stage == S.OVER:
        e, r = expected_prestige(state), None
    else:
        progress, spare = _progress(state)
        e = _expected(state, progress, spare)
        r = _race(state, progress) if state.trigger < 0 else None
    out = []
    for p, v in enumerate(e):
        rival = max(x for q, x in enumerate(e) if q != p)
        value = math.tanh((v - rival) / PRESTIGE_SCALE)
        if r is not None:
            ahead = r[p] - max(x for q, x in enumerate(r) if q != p)
            value = (1 - RACE_WEIGHT) * value + RACE_WEIGHT * math.tanh(ahead / RACE_SCALE)
        out.append(value)
    return out


def _follow_up(state: RedState, p: int) -> None:
    """Plays the obvious next decision of a die move or a claim on a copy: the largest take,
    the best tile placement."""
    if state.current_player() != p:
        return
    if state.phase == S.MARKET and not state.took:
        limit = state.take_limit(p)
        if limit > 0:
            state._apply_action(A.TAKE + limit - 1)
    elif state.phase == S.CLAIMED:
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
