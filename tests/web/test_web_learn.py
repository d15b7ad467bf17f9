"""Lessons, puzzles and practice in the browser: a newcomer does the first classic lesson by
clicking the board (a wrong move explained on the way), a lesson step by the keyboard alone,
a classic and an Allmer puzzle solved by clicking (a wrong try explained, the solution played
through), the puzzle of the day on the home page, "practise this position" from a replay, and
axe-core finds nothing serious on the new pages.

The puzzle tests read the shipped puzzles (``cathedral.learn.puzzles``) for their answers and
are skipped for a game that has none."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_web_access import serious, tab_to
from test_web_classic import anchor_of, normalised, square_point
from webtest import SCREENSHOTS, game_id, wait_my_turn

from cathedral.learn import lessons
from cathedral.learn import puzzles as shipped


def page_shot(page, name: str) -> None:
    """A screenshot of the page as it is shown (1280 x 800) under build/web-screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def place(page, picture: dict, action: int) -> None:
    """Places the classic move ``action`` of ``picture`` with the pointer: picks its building
    (afresh, so the rotation starts at 0), turns it with R until the tray's shape is the
    move's, points at the city and clicks."""
    move = next(m for m in picture["moves"] if m["action"] == action)
    building = move["notation"].split()[0]
    tray = next(t for t in picture["trays"][picture["to_move"]] if t["building"] == building)
    turns = next(k for k, shape in enumerate(tray["shapes"])
                 if sorted(shape) == normalised(move["squares"]))
    item = page.locator(f'.tray-item.playable[data-building="{building}"]')
    if item.get_attribute("aria-pressed") == "true":
        item.click()  # put down, so that picking it again starts unturned
    item.click()
    expect(item).to_have_attribute("aria-pressed", "true")
    for _ in range(turns):
        page.keyboard.press("r")
    anchor = anchor_of(move["squares"], tray["shapes"][turns])
    page.mouse.move(*square_point(page, anchor))
    page.locator(".ghost.legal").wait_for()
    expect(page.locator(".tools .feedback")).to_contain_text(move["notation"])
    page.mouse.click(*square_point(page, anchor))


def first_classic_lesson():
    return lessons.course("classic").lessons[0]


def test_a_newcomer_does_the_first_classic_lesson_by_clicking(pages, server):
    lesson = first_classic_lesson()
    page = pages.open("/learn")
    course = page.locator('.course[data-game="classic"]')
    expect(course.locator(".lesson-item").first).to_contain_text(lesson.title)
    course.get_by_role("link", name="Start the course").click()
    page.wait_for_url(lambda url: f"/learn/classic/{lesson.id}" in url)
    shown = server.call("GET", f"/api/lessons/classic/{lesson.id}")
    assert page.locator("#verdict").get_attribute("aria-live") == "polite"

    for number, (step, view) in enumerate(zip(lesson.steps, shown["steps"], strict=True)):
        page.locator(f'#board[data-step="{step.id}"][data-solved="false"]').wait_for()
        expect(page.locator("#step-count")).to_have_text(
            f"Step {number + 1} of {len(lesson.steps)}")
        expect(page.locator("#task")).to_contain_text(step.text)
        state = lessons.step_state(step)
        good = lessons.solutions(step, state)
        if number == 1:  # a move that misses the goal is explained, and the step stays
            wrong = next(a for a in state.legal_actions() if a not in good)
            place(page, view["picture"], wrong)
            expect(page.locator("#verdict.wrong")).to_contain_text(step.wrong)
            expect(page.locator("#board")).to_have_attribute("data-solved", "false")
            page_shot(page, "lesson-wrong")
        place(page, view["picture"], view["answer"]["action"])
        page.locator('#board[data-solved="true"]').wait_for()
        expect(page.locator("#verdict.right")).to_contain_text("Right")
        if number == 1:
            page_shot(page, "lesson")
        if number < len(lesson.steps) - 1:
            expect(page.locator("#next")).to_be_focused()
            page.locator("#next").click()

    expect(page.locator("#done")).to_be_visible()
    expect(page.locator("#done-text")).to_contain_text(lesson.title)
    assert page.locator(".step-dot.done").count() == len(lesson.steps)
    page.goto("/learn")
    item = page.locator(f'.course[data-game="classic"] .lesson-item[data-lesson="{lesson.id}"]')
    expect(item).to_have_class("lesson-item done")
    expect(page.locator('.course[data-game="classic"] .btn.primary')).to_have_text("Carry on")


