"""``cathedral learn``: a course walked in the terminal, step by step, with hints, skips, the
step's own words for a wrong move and the engine's for an illegal one."""

from __future__ import annotations

import io
import subprocess
import sys

import pexpect
import pytest

from cathedral.learn import lessons
from cathedral.terminal.learn import Tutor, learn

CLI = [sys.executable, "-m", "cathedral"]


def test_the_first_classic_lesson_is_completed_by_typing_its_answers_in_a_real_terminal():
    first = lessons.course("classic").lessons[0]
    child = pexpect.spawn(sys.executable, ["-m", "cathedral", "learn", "classic", "--color",
                                           "never"],
                          encoding="utf-8", timeout=60, dimensions=(30, 100))
    child.expect(r"Lesson 1 of 6: Placing buildings \(step 1 of 4\)")
    child.expect("Light> ")
    # A mistyped move gets the engine's reason, a legal one that misses the goal the step's
    # own explanation; neither moves on.
    child.sendline("Cathedral z1")
    child.expect("Not a legal move here: ")
    child.expect("Light> ")
    for index, step in enumerate(first.steps):
        if index == 1:
            child.sendline("Tavern a1")
            child.expect_exact("Not yet. " + step.wrong[:40])
            child.expect("Dark> ")
            child.sendline("hint")
            child.expect_exact("Hint: " + step.hint)
            child.expect("Dark> ")
        child.sendline(lessons.answer(step))
        child.expect("Right: ")
        if index + 1 < len(first.steps):
            child.expect(rf"\(step {index + 2} of 4\)")
            child.expect(r"(Light|Dark)> ")
    child.expect("Lesson 1 done: Placing buildings.")
    child.expect(r"Lesson 2 of 6: Claiming territory \(step 1 of 3\)")
    child.expect("Light> ")
    child.sendline("quit")
    child.expect("Stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_an_unknown_lesson_is_refused_with_the_list_of_lessons():
    run = subprocess.run([*CLI, "learn", "allmer", "--lesson", "castling"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2
    assert "course allmer has no lesson 'castling'" in run.stderr
    assert "steps, lines, approach" in run.stderr


@pytest.mark.parametrize("game", ["classic", "allmer", "red"])
def test_every_lesson_of_a_course_is_walked_to_the_end_by_its_answers(game):
    course = lessons.course(game)
    answers = [lessons.answer(step) for lesson in course.lessons for step in lesson.steps]
    out = io.StringIO()
    status = learn(game, out=out, inp=io.StringIO("\n".join(answers) + "\n"))
    text = out.getvalue()
    assert status == 0
    assert text.count("Right: ") == len(answers)
    assert f"Course done: {len(answers)} steps." in text
    for number, lesson in enumerate(course.lessons, 1):
        assert f"Lesson {number} done: {lesson.title}." in text


def test_skip_shows_a_move_and_goes_on_and_the_end_of_input_stops():
    out = io.StringIO()
    tutor = Tutor(lessons.course("allmer"), first="lines", out=out,
                  inp=io.StringIO("help\nmoves\nboard\nskip\n"))
    assert tutor.run() == 0
    text = out.getvalue()
    assert "skip           show a move" in text  # help
    assert "(30 moves)" in text  # every legal move, listed
    assert "Skipped; one move that does it: h3-i4" in text
    assert "Lesson 2 of 7: Strong points and passages (step 2 of 2)" in text
    assert text.rstrip().endswith("Stopped.")
    assert tutor.skipped == 1 and tutor.done_steps == 0


def test_a_wrong_move_is_explained_and_asked_again():
    out = io.StringIO()
    step = lessons.course("red").lesson("market").steps[0]
    tutor = Tutor(lessons.course("red"), first="market", out=out,
                  inp=io.StringIO("die white\ndie purple\ndie yellow\nquit\n"))
    tutor.run()
    text = out.getvalue()
    assert "Not yet. " + step.wrong in text.replace("\n", " ")
    assert "Not a legal move here: " in text
    assert "Right: die yellow" in text
    assert tutor.done_steps == 1
