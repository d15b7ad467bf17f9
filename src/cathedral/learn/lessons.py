"""Lessons: a course per game, each lesson a few steps, each step a position and a sentence.

The courses are data (``data/lessons/<game>.json``, the format in docs/learning.md). A step's
position is its ``start`` moves replayed from the game's initial state, so every position is
reached by legal moves; its ``goal`` is checked by the engine on the learner's move, so any
move that meets it counts.

>>> from cathedral.learn import lessons
>>> step = lessons.course("classic").lessons[0].steps[0]
>>> lessons.check(step, "Cathedral e4 d5 e5 f5 e6 e7").ok
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from cathedral.core.contract import State
from cathedral.core.errors import CathedralError
from cathedral.core.registry import load

GOAL_KINDS = ("any", "describes", "score", "legal", "all", "not")
CHANGES = ("at_least", "at_most", "equals")
STEP_KEYS = {"id", "text", "start", "goal", "hint", "wrong", "answer"}


class LessonError(CathedralError):
    """A course file that is malformed or holds a position, goal or answer that does not work
    (the message names the course, the lesson and the step)."""


@dataclass(frozen=True)
class Verdict:
    """The answer to a learner's move: whether it meets the step's goal, and why (not)."""

    ok: bool
    text: str


@dataclass(frozen=True)
class Step:
    """One position and one thing to do there.

    ``game``, ``params`` and ``lesson`` come from the enclosing course and lesson
    (they are not written in the step's JSON); ``answer`` is an optional move that meets the
    goal (shown after ``skip``, and checked by the tests).
    """

    id: str
    text: str
    start: tuple[str, ...]
    goal: dict
    hint: str
    wrong: str
    answer: str | None = None
    game: str = ""
    params: dict = field(default_factory=dict)
    lesson: str = ""

    @property
    def where(self) -> str:
        """``course classic, lesson claim, step claim-1``: for error messages."""
        return f"course {self.game}, lesson {self.lesson}, step {self.id}"

    def to_dict(self) -> dict:
        data: dict[str, Any] = {"id": self.id, "text": self.text, "start": list(self.start),
                                "goal": self.goal, "hint": self.hint, "wrong": self.wrong}
        if self.answer is not None:
            data["answer"] = self.answer
        return data


@dataclass(frozen=True)
class Lesson:
    """A few steps on one subject, all played with the same game parameters."""

    id: str
    title: str
    params: dict
    steps: tuple[Step, ...]

    def to_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "params": self.params,
                "steps": [s.to_dict() for s in self.steps]}


@dataclass(frozen=True)
class Course:
    """Every lesson of one game, in the order they are taught."""

    game: str
    title: str
    lessons: tuple[Lesson, ...]

    def lesson(self, lesson_id: str) -> Lesson:
        """Returns the lesson with this id, or raises LessonError listing the ids."""
        for item in self.lessons:
            if item.id == lesson_id:
                return item
        raise LessonError(f"course {self.game} has no lesson {lesson_id!r} (lessons: "
                          f"{', '.join(item.id for item in self.lessons)})")

    def to_dict(self) -> dict:
        return {"game": self.game, "title": self.title,
                "lessons": [item.to_dict() for item in self.lessons]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "course") -> Course:
        """Builds a course from its JSON data, checking its shape (not its positions: see
        ``validate``); raises LessonError naming the course, lesson and step at fault."""
        if not isinstance(data, dict):
            raise LessonError(f"{source}: expected an object with game, title and lessons")
        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise LessonError(f"{source}: 'game' must be a game's name")
        where = f"course {game}"
        _keys(data, {"game", "title", "lessons"}, where)
        title = _text(data, "title", where)
        raw_lessons = data.get("lessons")
        if not isinstance(raw_lessons, list) or not raw_lessons:
            raise LessonError(f"{where}: 'lessons' must be a non-empty list")
        lessons = []
        seen: set[str] = set()
        for index, raw in enumerate(raw_lessons):
            lesson = _lesson(raw, game, f"{where}, lesson {index + 1}")
            if lesson.id in seen:
                raise LessonError(f"{where}: lesson id {lesson.id!r} is used twice")
            seen.add(lesson.id)
            lessons.append(lesson)
        return cls(game=game, title=title, lessons=tuple(lessons))

    @classmethod
    def from_json(cls, text: str, *, source: str = "course") -> Course:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LessonError(f"{source}: not JSON ({exc})") from None
        return cls.from_dict(data, source=source)


def _keys(data: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise LessonError(f"{where}: unknown field {unknown[0]!r} (expected: "
                          f"{', '.join(sorted(allowed))})")


def _text(data: dict, key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise LessonError(f"{where}: {key!r} must be a non-empty string")
    return value


def _lesson(raw: Any, game: str, where: str) -> Lesson:
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: expected an object")
    lesson_id = _text(raw, "id", where)
    where = f"course {game}, lesson {lesson_id}"
    _keys(raw, {"id", "title", "params", "steps"}, where)
    title = _text(raw, "title", where)
    params = raw.get("params", {})
    if not isinstance(params, dict):
        raise LessonError(f"{where}: 'params' must be an object of game parameters")
    raw_steps = raw.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise LessonError(f"{where}: 'steps' must be a non-empty list")
    steps = []
    seen: set[str] = set()
    for index, item in enumerate(raw_steps):
        step = _step(item, game, params, lesson_id, f"{where}, step {index + 1}")
        if step.id in seen:
            raise LessonError(f"{where}: step id {step.id!r} is used twice")
        seen.add(step.id)
        steps.append(step)
    return Lesson(id=lesson_id, title=title, params=params, steps=tuple(steps))


def _step(raw: Any, game: str, params: dict, lesson: str, where: str) -> Step:
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: expected an object")
    step_id = _text(raw, "id", where)
    where = f"course {game}, lesson {lesson}, step {step_id}"
    _keys(raw, STEP_KEYS, where)
    start = raw.get("start", [])
    if not isinstance(start, list) or not all(isinstance(m, str) for m in start):
        raise LessonError(f"{where}: 'start' must be a list of moves in notation")
    answer = raw.get("answer")
    if answer is not None and (not isinstance(answer, str) or not answer.strip()):
        raise LessonError(f"{where}: 'answer' must be a move in notation")
    _check_goal(raw.get("goal"), where)
    return Step(id=step_id, text=_text(raw, "text", where), start=tuple(start),
                goal=raw["goal"], hint=_text(raw, "hint", where), wrong=_text(raw, "wrong", where),
                answer=answer, game=game, params=params, lesson=lesson)


def _check_goal(goal: Any, where: str) -> None:
    """Raises LessonError unless ``goal`` is one of the goal kinds, well formed."""
    if not isinstance(goal, dict) or goal.get("kind") not in GOAL_KINDS:
        raise LessonError(f"{where}: goal {goal!r} must be an object whose 'kind' is one of "
                          f"{', '.join(GOAL_KINDS)}")
    kind = goal["kind"]
    fields = {"any": {"moves"}, "describes": {"words"}, "score": {"player", "change"},
              "legal": set(), "all": {"goals"}, "not": {"goal"}}[kind]
    _keys(goal, fields | {"kind"}, f"{where}: {kind} goal")
    missing = sorted(fields - set(goal))
    if missing:
        raise LessonError(f"{where}: {kind} goal needs {missing[0]!r}")
    if kind == "any":
        moves = goal["moves"]
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise LessonError(f"{where}: an any goal's 'moves' must be a non-empty list of moves")
    elif kind == "describes":
        if not isinstance(goal["words"], str) or not goal["words"].strip():
            raise LessonError(f"{where}: a describes goal's 'words' must be a non-empty string")
    elif kind == "score":
        player = goal["player"]
        if player not in ("mover", "other") and (isinstance(player, bool)
                                                 or not isinstance(player, int) or player < 0):
            raise LessonError(f"{where}: a score goal's 'player' must be 'mover', 'other' or a "
                              f"player number, not {player!r}")
        change = goal["change"]
        if (not isinstance(change, dict) or not change or set(change) - set(CHANGES)
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           for v in change.values())):
            raise LessonError(f"{where}: a score goal's 'change' must map some of "
                              f"{', '.join(CHANGES)} to numbers, not {change!r}")
    elif kind == "all":
        if not isinstance(goal["goals"], list) or not goal["goals"]:
            raise LessonError(f"{where}: an all goal's 'goals' must be a non-empty list")
        for inner in goal["goals"]:
            _check_goal(inner, where)
    elif kind == "not":
        _check_goal(goal["goal"], where)


# ----- the shipped courses ------------------------------------------------------------------


@cache
def _shipped() -> tuple[Course, ...]:
    folder = resources.files("cathedral.learn") / "data" / "lessons"
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            found.append(Course.from_json(entry.read_text(encoding="utf-8"),
                                          source=f"lessons/{entry.name}"))
    return tuple(found)


def courses() -> list[Course]:
    """Returns every shipped course, sorted by game name."""
    return sorted(_shipped(), key=lambda c: c.game)


def course(game: str) -> Course:
    """Returns the course of ``game``, or raises LessonError naming the games that have one."""
    for item in _shipped():
        if item.game == game:
            return item
    raise LessonError(f"no course for {game!r} (courses: "
                      f"{', '.join(c.game for c in courses())})")


# ----- positions and goals ------------------------------------------------------------------


def step_state(step: Step) -> State:
    """Returns the step's position: ``start`` replayed from the initial state of
    ``cathedral.load(game, **params)``; raises LessonError if a move does not replay or no
    player is to move at the end."""
    try:
        state = load(step.game, **step.params).new_initial_state()
    except CathedralError as exc:
        raise LessonError(f"{step.where}: {exc}") from None
    for number, move in enumerate(step.start, 1):
        try:
            state.apply_action(state.string_to_action(move))
        except CathedralError as exc:
            raise LessonError(f"{step.where}: start move {number} {move!r} does not replay: "
                              f"{exc}") from None
    if state.current_player() < 0:
        raise LessonError(f"{step.where}: no player is to move at the end of 'start'")
    return state


def _player(goal: dict, mover: int, players: int) -> list[int]:
    who = goal["player"]
    if who == "mover":
        return [mover]
    if who == "other":
        return [p for p in range(players) if p != mover]
    return [who]


def goal_test(goal: dict, before: State, where: str = "goal") -> Callable[[int], bool]:
    """Returns a test of whether an action (legal in ``before``, which is never changed) meets
    ``goal``; what does not depend on the action (an ``any`` goal's moves) is worked out once.
    Raises LessonError when a goal's move is not legal in ``before``."""
    kind = goal["kind"]
    if kind == "legal":
        return lambda action: True
    if kind == "any":
        wanted = set()
        for move in goal["moves"]:
            try:
                wanted.add(before.string_to_action(move))
            except CathedralError as exc:
                raise LessonError(f"{where}: goal move {move!r} is not legal here: "
                                  f"{exc}") from None
        return wanted.__contains__
    if kind == "describes":
        words = goal["words"].lower()
        return lambda action: words in before.describe_action(action).lower()
    if kind == "score":
        mover = before.current_player()
        players = _player(goal, mover, before.game.num_players)
        if any(p >= before.game.num_players for p in players):
            raise LessonError(f"{where}: score goal for player {goal['player']} of a game of "
                              f"{before.game.num_players}")
        bounds = goal["change"]
        old = before.scores()

        def score(action: int) -> bool:
            after = before.clone()
            after.apply_action(action)
            new = after.scores()
            change = sum(new[p] - old[p] for p in players)
            return (change >= bounds.get("at_least", change)
                    and change <= bounds.get("at_most", change)
                    and change == bounds.get("equals", change))

        return score
    if kind == "all":
        tests = [goal_test(inner, before, where) for inner in goal["goals"]]
        return lambda action: all(test(action) for test in tests)
    if kind == "not":
        inner = goal_test(goal["goal"], before, where)
        return lambda action: not inner(action)
    raise LessonError(f"{where}: unknown goal kind {kind!r}")


def meets(goal: dict, before: State, action: int, where: str = "goal") -> bool:
    """Returns whether ``action`` (legal in ``before``, which is not changed) meets ``goal``."""
    return goal_test(goal, before, where)(action)


def check(step: Step, move: str) -> Verdict:
    """Judges the learner's ``move`` at ``step``: an unparsable or illegal move gets the
    engine's reason, a move that misses the goal the step's ``wrong`` text, and a move that
    meets it a short sentence saying what it did."""
    state = step_state(step)
    try:
        action = state.string_to_action(move.strip())
    except CathedralError as exc:
        return Verdict(False, str(exc))
    if not meets(step.goal, state, action, step.where):
        return Verdict(False, step.wrong)
    return Verdict(True, f"Right: {state.describe_action(action)}.")


def solutions(step: Step, state: State | None = None) -> list[int]:
    """Returns every legal action of the step's position that meets its goal (for tests,
    hints and ``skip``)."""
    state = state if state is not None else step_state(step)
    test = goal_test(step.goal, state, step.where)
    return [a for a in state.legal_actions() if test(a)]


def answer(step: Step) -> str:
    """Returns a move that meets the step's goal: its ``answer``, else the first legal move
    that does; raises LessonError when none does."""
    state = step_state(step)
    if step.answer is not None:
        return step.answer
    found = solutions(step, state)
    if not found:
        raise LessonError(f"{step.where}: no legal move meets the goal")
    return state.action_to_string(found[0])