def test_a_lesson_step_with_the_keyboard_alone(pages, server):
    lesson = first_classic_lesson()
    page = pages.open(f"/learn/classic/{lesson.id}")
    step = lesson.steps[0]
    page.locator(f'#board[data-step="{step.id}"]').wait_for()
    # the notation box takes a typed move; a wrong one is explained
    tab_to(page, "#notation")
    page.keyboard.type("Tavern j10")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict.wrong")).to_contain_text("Not quite")
    # the hint, then the city: the Cathedral is picked, arrows steer, Enter places it
    tab_to(page, "#hint", back=True)
    page.keyboard.press("Enter")
    expect(page.locator("#hint-text")).to_contain_text(step.hint)
    tab_to(page, "#board .board-frame svg", back=True)
    page.keyboard.press("ArrowRight")
    page.locator(".ghost.legal").wait_for()
    page.keyboard.press("Enter")
    expect(page.locator("#verdict.right")).to_contain_text("Right")
    expect(page.locator("#next")).to_be_focused()
    page.keyboard.press("Enter")
    page.locator(f'#board[data-step="{lesson.steps[1].id}"]').wait_for()
    expect(page.locator("#task")).to_be_focused()
    expect(page.locator(".step-dot").first).to_have_class("step-dot done")


def puzzle_of(game: str):
    """The easiest shipped puzzle of ``game`` (as the list shows it first), or a skip."""
    every = shipped.puzzles(game)
    if not every:
        pytest.skip(f"no {game} puzzles are shipped yet")
    return min(every, key=lambda p: (p.difficulty, p.id))


def wrong_action(puzzle, state) -> int:
    answers = shipped.answer_actions(puzzle, state)
    return next(a for a in state.legal_actions() if a not in answers)


def test_a_classic_puzzle_is_solved_by_clicking(pages, server):
    puzzle = puzzle_of("classic")
    page = pages.open("/puzzles")
    page.locator('#game-filter .chip[data-game="classic"]').click()
    row = page.locator(f'#puzzles tr[data-puzzle="{puzzle.id}"]')
    expect(page.locator("#puzzles tbody tr").first).to_have_attribute("data-puzzle", puzzle.id)
    row.get_by_role("link").click()
    page.wait_for_url(f"**/puzzles/{puzzle.id}")
    page.locator(f'#board[data-puzzle="{puzzle.id}"]').wait_for()
    expect(page.locator("#puzzle-title")).to_have_text(puzzle.goal)
    view = server.call("GET", f"/api/puzzles/{puzzle.id}")
    state = shipped.start_state(puzzle)

    place(page, view["picture"], wrong_action(puzzle, state))  # explained, and tried again
    expect(page.locator("#verdict.wrong")).to_contain_text("Not quite")
    expect(page.locator("#board")).to_have_attribute("data-outcome", "missed")
    expect(page.locator("#solution")).to_be_hidden()

    place(page, view["picture"], state.string_to_action(puzzle.answers[0]))
    expect(page.locator("#verdict.right")).to_contain_text("Right")
    expect(page.locator("#solution")).to_be_visible()
    page_shot(page, "puzzle")
    assert page.locator("#line button").count() == len(puzzle.line)
    page.locator("#first").click()
    expect(page.locator("#board")).to_have_attribute("data-at", "0")
    for ply in range(1, len(puzzle.line) + 1):
        page.locator("#step").click()
        expect(page.locator("#board")).to_have_attribute("data-at", str(ply))
        expect(page.locator(f'#line button[data-ply="{ply}"]')).to_have_attribute(
            "aria-current", "true")
    page_shot(page, "puzzle-line")
    # this browser keeps the first try (missed), the list says so
    page.goto("/puzzles?game=classic")
    expect(page.locator(f'#puzzles tr[data-puzzle="{puzzle.id}"] .outcome')).to_have_text(
        "✗ missed")


