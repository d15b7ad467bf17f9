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
from typing import TYPE_CHECKING

from cathedral.games.red import actions as A
from cathedral.games.red.components import MAX_HEIGHT
from cathedral.games.red.scoring import tower_points

if TYPE_CHECKING:
    from cathedral.games.red.state import RedState

RUBLE = 0.2
"""A ruble is a fifth of a prestige point at the end (leftovers), a bit more as fuel."""
MATERIAL = 0.15
"""A material in hand that no claimed card needs."""
CLAIM_BASE = 0.35
"""Share of a claimed card's reward counted before any delivery."""
RISK = 0.3
"""Share of a threatened penalty counted before it happens."""


def _rate(state: RedState, pos: int) -> tuple[float, float]:
    """Returns (prestige now including progress, prestige per recognition step here)."""
    tr = state.track
    count = tr.prestige(pos)
    nxt = tr.next_space(pos)
    below = tr.prev_space(pos + 1)
    below = max(below, 0)
    gap = max(nxt - below, 1)
    return count + (pos - below) / gap, 1.0 / gap


def expected_prestige(state: RedState) -> list[float]:
    """Returns each player's expected final prestige (a heuristic, not a forecast)."""
    from cathedral.games.red import state as S

    if state.stage == S.OVER:
        return [float(x) for x in state.final]
    c, n = state.c, state.n
    out = []
    towers = _tower_now(state)
    for p in range(n):
        now, rate = _rate(state, state.pos[p])
        v = now + towers[p] + RUBLE * state.rubles[p]
        b = p * 6
        spare = state.inv[b : b + 6]
        for s in state.slots:
            if state.owner[s] != p or state.built[s]:
                continue
            card = state.slot_card[s]
            k = s * 6
            total = sum(c.card_cost[card])
            left = 0
            for m in range(6):
                need = state.need[k + m]
                use = min(need, spare[m])
                spare[m] -= use
                left += need - use * 0.6
            progress = (total - left) / total
            reward = c.card_recognition[card] * rate + c.card_rubles[card] * RUBLE
            v += reward * (CLAIM_BASE + 0.55 * progress)
            threat = 0
            top = state.top_of(s)
            for u in range(s + 1, top + 1):
                if state.owner[u] >= 0 and state.owner[u] != p:
                    threat += 1
            v -= RISK * threat * rate * (1 - progress)
        v += MATERIAL * sum(spare)
        v += 0.25 * sum(state.orn_avail[p * 3 : p * 3 + 3])
        out.append(v)
    return out


def _tower_now(state: RedState) -> list[float]:
    n = state.n
    out = [0.0] * n
    thirds = state.game.params["two_player_towers"] == "thirds"
    for t, height in enumerate(state.heights()):
        value = 0
        presence = [0] * n
        for s in range(t * MAX_HEIGHT, t * MAX_HEIGHT + height):
            if state.built[s]:
                value += 2
                presence[state.owner[s]] += 1
            elif state.owner[s] >= 0:
                presence[state.owner[s]] += 0.5  # a claim is half a presence
            if state.orn[s] >= 0:
                value += 1
                presence[state.orn[s]] += 1
        for p, pts in enumerate(tower_points(value, presence, thirds=thirds)):
            out[p] += 0.8 * pts
    return out


def evaluate(state: RedState) -> list[float]:
    """Returns per player tanh((own expected prestige - the best rival's) / 10), in (-1, 1)."""
    e = expected_prestige(state)
    if len(e) < 2:
        return [0.0] * len(e)
    out = []
    for p, v in enumerate(e):
        rival = max(x for q, x in enumerate(e) if q != p)
        out.append(math.tanh((v - rival) / 10))
    return out


def _follow_up(state: RedState, p: int) -> None:
    """Plays the obvious next decision of a die move or a claim on a copy: the largest take,
    the best tile placement."""
    from cathedral.games.red import state as S

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
