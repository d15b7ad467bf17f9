"""The browser's pages and their files (no build step: ``web/static``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from cathedral.server.errors import NotFound

router = APIRouter(include_in_schema=False)


def page(request: Request, name: str) -> FileResponse:
    path = request.app.state.settings.static / name
    if not path.is_file():
        raise NotFound(f"page {name} is not installed")
    return FileResponse(path, media_type="text/html")


@router.get("/")
async def index(request: Request):
    return page(request, "index.html")


@router.get("/lobby")
async def lobby_page(request: Request):
    return page(request, "lobby.html")


@router.get("/signin")
async def signin_page(request: Request):
    return page(request, "signin.html")


@router.get("/me")
async def me_page(request: Request):
    return page(request, "me.html")


@router.get("/leaderboard")
async def leaderboard_page(request: Request):
    return page(request, "leaderboard.html")


@router.get("/@/{name}")
async def player_page(request: Request, name: str):
    """A player's page; an unknown name gets the page too, which says so."""
    return page(request, "player.html")


@router.get("/g/{game_id}")
@router.get("/g/")
@router.get("/g")
async def game_page(request: Request, game_id: str = ""):
    """A table's page; one with no game (or an unknown one) says so and leads home."""
    return page(request, "game.html")


@router.get("/replay/{game_id}")
@router.get("/replay/")
@router.get("/replay")
async def replay_page(request: Request, game_id: str = ""):
    return page(request, "replay.html")


@router.get("/learn")
@router.get("/learn/")
async def learn_page(request: Request):
    """The courses: one per game, each lesson's progress kept in the browser."""
    return page(request, "learn.html")


@router.get("/learn/{game}/{lesson}")
@router.get("/learn/{game}")
async def lesson_page(request: Request, game: str, lesson: str = ""):
    """A lesson (``/learn/<game>`` opens the course's first lesson not yet done)."""
    return page(request, "lesson.html")


@router.get("/puzzles")
@router.get("/puzzles/")
async def puzzles_page(request: Request):
    return page(request, "puzzles.html")


@router.get("/puzzles/{puzzle_id}")
async def puzzle_page(request: Request, puzzle_id: str):
    """A puzzle (``/puzzles/daily``: today's)."""
    return page(request, "puzzle.html")


@router.get("/static/{name:path}")
async def static(request: Request, name: str):
    root = request.app.state.settings.static.resolve()
    try:
        path = (root / name).resolve()
    except (OSError, ValueError):  # a NUL byte, a name too long for the filesystem
        raise NotFound("no such file") from None
    if root not in path.parents or not path.is_file():
        raise NotFound("no such file")
    return FileResponse(path)
