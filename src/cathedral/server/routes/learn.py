"""Lessons, puzzles and practising a position (docs/learning.md, "In the browser").

Lessons and puzzles come from ``cathedral.learn`` (their data ship with the package); the
routes add what a board needs to draw each position (its state and ``State.picture()``),
check a learner's move with the engine, count a signed-in person's first try at a puzzle
against their puzzle rating, and never tell a puzzle's answers before it is solved or given
up. Every position is drawn in a thread, never on the event loop; a lesson's positions are
drawn once per process.
"""

from __future__ import annotations

import asyncio
import datetime
import gzip
import json
import re
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from cathedral.core.contract import State
from cathedral.core.errors import CathedralError
from cathedral.learn import lessons as taught
from cathedral.learn import puzzles as shipped
from cathedral.learn.lessons import Course, Lesson, Step
from cathedral.learn.puzzles import Puzzle
from cathedral.server import practise as practising
from cathedral.server.auth import MaybeSigned, MaybeWriter, SignedIn
from cathedral.server.deps import Address, HubDep, limit
from cathedral.server.errors import Invalid, Malformed, NotFound, Unsupported
from cathedral.server.inputs import checked_game_id
from cathedral.server.models import Request as Strict
from cathedral.server.routes import errors
from cathedral.server.table import load_game

router = APIRouter(prefix="/api", tags=["learn"])

MAX_MOVE = 200  # the longest notation of any game is far shorter
POSITIONS_KEPT = 256  # puzzle positions kept drawn (a few MB)
PAGE = 1000  # puzzles listed at most per request
PUZZLE_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class CheckMove(Strict):
    """A learner's move, in the game's notation."""

    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]


class CheckPuzzle(Strict):
    """A try at a puzzle (``move``), or giving it up (``give_up``: the solution is shown)."""

    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)] | None = None
    give_up: bool = False


class Practise(Strict):
    """A position of a finished game to play out against a computer level."""

    game_id: Annotated[str, Field(min_length=1, max_length=64)]
    ply: Annotated[int, Field(ge=0)]
    level: Annotated[str, Field(min_length=1, max_length=20)] = "medium"


# ----- positions ----------------------------------------------------------------------------


def _position(state: State) -> dict:
    """What a board needs of a position: the state, its picture (with the scores), the
    players and who is to move."""
    try:
        picture = state.picture()
    except NotImplementedError:
        raise Unsupported(f"{state.game.name} has no picture yet") from None
    return {"state": state.to_json(), "picture": {**picture, "scores": state.scores()},
            "players": state.game.player_names(), "current_player": state.current_player(),
            "ply": len(state.history())}


def _shown(state: State) -> dict:
    """A position to look at, not to play: its picture without the legal moves."""
    picture = {**state.picture(), "scores": state.scores()}
    if isinstance(picture.get("moves"), list):
        picture["moves"] = []
    return picture


def _lesson_pictures(request: Request) -> OrderedDict:
    return request.app.state.caches.setdefault("lesson_pictures", OrderedDict())


# ----- lessons ------------------------------------------------------------------------------


def _courses() -> list[dict]:
    return [{"game": course.game, "title": course.title,
             "lessons": [{"id": lesson.id, "title": lesson.title, "steps": len(lesson.steps)}
                         for lesson in course.lessons]}
            for course in taught.courses()]


def _find_lesson(game: str, lesson_id: str) -> tuple[Course, Lesson, int]:
    """(course, lesson, the lesson's index in its course), or ``NotFound``."""
    course = next((c for c in taught.courses() if c.game == game), None)
    if course is None:
        raise NotFound(f"no course for the game {game!r}: GET /api/lessons lists them")
    for index, lesson in enumerate(course.lessons):
        if lesson.id == lesson_id:
            return course, lesson, index
    raise NotFound(f"no lesson {lesson_id!r} in the {game} course: GET /api/lessons lists "
                   "them")


def _find_step(lesson: Lesson, step_ref: str) -> tuple[Step, int]:
    """A step by its id (or its index from 0), or ``NotFound``."""
    for index, step in enumerate(lesson.steps):
        if step.id == step_ref:
            return step, index
    if step_ref.isascii() and step_ref.isdigit() and int(step_ref) < len(lesson.steps):
        return lesson.steps[int(step_ref)], int(step_ref)
    raise NotFound(f"no step {step_ref!r} in the lesson {lesson.id!r} "
                   f"({len(lesson.steps)} steps)")


