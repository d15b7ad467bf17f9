"""The lessons (``cathedral.learn.lessons``): every step of every course replays, can be
solved, accepts its answer, explains a wrong move with its own words and an illegal one with
the engine's, and names only real squares; the JSON format round-trips and bad data is
refused naming where it is."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cathedral.core.contract import CHANCE, TERMINAL
from cathedral.core.errors import CathedralError
from cathedral.games.allmer.geometry import parse_point
from cathedral.learn import lessons
from cathedral.learn.lessons import Course, LessonError, Step, Verdict

STEPS = [step for course in lessons.courses() for lesson in course.lessons
         for step in lesson.steps]
IDS = [f"{s.game}-{s.lesson}-{s.id}" for s in STEPS]
_SOLVED: dict[str, tuple] = {}


def solved(step: Step):
    """Returns (position, the actions meeting the goal), worked out once per step."""
    if step.where not in _SOLVED:
        state = lessons.step_state(step)
        _SOLVED[step.where] = (state, lessons.solutions(step, state))
    state, found = _SOLVED[step.where]
    return state.clone(), found


# ----- the courses --------------------------------------------------------------------------


def test_every_game_has_a_course_of_four_to_eight_lessons_of_two_to_five_steps():
    assert [c.game for c in lessons.courses()] == ["allmer", "classic", "red"]
    for course in lessons.courses():
        assert 4 <= len(course.lessons) <= 8, course.game
        for lesson in course.lessons:
            assert 2 <= len(lesson.steps) <= 5, lesson.id


def test_allmer_is_taught_with_two_and_with_four_players_and_classic_with_both_openings():
    players = {lesson.params.get("players", 2) for lesson in lessons.course("allmer").lessons}
    assert players == {2, 4}
    openings = {lesson.params.get("opening", "standard")
                for lesson in lessons.course("classic").lessons}
    assert openings == {"standard", "lehmann"}


def test_a_course_is_found_by_game_and_a_lesson_by_id_and_unknown_ones_are_listed():
    classic = lessons.course("classic")
    assert classic.lesson("capture").steps[0].game == "classic"
    with pytest.raises(LessonError, match=r"no course for 'chess'.*allmer, classic, red"):
        lessons.course("chess")
    with pytest.raises(LessonError, match=r"has no lesson 'nope'.*placing"):
        classic.lesson("nope")


# ----- every step ---------------------------------------------------------------------------


@pytest.mark.parametrize("step", STEPS, ids=IDS)
def test_the_position_replays_legally_with_a_player_to_move(step):
    state, _ = solved(step)
    assert state.current_player() not in (CHANCE, TERMINAL)
    assert len(state.history()) == len(step.start)
    assert state.legal_actions()


@pytest.mark.parametrize("step", STEPS, ids=IDS)
def test_the_goal_is_reachable_and_the_answer_is_accepted(step):
    state, found = solved(step)
    assert found, f"{step.where}: no legal move meets the goal"
    answer = lessons.answer(step)
    assert state.string_to_action(answer) in found
    verdict = lessons.check(step, answer)
    assert verdict.ok and verdict.text.startswith("Right: ")
    # Every move that meets the goal is accepted, not only the answer.
    other = state.action_to_string(found[-1])
    assert lessons.check(step, other).ok


@pytest.mark.parametrize("step", STEPS, ids=IDS)
def test_a_legal_move_that_misses_the_goal_gets_the_steps_wrong_text(step):
    state, found = solved(step)
    missing = [a for a in state.legal_actions() if a not in set(found)]
    if not missing:
        pytest.skip("every legal move meets this goal")
    for action in (missing[0], missing[-1]):
        assert lessons.check(step, state.action_to_string(action)) == Verdict(False, step.wrong)


@pytest.mark.parametrize("step", STEPS, ids=IDS)
def test_an_unparsable_or_illegal_move_is_refused_with_the_engines_reason(step):
    state, _ = solved(step)
    verdict = lessons.check(step, "no such move 99")
    assert not verdict.ok and verdict.text and verdict.text != step.wrong
    with pytest.raises(CathedralError) as caught:
        state.string_to_action("no such move 99")
    assert verdict.text == str(caught.value)
    # A move of a later position, illegal in this one: the engine says why.
    later = state.clone()
    later.apply_action(state.string_to_action(lessons.answer(step)))
    if later.is_chance_node():
        candidates = [later.action_to_string(a) for a, _ in later.chance_outcomes()]
    else:
        candidates = [later.action_to_string(a) for a in later.legal_actions()]
    for text in candidates:
        try:
            state.string_to_action(text)
        except CathedralError as exc:
            assert lessons.check(step, text) == Verdict(False, str(exc))
            return
    pytest.skip("every move of the next position is legal here too")


def _named_squares_are_real(step: Step, state) -> list[str]:
    """Returns what the step's words name that is not on this game's board."""
    words = " ".join([step.text, step.hint, step.wrong, step.answer or ""])
    bad = []
    if step.game == "red":
        cards = {slot["name"] for tower in state.picture()["towers"] for slot in tower["slots"]}
        bad += [c for c in re.findall(r"\bT\d+\.\d+\b", words) if c not in cards]
        spaces = len(state.picture()["market"])
        bad += [f"space {n}" for n in re.findall(r"\bspaces? (\d+)", words)
                if not 1 <= int(n) <= spaces]
        bad += re.findall(r"\b[a-z]\d+\b", words)  # red has no squares
        return bad
    for square in re.findall(r"\b[a-z]\d+\b", words):
        if step.game == "classic":
            if not ("a" <= square[0] <= "j" and 1 <= int(square[1:]) <= 10):
                bad.append(square)
        else:
            try:
                parse_point(square)
            except ValueError:  # the board's own reading of a point's name
                bad.append(square)
    return bad


@pytest.mark.parametrize("step", STEPS, ids=IDS)
def test_every_square_named_in_the_words_is_on_the_board(step):
    state, _ = solved(step)
    assert _named_squares_are_real(step, state) == []


def test_a_square_off_the_board_would_be_caught():
    classic = lessons.course("classic").lessons[0].steps[0]
    allmer = lessons.course("allmer").lessons[0].steps[0]
    red = lessons.course("red").lessons[0].steps[0]
    cases = [(classic, "k3 a11"), (allmer, "a1 o15"), (red, "T9.9 space 12 a1")]
    for step, words in cases:
        fake = Step(**{**step.__dict__, "text": f"Look at {words}."})
        assert len(_named_squares_are_real(fake, lessons.step_state(step))) >= 2


# ----- goals --------------------------------------------------------------------------------


def _step(goal: dict, start=("Cathedral e4 d5 e5 f5 e6 e7",), **fields) -> Step:
    return Step(id="t", text="t", start=tuple(start), goal=goal, hint="h", wrong="no",
                game="classic", params={}, lesson="test", **fields)


def test_composed_goals_and_score_goals_for_a_numbered_player():
    castle = {"kind": "describes", "words": "castle"}
    five = {"kind": "score", "player": 1, "change": {"equals": -5}}
    not_castle = _step({"kind": "all", "goals": [five, {"kind": "not", "goal": castle}]})
    assert lessons.check(not_castle, "Tower a1 b1 b2 c2 c3").ok
    assert lessons.check(not_castle, "Castle a1 b1 c1 a2 c2") == Verdict(False, "no")
    assert lessons.check(not_castle, "Square a1 a2 b1 b2") == Verdict(False, "no")
    other = _step({"kind": "score", "player": "other", "change": {"at_least": 0, "at_most": 0}})
    assert lessons.check(other, "Tavern a1").ok
    listed = _step({"kind": "any", "moves": ["Stable a1 a2"]})
    assert lessons.check(listed, "stable A2 a1").ok  # matched by action, any order or case


def test_an_any_goal_naming_an_illegal_move_is_bad_data():
    step = _step({"kind": "any", "moves": ["Cathedral a1 b1 b2 b3 c2 b4"]})
    with pytest.raises(LessonError, match="lesson test, step t: goal move"):
        lessons.check(step, "Tavern a1")


def test_a_start_that_does_not_replay_names_the_course_lesson_and_step():
    step = _step({"kind": "legal"}, start=("Cathedral e4 d5 e5 f5 e6 e7", "Castle e4"))
    with pytest.raises(LessonError, match=r"course classic, lesson test, step t: start move 2 "
                                          r"'Castle e4' does not replay"):
        lessons.step_state(step)


@pytest.mark.parametrize("breakage, message", [
    (lambda s: s.update(goal={"kind": "guess"}), "step one: goal .*kind"),
    (lambda s: s.update(goal={"kind": "score", "player": "me", "change": {"at_least": 1}}),
     "step one: a score goal's 'player'"),
    (lambda s: s.update(goal={"kind": "describes"}), "step one: describes goal needs 'words'"),
    (lambda s: s.pop("wrong"), "step one: 'wrong' must be a non-empty string"),
    (lambda s: s.update(start="Tavern a1"), "step one: 'start' must be a list"),
    (lambda s: s.update(colour="red"), "step one: unknown field 'colour'"),
])
def test_malformed_data_is_refused_naming_the_course_lesson_and_step(breakage, message):
    step = {"id": "one", "text": "t", "start": [], "goal": {"kind": "legal"}, "hint": "h",
            "wrong": "w"}
    breakage(step)
    data = {"game": "classic", "title": "T",
            "lessons": [{"id": "first", "title": "F", "params": {}, "steps": [step]}]}
    with pytest.raises(LessonError, match="course classic, lesson first, " + message):
        Course.from_dict(data)


def test_a_bad_game_parameter_is_reported_for_the_step():
    step = Step(id="s", text="t", start=(), goal={"kind": "legal"}, hint="h", wrong="w",
                game="classic", params={"opening": "sicilian"}, lesson="l")
    with pytest.raises(LessonError, match=r"course classic, lesson l, step s: .*opening"):
        lessons.step_state(step)


# ----- the JSON format ----------------------------------------------------------------------


@pytest.mark.parametrize("game", ["allmer", "classic", "red"])
def test_a_shipped_course_file_round_trips_through_the_dataclasses(game):
    folder = resources.files("cathedral.learn") / "data" / "lessons"
    text = (folder / f"{game}.json").read_text(encoding="utf-8")
    course = Course.from_json(text)
    assert course.to_dict() == json.loads(text)
    assert Course.from_json(course.to_json()) == course == lessons.course(game)


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
                max_size=20).filter(str.strip)
_goal = st.recursive(
    st.one_of(
        st.just({"kind": "legal"}),
        st.builds(lambda w: {"kind": "describes", "words": w}, _text),
        st.builds(lambda m: {"kind": "any", "moves": m}, st.lists(_text, min_size=1, max_size=3)),
        st.builds(lambda p, k, n: {"kind": "score", "player": p, "change": {k: n}},
                  st.one_of(st.sampled_from(["mover", "other"]), st.integers(0, 3)),
                  st.sampled_from(["at_least", "at_most", "equals"]), st.integers(-9, 9)),
    ),
    lambda inner: st.one_of(
        st.builds(lambda g: {"kind": "not", "goal": g}, inner),
        st.builds(lambda gs: {"kind": "all", "goals": gs}, st.lists(inner, min_size=1,
                                                                       max_size=3)),
    ),
    max_leaves=4,
)


@st.composite
def _courses(draw):
    lessons_data = []
    for number in range(draw(st.integers(1, 3))):
        steps = []
        for index in range(draw(st.integers(1, 3))):
            step = {"id": f"s{index}", "text": draw(_text), "start": draw(st.lists(_text,
                                                                                   max_size=3)),
                    "goal": draw(_goal), "hint": draw(_text), "wrong": draw(_text)}
            if draw(st.booleans()):
                step["answer"] = draw(_text)
            steps.append(step)
        params = draw(st.dictionaries(st.sampled_from(["players", "opening"]),
                                      st.one_of(st.integers(2, 4), _text), max_size=2))
        lessons_data.append({"id": f"l{number}", "title": draw(_text), "params": params,
                             "steps": steps})
    return {"game": draw(st.sampled_from(["classic", "allmer", "red"])), "title": draw(_text),
            "lessons": lessons_data}


@settings(max_examples=60, deadline=None)
@given(_courses())
def test_any_well_formed_course_round_trips_through_json(data):
    course = Course.from_dict(data)
    assert course.to_dict() == data
    assert Course.from_json(course.to_json()) == course
    assert json.loads(course.to_json()) == data
