"""A course of lessons in the terminal (``cathedral learn GAME``): each step's board drawn as
``cathedral play`` draws it, its sentence, and a prompt that takes a move (judged by the
step's goal), ``hint``, ``skip``, ``moves``, ``board``, ``help`` or ``quit``.

The lessons themselves are data (``cathedral.learn.lessons``); this module only shows them.
"""

from __future__ import annotations

import contextlib
import inspect
import sys
import textwrap

from cathedral.core.contract import State
from cathedral.core.errors import CathedralError
from cathedral.learn import lessons
from cathedral.learn.lessons import Course, Lesson, Step
from cathedral.terminal.lineedit import LineReader
from cathedral.terminal.listing import columns, matches, page

WIDTH = 100  # the width text is wrapped to when the terminal's is unknown
LIST_LIMIT = 40  # the legal choices are listed under the board when there are at most this many

HELP = """At the prompt:
  <move>         your move, in the game's notation (see 'cathedral rules {game}')
  hint           a hint for this step
  skip           show a move that does it, and go on to the next step
  moves [words]  the legal moves (only those with every word, e.g. 'moves castle a1')
  board          the board again
  quit           stop (Ctrl-D and Ctrl-C too); 'cathedral learn {game} --lesson ID' goes
                 back to a lesson
  help           this text"""


class Stop(Exception):
    """The learner asked to stop (``quit`` or the end of input)."""


class Tutor:
    """Walks a course from one of its lessons to its end.

    Args:
        course: the course to walk.
        first: the id of the lesson to begin with (None: the first).
        color: ANSI colours, and the screen cleared before each board.
        out, inp: the streams (default: the terminal).
        size: the terminal's (columns, rows), for boards that fit themselves to it.
    """

    def __init__(self, course: Course, *, first: str | None = None, color: bool = False,
                 out=None, inp=None, size: tuple[int, int] | None = None) -> None:
        self.course = course
        self.lessons = list(course.lessons)
        if first is not None:
            start = self.lessons.index(course.lesson(first))  # an unknown id: LessonError
            self.lessons = self.lessons[start:]
        self.color = color
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.size = size
        self.width = size[0] if size else WIDTH
        self.state: State | None = None
        self.reader = LineReader(self.inp, self.out, self._move_texts)
        self.done_steps = 0
        self.skipped = 0
        self.said = ""  # the answer to the last step, shown again above a cleared screen

    # ----- output -------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        with contextlib.suppress(OSError, ValueError):
            print(text, file=self.out, flush=True)

    def wrap(self, text: str, indent: str = "") -> str:
        return textwrap.fill(text, width=max(40, self.width - 1), initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False,
                             break_long_words=False)

    def board(self, *, full: bool = False) -> str:
        """Returns the step's board as ``cathedral play`` draws it, fitted to the terminal
        where the game's render takes a size (``full``: the width only)."""
        assert self.state is not None
        kwargs: dict = {"color": self.color}
        if self.size:
            accepted = inspect.signature(self.state.render).parameters
            if "width" in accepted:
                kwargs["width"] = self.size[0]
            if "height" in accepted and not full:
                kwargs["height"] = max(10, self.size[1] - 8)  # room for the step's words
        return self.state.render(**kwargs)

    # ----- the walk -----------------------------------------------------------------------

    def run(self) -> int:
        """Walks the lessons; returns 0 when the course is done or the learner stops."""
        self.say(self.wrap(f"{self.course.title}: {len(self.lessons)} lesson"
                           f"{'s' if len(self.lessons) != 1 else ''}. Type 'help' at the "
                           "prompt for the commands."))
        try:
            for lesson in self.lessons:
                self.lesson(lesson)
        except Stop:
            self.say("Stopped.")
            return 0
        except KeyboardInterrupt:
            self.say("\nInterrupted.")
            return 130
        self.say(self.wrap(f"Course done: {self.done_steps} step"
                           f"{'s' if self.done_steps != 1 else ''}"
                           + (f", {self.skipped} skipped." if self.skipped else ".")))
        return 0

    def lesson(self, lesson: Lesson) -> None:
        number = [item.id for item in self.course.lessons].index(lesson.id) + 1
        for index, step in enumerate(lesson.steps, 1):
            self.state = lessons.step_state(step)
            self.show(step, f"Lesson {number} of {len(self.course.lessons)}: {lesson.title} "
                      f"(step {index} of {len(lesson.steps)})")
            self.ask(step)
        done = self.wrap(f"Lesson {number} done: {lesson.title}.")
        self.said = f"{self.said}\n{done}" if self.said else done
        self.say(done)

    def show(self, step: Step, heading: str) -> None:
        assert self.state is not None
        if self.color:  # the screen is cleared: say again how the last step went
            self.say("\x1b[2J\x1b[H" + (self.said + "\n" if self.said else ""))
        board = self.board()
        self.say(board)
        self.say()
        self.say(heading + (" - 'board' shows the whole board" if board != self.board(full=True)
                            else ""))
        self.say(self.wrap(step.text, "  "))
        hint = self.state.prompt_hint()
        if hint:
            self.say(self.wrap(hint))
        legal = self.state.legal_actions()
        if len(legal) <= LIST_LIMIT:
            self.say(self.wrap("Legal: " + ", ".join(self.state.action_to_string(a)
                                                     for a in legal)))
        else:
            self.say(f"{len(legal)} legal moves; 'moves' lists them, 'hint' helps.")

    def ask(self, step: Step) -> None:
        """Reads lines until a move meets the step's goal or the learner skips it."""
        assert self.state is not None
        name = self.state.game.player_names()[self.state.current_player()]
        while True:
            line = self.reader.read(f"{name}> ")
            if line is None:
                self.say()
                raise Stop
            line = line.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command in ("quit", "exit"):
                raise Stop
            if command == "help":
                self.say(HELP.format(game=self.course.game))
            elif command == "hint":
                self.say(self.wrap("Hint: " + step.hint))
            elif command == "skip":
                self.said = self.wrap(f"Skipped; one move that does it: {lessons.answer(step)}")
                self.say(self.said)
                self.skipped += 1
                return
            elif command == "board":
                self.say(self.board(full=True))
            elif command == "moves":
                self.list_moves(rest.strip())
            else:
                try:
                    verdict = lessons.check(step, line)
                except CathedralError as exc:  # bad lesson data: say so, never crash
                    self.say(f"error: {exc}")
                    continue
                if verdict.ok:
                    self.said = self.wrap(verdict.text)
                    self.say(self.said)
                    self.done_steps += 1
                    return
                if verdict.text == step.wrong:
                    self.say(self.wrap(f"Not yet. {verdict.text}"))
                else:  # unparsable or illegal: the engine's reason
                    self.say(self.wrap(f"Not a legal move here: {verdict.text}"))

    def list_moves(self, needle: str) -> None:
        assert self.state is not None
        texts = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        if needle:
            texts = [t for t in texts if matches(t, needle)]
        if not texts:
            self.say(f"no legal move has every word of {needle!r}")
            return
        height = self.size[1] - 2 if self.size else None
        count = f"({len(texts)} move{'s' if len(texts) != 1 else ''})"
        page([*columns(texts, self.width), count], height, self.say, self.reader.read)

    def _move_texts(self) -> list[str]:
        if self.state is None:
            return []
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]


def learn(game: str, *, lesson: str | None = None, color: bool = False,
          size: tuple[int, int] | None = None, out=None, inp=None) -> int:
    """Walks the course of ``game`` from ``lesson`` on; returns the exit status."""
    tutor = Tutor(lessons.course(game), first=lesson, color=color, size=size, out=out, inp=inp)
    return tutor.run()