def test_an_allmer_puzzle_is_solved_by_clicking(pages, server):
    puzzle = puzzle_of("allmer")
    page = pages.open(f"/puzzles/{puzzle.id}")
    page.locator(f'#board[data-puzzle="{puzzle.id}"]').wait_for()
    state = shipped.start_state(puzzle)
    view = server.call("GET", f"/api/puzzles/{puzzle.id}")

    def click(notation: str) -> None:
        if notation == "stop":
            page.get_by_role("button", name="Stop the chain").click()
            return
        origin = next(view["picture"]["points"][m["from"]]["name"]
                      for m in view["picture"]["moves"]
                      if any(s["notation"] == notation for s in m["steps"]))
        if not view["picture"]["chain"]:
            page.locator(f'.stone.movable[data-point="{origin}"]').click()
        page.locator(f'.landing[data-notation="{notation}"]').click()

    click(state.action_to_string(wrong_action(puzzle, state)))
    expect(page.locator("#verdict.wrong")).to_contain_text("Not quite")
    page.locator('#board[data-outcome="missed"]').wait_for()
    click(state.action_to_string(state.string_to_action(puzzle.answers[0])))
    expect(page.locator("#verdict.right")).to_contain_text("Right")
    expect(page.locator("#next")).to_be_visible()
    page.locator("#play-line").click()  # plays the line through to its end
    expect(page.locator("#board")).to_have_attribute("data-at", str(len(puzzle.line)),
                                                     timeout=30_000)
    page_shot(page, "puzzle-allmer")


def test_the_puzzle_of_the_day_is_on_the_home_page(pages, server):
    if not shipped.puzzles():
        pytest.skip("no puzzles are shipped yet")
    daily = server.call("GET", "/api/puzzles/daily")
    page = pages.open("/")
    expect(page.locator("#daily")).to_be_visible()
    expect(page.locator("#daily-goal")).to_have_text(daily["goal"])
    page.locator("#daily-link").click()
    page.wait_for_url(f"**/puzzles/{daily['id']}")
    page.locator(f'#board[data-puzzle="{daily["id"]}"]').wait_for()


def test_practise_this_position_from_a_replay(pages, server):
    created = server.create("classic", ["human", "human"])
    tokens = [seat["token"] for seat in created["seats"]]
    gid = created["id"]
    for ply, move in enumerate(["Cathedral d5 e4 e5 e6 e7 f5", "Castle c3 d3 e3 c2 e2",
                                "Infirmary h7 g6 h6 i6 h5"]):
        server.move(gid, tokens[ply % 2], move)
    server.call("POST", f"/api/games/{gid}/resign", {"ply": 3}, tokens[0])
    page = pages.open(f"/replay/{gid}?ply=2")
    page.locator('#board[data-ply="2"]').wait_for()
    expect(page.locator("#practise")).to_be_enabled()
    page.locator("#practise-level").select_option("random")
    page.locator("#practise").click()
    page.wait_for_url("**/g/**")
    wait_my_turn(page)  # Light is to move after two plies: the page's seat
    practice = server.view(game_id(page))
    assert practice["ply"] == 2 and practice["seats"] == ["human", "random"]
    assert practice["history"] == server.view(gid)["history"][:2]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_the_learning_pages(pages, server, phone):
    lesson = first_classic_lesson()
    paths = ["/learn", f"/learn/classic/{lesson.id}", "/puzzles", "/puzzles/no-such-puzzle",
             "/learn/classic/no-such-lesson"]
    every = shipped.puzzles()
    if every:
        paths.append(f"/puzzles/{every[0].id}")
    pages.expect_error("status of 404")  # the missing puzzle and lesson
    for path in paths:
        page = pages.open(path, phone=phone)
        if "no-such" in path:
            page.locator("#missing h1").wait_for()
        elif path.startswith(("/learn/", "/puzzles/")):
            page.locator("#board .board-frame, #board .red-table").first.wait_for()
        elif path == "/learn":
            page.locator(".course").first.wait_for()
        else:
            page.locator("#puzzles tbody tr, #count").first.wait_for()
            expect(page.locator("#count")).not_to_be_empty()
        assert serious(page) == [], path
