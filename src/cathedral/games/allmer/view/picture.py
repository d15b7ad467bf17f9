"""Allmer's Cathedral's picture for graphical front ends: the cross, its lines, strong points
and passages, the stones, and for each stone that may move its landings and the stones each
landing would convert.

Points are the engine's numbers 0..124 with box coordinates ``x`` (0 west .. 14 east) and
``y`` (0 north .. 14 south). What a step converts is worked out by playing it on a copy of the
state with the rules' own code, so a front end only draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cathedral.games.allmer.geometry import COORDS, MOUTHS, NUM_POINTS, PARTNER, point_name
from cathedral.games.allmer.movegen import (
    APPROACH,
    PASSAGE,
    PASSAGE_BASE,
    STOP,
    WALK,
    WITHDRAW,
    decode_step,
)

if TYPE_CHECKING:
    from cathedral.games.allmer.state import AllmerState

_GEOMETRY: dict[str, dict] = {}


def geometry(field: str, geo) -> dict:
    """Returns the static drawing of a field: points, line segments, passages (cached)."""
    cached = _GEOMETRY.get(field)
    if cached is None:
        segments = sorted(
            {(min(p, q), max(p, q)) for p in range(NUM_POINTS) for q in geo.neighbours[p]}
        )
        cached = {
            "points": [
                {"x": x, "y": y, "name": point_name(p), "strong": geo.strong[p]}
                for p, (x, y) in enumerate(COORDS)
            ],
            "segments": [list(s) for s in segments],
            "passages": sorted({(min(m, PARTNER[m]), max(m, PARTNER[m])) for m in MOUTHS}),
        }
        cached["passages"] = [list(pair) for pair in cached["passages"]]
        _GEOMETRY[field] = cached
    return cached


def _ends(state: AllmerState, action: int) -> tuple[int, int]:
    """Returns (from, to) of a step or passage action."""
    if action >= PASSAGE_BASE:
        mouth = MOUTHS[action - PASSAGE_BASE]
        return mouth, PARTNER[mouth]
    origin, direction, distance, _ = decode_step(action)
    return origin, state._cfg.geo.rays[origin][direction][distance - 1]


def _landing(state: AllmerState, action: int) -> tuple[int, int, str]:
    """Returns (from, to, kind) of a legal step or passage action."""
    origin, landing = _ends(state, action)
    if action >= PASSAGE_BASE:
        return origin, landing, PASSAGE
    if decode_step(action)[3]:
        return origin, landing, WITHDRAW
    return origin, landing, APPROACH if state.converts(action) else WALK


def _steps(state: AllmerState) -> tuple[list[dict], dict | None]:
    """Returns the legal steps grouped by stone, and the stop entry of a chain (or None)."""
    by_stone: dict[int, list[dict]] = {}
    stop = None
    board = state.board
    for action in state.legal_actions():
        if action == STOP:
            stop = {"action": STOP, "notation": "stop"}
            continue
        origin, landing, kind = _landing(state, action)
        after = state.clone()
        after._apply_action(action)
        converts = [
            p
            for p in range(NUM_POINTS)
            if board[p] and board[p] != after.board[p] and p != origin
        ]
        by_stone.setdefault(origin, []).append(
            {
                "action": action,
                "notation": state.action_to_string(action),
                "to": landing,
                "kind": kind,
                "converts": converts,
            }
        )
    stones = [{"from": p, "steps": steps} for p, steps in sorted(by_stone.items())]
    return stones, stop


def _last_move(state: AllmerState) -> dict | None:
    history = state.history()
    if not history or history[-1] == STOP:
        return {"notation": "stop"} if history else None
    origin, landing = _ends(state, history[-1])
    return {"action": history[-1], "from": origin, "to": landing}


def picture(state: AllmerState) -> dict:
    """Returns the JSON-ready picture of an Allmer position (see the module docstring)."""
    cfg = state._cfg
    names = state.game.player_names()
    moves, stop = _steps(state)
    chain = None
    if state.chain >= 0:
        chain = {
            "stone": state.chain,
            "name": point_name(state.chain),
            "touched": state.touched_points(),
            "stop": stop,
        }
    return {
        "game": "allmer",
        "players": names,
        "letters": state.game.colour_letters(),
        "to_move": state.current_player(),
        "field": cfg.geo.field,
        "withdraw": cfg.withdraw,
        **geometry(cfg.geo.field, cfg.geo),
        "stones": list(state.board),
        "counts": list(state.counts),
        "eliminated": list(state.eliminated),
        "alive": [state.alive(p) for p in range(cfg.players)],
        "turns": state.turns,
        "quiet_turns": state.quiet,
        "chain": chain,
        "moves": moves,
        "last_move": _last_move(state),
        "hint": state.prompt_hint(),
        "termination": state.termination.value if state.termination else None,
        "result": state.result_string(),
    }
