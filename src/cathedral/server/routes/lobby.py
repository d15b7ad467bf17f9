"""What the home and lobby pages read: the catalog of games, the lobby's public tables, and
the health check."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request

from cathedral.ai import LEVEL_NAMES, agent_names
from cathedral.core.registry import game_class, games
from cathedral.server import models
from cathedral.server.deps import HubDep
from cathedral.server.limits import parameter_range
from cathedral.server.table import load_game

router = APIRouter(tags=["lobby"])

CLOCK_PRESETS = [
    {"name": "5 min + 3 s", "initial_s": 300, "increment_s": 3},
    {"name": "10 min + 5 s", "initial_s": 600, "increment_s": 5},
    {"name": "30 min + 20 s", "initial_s": 1800, "increment_s": 20},
]


def catalog() -> dict:
    """Every game with its parameters (the ranges this server accepts), player names per
    table size, levels and agents."""
    out = []
    for name in games():
        info = game_class(name).info
        params = []
        players: dict[str, list[str]] = {}
        for p in info.parameters:
            span = parameter_range(name, p.name)
            entry: dict[str, Any] = {
                "name": p.name, "type": {int: "int", str: "str", bool: "bool"}[p.kind],
                "default": p.default, "choices": list(p.choices), "help": p.help,
                "optional": p.optional, "minimum": span[0] if span else p.minimum,
                "maximum": span[1] if span else None,
            }
            if p.kind is str and not p.choices:
                entry["choices"] = [p.default]  # free text (a file path) is not offered
            params.append(entry)
        counts = next((p.choices for p in info.parameters if p.name == "players"), ())
        if counts:
            for n in counts:
                players[str(n)] = load_game(name, {"players": n}).player_names()
        else:
            game = load_game(name, {})
            players[str(game.num_players)] = game.player_names()
        out.append({"name": name, "title": info.title, "summary": info.summary,
                    "parameters": params, "players": players,
                    "lower_score_wins": info.lower_score_wins})
    return {"games": out, "levels": list(LEVEL_NAMES), "agents": agent_names(),
            "clock_presets": CLOCK_PRESETS}


@router.get("/healthz", response_model=models.Health)
async def healthz(hub: HubDep):
    return {"status": "ok", "games_live": len(hub.tables)}


@router.get("/api/catalog", response_model=models.Catalog)
async def get_catalog(request: Request):
    cache = request.app.state.caches
    if "catalog" not in cache:
        cache["catalog"] = catalog()
    return cache["catalog"]


@router.get("/api/lobby", response_model=models.Lobby)
async def lobby(request: Request, hub: HubDep):
    """Public tables only; at most one database query a second unless a game starts, ends
    or fills a seat (the database thread belongs to moves)."""
    cache = request.app.state.caches.setdefault("lobby", {"at": -1.0, "version": -1})
    fresh = cache["version"] == hub.lobby_version
    if fresh and time.monotonic() - cache["at"] < 1.0:
        return cache["lists"]
    version = hub.lobby_version
    lists = await hub.db(hub.storage.lobby)
    for items in lists.values():
        for item in items:
            try:
                item["players"] = load_game(item["game"], item["params"]).player_names()
            except Exception:
                item["players"] = []
    cache.update(at=time.monotonic(), lists=lists, version=version)
    return lists