def _answer(step: Step, state: State) -> dict | None:
    """A move that meets the step's goal (the page's "Show me" marks it on the board)."""
    try:
        move = taught.answer(step)
        return {"move": move, "action": state.string_to_action(move)}
    except CathedralError:
        return None


def _lesson_view(game: str, lesson_id: str) -> dict:
    course, lesson, index = _find_lesson(game, lesson_id)
    siblings = course.lessons
    steps = []
    for number, step in enumerate(lesson.steps):
        state = taught.step_state(step)
        steps.append({"id": step.id, "index": number, "text": step.text, "hint": step.hint,
                      "answer": _answer(step, state), **_position(state)})
    return {
        "game": game, "course": course.title, "id": lesson.id, "title": lesson.title,
        "params": lesson.params, "index": index, "count": len(siblings),
        "previous": siblings[index - 1].id if index > 0 else None,
        "next": siblings[index + 1].id if index + 1 < len(siblings) else None,
        "steps": steps,
    }


def _lesson_check(game: str, lesson_id: str, step_ref: str, move: str) -> dict:
    _, lesson, _ = _find_lesson(game, lesson_id)
    step, index = _find_step(lesson, step_ref)
    try:
        verdict = taught.check(step, move)
        ok, text = verdict.ok, verdict.text
    except CathedralError as exc:  # a move the notation cannot even read
        ok, text = False, str(exc)
    reply: dict[str, Any] = {"ok": ok, "text": text, "step": step.id, "index": index,
                             "last": index == len(lesson.steps) - 1}
    if ok:
        state = taught.step_state(step)
        try:
            action = state.string_to_action(move.strip())
            reply["move"] = state.action_to_string(action)
            reply["said"] = state.describe_action(action)
            state.apply_action(action)
        except CathedralError:  # the engine accepted it as the goal: nothing more to show
            return reply
        reply["after"] = _position(state)
    return reply


@router.get("/lessons", responses=errors(), dependencies=[limit("reads", "lesson lists")])
async def courses(request: Request):
    """The courses: a game's title and its lessons (id, title, number of steps)."""
    cache = request.app.state.caches
    if "courses" not in cache:
        cache["courses"] = {"courses": await asyncio.to_thread(_courses)}
    return cache["courses"]


@router.get("/lessons/{game}/{lesson}", responses=errors(404),
            dependencies=[limit("reads", "lessons")])
