"""Heuristics of Allmer's Cathedral: the designer's greedy step scoring and a static evaluation.

``step_scores`` follows the computer opponent of the designer's browser game (reference notes,
section 2.10): each candidate step is played on a copy of the board and scored from

- gain: stones this step converts;
- setup: the largest conversion we could make next, by any stone;
- risk: the longest run of our stones the next alive player could convert;
- dmin: the king-move distance from the landing to the nearest stone not ours;

as ``3 gain + 0.6 setup - 2 risk - 0.25 dmin``, or ``10 gain + 3 setup - 0.5 risk - 0.6 dmin``
once some rival is within 2 stones of the threshold, 9999 for a step that wins and 0.1 for
``stop``. The reference adds a little noise; here ties are left to the player's own seeded
tie-break.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from cathedral.core.hooks import Evaluation
from cathedral.games.allmer.geometry import COORDS, NUM_POINTS
from cathedral.games.allmer.movegen import (
    MIN_ALIVE,
    MOUTH_MOVES,
    PASSAGE_BASE,
    STOP,
    conversions_by_victim,
    decode_step,
)

if TYPE_CHECKING:
    from cathedral.games.allmer.state import AllmerState

WIN_SCORE = 9999.0
STOP_SCORE = 0.1
PRESS_THRESHOLD = MIN_ALIVE + 2
"""A rival with this many stones or fewer makes the greedy player press for conversions."""


def _by_distance() -> tuple[tuple[tuple[int, int], ...], ...]:
    table = []
    for p in range(NUM_POINTS):
        px, py = COORDS[p]
        others = sorted(
            (max(abs(px - x), abs(py - y)), q) for q, (x, y) in enumerate(COORDS) if q != p
        )
        table.append(tuple(others))
    return tuple(table)


BY_DISTANCE = _by_distance()
"""Per point, every other point with its king-move distance, nearest first."""


CENTRE = 1.0
"""Stones' worth of having every stone on the centre point rather than at the rim (each
stone counts ``(7 - its king-move distance to h8) / 7`` of it, averaged)."""
CENTRALITY = tuple((7 - max(abs(x - 7), abs(y - 7))) / 7 for x, y in COORDS)


def _nearest_other(board: bytearray, colour: int, point: int) -> int:
    for distance, q in BY_DISTANCE[point]:
        e = board[q]
        if e and e != colour:
            return distance
    return 99


def step_scores(state: AllmerState) -> list[tuple[int, float]]:
    """Returns ``(action, score)`` for every legal action, scored as the designer's greedy
    computer opponent does (see the module docstring)."""
    cfg = state._cfg
    board = state.board
    player = state.player
    colour = player + 1
    n = cfg.players
    rays = cfg.geo.rays
    table = cfg.table
    withdraw = cfg.withdraw
    scored = []
    for action in state.legal_actions():
        if action == STOP:
            scored.append((action, STOP_SCORE))
            continue
        b = board[:]
        counts = state.counts[:]
        gain = 0
        if action >= PASSAGE_BASE:
            _, origin, landing = MOUTH_MOVES[action - PASSAGE_BASE]
            b[origin] = 0
            b[landing] = colour
        else:
            origin, direction, distance, kind = decode_step(action)
            landing = rays[origin][direction][distance - 1]
            b[origin] = 0
            b[landing] = colour
            run = rays[origin][direction ^ 4] if kind else rays[landing][direction]
            victim = b[run[0]] if run else 0
            if victim and victim != colour:
                for q in run:
                    if b[q] != victim:
                        break
                    b[q] = colour
                    gain += 1
                counts[victim - 1] -= gain
                counts[player] += gain
        rivals = [counts[q] for q in range(n) if q != player and counts[q] >= MIN_ALIVE]
        if not rivals:
            scored.append((action, WIN_SCORE))
            continue
        dmin = _nearest_other(b, colour, landing)
        risk = 0
        for step in range(1, n):
            nxt = (player + step) % n
            if counts[nxt] >= MIN_ALIVE:
                risk = conversions_by_victim(b, nxt + 1, table, cfg.geo, withdraw)[colour]
                break
        setup = max(conversions_by_victim(b, colour, table, cfg.geo, withdraw))
        if min(rivals) <= PRESS_THRESHOLD:
            score = 10 * gain + 3 * setup - 0.5 * risk - 0.6 * dmin
        else:
            score = 3 * gain + 0.6 * setup - 2 * risk - 0.25 * dmin
        scored.append((action, score))
    return scored


def evaluate(state: AllmerState) -> list[float]:
    """Returns a value per player in [-1, 1]: stones held, plus the conversions threatened,
    minus the stones exposed to the rivals, with a penalty for standing one conversion away
    from falling below 4 stones, plus up to ``CENTRE`` for stones near the centre; a finished
    game gives its returns.

    The centre term is what makes a search seek contact: without it every quiet position is
    worth the same, and games against a greedy player that keeps away can end in a draw by the
    quiet-turn rule (benchmarks/RESULTS.md, allmer).
    """
    if state.termination is not None:
        return state.returns()
    cfg = state._cfg
    n = cfg.players
    counts = state.counts
    alive = [p for p in range(n) if counts[p] >= MIN_ALIVE]
    threats = {
        p: conversions_by_victim(state.board, p + 1, cfg.table, cfg.geo, cfg.withdraw)
        for p in alive
    }
    centre = [0.0] * n
    if CENTRE:
        for point, colour in enumerate(state.board):
            if colour:
                centre[colour - 1] += CENTRALITY[point]
    raw = []
    for p in range(n):
        if p not in alive:
            raw.append(None)
            continue
        threat = max(threats[p])
        exposure = max((threats[o][p + 1] for o in alive if o != p), default=0)
        value = counts[p] + (0.5 if p == state.player else 0.25) * threat - 0.5 * exposure
        value += CENTRE * centre[p] / counts[p]  # alive: at least 4 stones
        if counts[p] - exposure < MIN_ALIVE:
            value -= 4.0
        raw.append(value)
    out = []
    for p in range(n):
        if raw[p] is None:
            out.append(-1.0)
            continue
        others = [raw[o] if raw[o] is not None else 0.0 for o in range(n) if o != p]
        out.append(math.tanh((raw[p] - sum(others) / len(others)) / 8.0))
    return out


class AllmerEvaluation(Evaluation):
    """Allmer's search hooks: ``evaluate`` and ``step_scores`` above, and the converting steps
    as the moves a search follows past its horizon."""

    def evaluate(self, state: AllmerState) -> list[float]:
        return evaluate(state)

    def action_heuristics(self, state: AllmerState) -> list[tuple[int, float]]:
        return step_scores(state)

    def quiescence_actions(self, state: AllmerState) -> list[int]:
        """Returns the legal converting steps (the moves that change the stone count), empty
        at the end of the game."""
        if state.current_player() < 0:
            return []
        return [a for a in state._legal_actions() if state.converts(a)]