async def lesson(game: str, lesson: str, request: Request):
    """A lesson's steps, each with its position as a board draws it, its sentence and hint."""
    pictures = _lesson_pictures(request)
    key = (game[:64], lesson[:64])
    found = pictures.get(key)
    if found is None:
        def drawn() -> tuple[bytes, bytes]:
            text = json.dumps(_lesson_view(*key), separators=(",", ":")).encode()
            return text, gzip.compress(text, 6)

        found = await asyncio.to_thread(drawn)
        pictures[key] = found
        while len(pictures) > POSITIONS_KEPT:
            pictures.popitem(last=False)
    # every step's picture lists its legal moves: a few hundred kB, a tenth of it gzipped
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(found[1], media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(found[0], media_type="application/json", headers={"Vary": "Accept-Encoding"})


@router.post("/lessons/{game}/{lesson}/{step}/check", responses=errors(404),
             dependencies=[limit("moves", "lesson moves")])
async def check_lesson_step(game: str, lesson: str, step: str,
                            body: Annotated[CheckMove, Body()]):
    """Whether a move meets the step's goal, and why; with the position after it when it
    does (an illegal move gets the engine's reason)."""
    return await asyncio.to_thread(_lesson_check, game[:64], lesson[:64], step[:64],
                                   body.move)


# ----- puzzles ------------------------------------------------------------------------------


def _summary(puzzle: Puzzle) -> dict:
    return {"id": puzzle.id, "game": puzzle.game, "goal": puzzle.goal, "theme": puzzle.theme,
            "difficulty": puzzle.difficulty}


def _parsed(state: State, text: str) -> int:
    """A move in notation as an action of ``state`` (a chance outcome by its name too)."""
    if state.is_chance_node():
        for action, _ in state.chance_outcomes():
            if state.action_to_string(action) == text:
                return action
    return state.string_to_action(text)


def _puzzle_state(puzzle: Puzzle) -> State:
    """The puzzle's position: its ``start`` replayed from the initial state."""
    state = load_game(puzzle.game, dict(puzzle.params)).new_initial_state()
    for text in puzzle.start:
        state.apply_action(_parsed(state, text))
    return state


def _checked_puzzle_id(puzzle_id: str) -> str:
    """A puzzle id as the puzzles name them, else ``NotFound`` at once."""
    if PUZZLE_ID.fullmatch(puzzle_id) is None:
        raise NotFound(f"no puzzle {puzzle_id[:64]!r}: GET /api/puzzles lists them")
    return puzzle_id


def _find_puzzle(puzzle_id: str) -> Puzzle:
    try:
        return shipped.puzzle(puzzle_id)
    except LookupError:  # KeyError: no such puzzle
        raise NotFound(f"no puzzle {puzzle_id!r}: GET /api/puzzles lists them") from None


def _by_difficulty(puzzle: Puzzle) -> tuple:
    return (puzzle.difficulty, puzzle.id)


def _puzzle_view(puzzle: Puzzle) -> dict:
    """A puzzle as the page shows it: never its answers, its line or its proof's values;
    ``next`` is the next puzzle of its game by difficulty (the first after the last)."""
    same = [p.id for p in sorted(shipped.puzzles(puzzle.game), key=_by_difficulty)]
    following = None
    if puzzle.id in same and len(same) > 1:
        following = same[(same.index(puzzle.id) + 1) % len(same)]
    return {**_summary(puzzle), "params": dict(puzzle.params), "player": puzzle.player,
            "proof": {"method": puzzle.proof.get("method")}, "next": following,
            **_position(_puzzle_state(puzzle))}


def _line(puzzle: Puzzle) -> list[dict]:
    """The solution line, each ply with the position after it (to look at)."""
    state = _puzzle_state(puzzle)
    out = []
    for text in puzzle.line:
        action = _parsed(state, text)
        words = text if state.is_chance_node() else state.describe_action(action)
        mover = state.current_player()
        state.apply_action(action)
        out.append({"move": text, "text": words, "player": mover, "picture": _shown(state)})
    return out


async def _puzzle_reply(request: Request, puzzle_id: str, who) -> dict:
    """The puzzle's view (drawn once per process, kept for the next asker), with whether the
    signed-in person has tried it."""
    cache = request.app.state.caches.setdefault("puzzle_views", OrderedDict())
    view = cache.get(puzzle_id)
    if view is None:
        view = await asyncio.to_thread(lambda: _puzzle_view(_find_puzzle(puzzle_id)))
        cache[puzzle_id] = view
        while len(cache) > POSITIONS_KEPT:
            cache.popitem(last=False)
    else:
        cache.move_to_end(puzzle_id)
    reply = dict(view)
    if who is not None:
        hub = request.app.state.hub
        tried = await hub.db(hub.accounts.puzzle_tried, who.account.id, [puzzle_id])
        reply["tried"] = None if puzzle_id not in tried else ("solved" if tried[puzzle_id]
                                                              else "missed")
    return reply


def _today(hub) -> datetime.date:
    return datetime.datetime.fromtimestamp(hub.wall(), datetime.UTC).date()


@router.get("/puzzles", responses=errors(422), dependencies=[limit("reads", "puzzle lists")])
async def list_puzzles(request: Request, hub: HubDep, who: MaybeSigned,
                       game: Annotated[str | None, Query(max_length=64)] = None,
                       theme: Annotated[str | None, Query(max_length=64)] = None,
                       offset: Annotated[int, Query(ge=0)] = 0,
                       limit_: Annotated[int, Query(alias="limit", ge=1, le=PAGE)] = PAGE):
    """The puzzles (easiest first), of one game or theme if asked; signed in, each says
    whether you solved or missed it (``tried``)."""
    def listed() -> tuple[list[dict], list[str], list[str]]:
        everything = shipped.puzzles()
        all_games = sorted({p.game for p in everything})
        known = set(shipped.GAMES) | set(all_games)
        if game is not None and game not in known:
            raise Invalid(f"no puzzles of the game {game!r} (games: {', '.join(sorted(known))})")
        chosen = [p for p in everything if game is None or p.game == game]
        themes = sorted({p.theme for p in chosen if p.theme})
        chosen = sorted((p for p in chosen if theme is None or p.theme == theme),
                        key=_by_difficulty)
        return [_summary(p) for p in chosen], themes, all_games

    items, themes, all_games = await asyncio.to_thread(listed)
    page = items[offset:offset + limit_]
    if who is not None:
        tried = await hub.db(hub.accounts.puzzle_tried, who.account.id)
        for item in page:
            found = tried.get(item["id"])
            item["tried"] = None if found is None else ("solved" if found else "missed")
    return {"puzzles": page, "total": len(items), "offset": offset, "games": all_games,
            "themes": themes}


@router.get("/puzzles/daily", responses={204: {"description": "No puzzles on this server"},
                                          **errors()},
            dependencies=[limit("reads", "puzzles")])
async def daily_puzzle(request: Request, hub: HubDep, who: MaybeSigned):
    """Today's puzzle (the same for everyone on a UTC day); 204 when the server has none (the
    home page then shows no puzzle of the day, and logs no error)."""
    today = _today(hub)

    def pick() -> Puzzle | None:
        return shipped.daily(today) if shipped.puzzles() else None

    found = await asyncio.to_thread(pick)
    if found is None:
        return Response(status_code=204)
    return {**await _puzzle_reply(request, found.id, who), "date": today.isoformat()}


@router.get("/puzzles/{puzzle_id}", responses=errors(404),
            dependencies=[limit("reads", "puzzles")])
async def get_puzzle(puzzle_id: str, request: Request, who: MaybeSigned):
    """A puzzle's position (as a lesson step's), its goal, theme and difficulty; never its
    answers."""
    return await _puzzle_reply(request, _checked_puzzle_id(puzzle_id), who)


@router.post("/puzzles/{puzzle_id}/check", responses=errors(403, 404),
             dependencies=[limit("moves", "puzzle moves")])
async def check_puzzle(puzzle_id: str, body: Annotated[CheckPuzzle, Body()], hub: HubDep,
                       who: MaybeWriter):
    """A try at a puzzle: whether the move is an answer, and why. Solved or given up, the
    solution line comes with it; signed in, the first try (a move or giving up) counts
    against the puzzle rating, which the reply gives (``rating``)."""
    puzzle_id = _checked_puzzle_id(puzzle_id)
    if (body.move is None) == (not body.give_up):
        raise Malformed("bad request body: give either 'move' (notation) or 'give_up': true")

    def judged() -> tuple[Puzzle, dict]:
        found = _find_puzzle(puzzle_id)
        if body.give_up:
            answer = (found.line or found.answers)[0]
            return found, {"ok": False, "gave_up": True,
                           "text": f"The solution starts with {answer}."}
        try:
            verdict = shipped.check(found, body.move)
            reply: dict[str, Any] = {"ok": verdict.ok, "text": verdict.text}
        except CathedralError as exc:  # a move the notation cannot even read
            reply = {"ok": False, "text": str(exc)}
        if reply["ok"]:  # the position after the solver's own move (one of the answers)
            state = _puzzle_state(found)
            try:
                state.apply_action(state.string_to_action(body.move))
                reply["after"] = _shown(state)
            except CathedralError:
                pass
        return found, reply

    puzzle, reply = await asyncio.to_thread(judged)
    if reply["ok"] or body.give_up:
        reply["line"] = list(puzzle.line)
        reply["positions"] = await asyncio.to_thread(_line, puzzle)
    if who is not None:
        rated = await hub.puzzle_tried(who, puzzle_id, float(puzzle.difficulty),
                                       bool(reply["ok"]))
        reply["rating"] = None if rated is None else {
            "rating": rated["rating"], "rd": rated["rd"], "before": rated.get("before")}
    return reply


@router.get("/me/puzzles", responses=errors(401))
async def my_puzzles(hub: HubDep, who: SignedIn):
    """Your puzzle rating (null before the first try) and the puzzles you tried: id ->
    solved (true) or missed (false) at the first try."""
    rating = await hub.db(hub.accounts.puzzle_rating, who.account.id)
    tried = await hub.db(hub.accounts.puzzle_tried, who.account.id)
    return {"rating": None if rating is None else {
        "rating": rating["rating"], "rd": rating["rd"], "tried": rating["tried"],
        "solved": rating["solved"]}, "tried": tried}


# ----- practising a position ------------------------------------------------------------------


@router.post("/practise", status_code=201, responses=errors(403, 404, 422),
             dependencies=[limit("creates", "new games")])
async def practise(body: Annotated[Practise, Body()], hub: HubDep, asker: Address,
                   who: MaybeWriter):
    """A new table at a finished game's position after ``ply`` plies: you take the side to
    move, the level every other seat (the created reply, with ``practise_of`` and ``ply``)."""
    reply = await practising.practise(hub, checked_game_id(body.game_id), body.ply,
                                      body.level, asker, who)
    return JSONResponse(reply, status_code=201)
