"""Classic Cathedral in the browser: a table against the computer from the home page, moves by
pointer only (pick, rotate, place), take-back, resignation, and the replay."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect
from webtest import (
    PLIES,
    game_id,
    move_count,
    screenshot,
    start_from_home,
    svg_point,
    wait_moves,
    wait_my_turn,
)

# the city's SVG (boards/classic.js): 24 px left margin, 8 px top, 40 px squares
VIEW = (432.0, 432.0)


def square_point(page, square: int):
    file, rank = square % 10, square // 10
    x, y = 24 + file * 40 + 20, 8 + (9 - rank) * 40 + 20
    return svg_point(page, "#board .board-frame svg", x, y, VIEW)


def anchor_of(squares: list[int], shape: list[list[int]]) -> int:
    """Returns the square under the pointer that puts ``shape`` on ``squares`` (the ghost is
    centred like boards/classic.js does it)."""
    files = [s % 10 for s in squares]
    ranks = [s // 10 for s in squares]
    width = max(x for x, _ in shape)
    height = max(y for _, y in shape)
    return (min(ranks) + height // 2) * 10 + min(files) + width // 2


def normalised(squares: list[int]) -> list[list[int]]:
    files = [s % 10 for s in squares]
    ranks = [s // 10 for s in squares]
    return sorted([s % 10 - min(files), s // 10 - min(ranks)] for s in squares)


def find_placement(picture: dict, building: str, rotation: int):
    """Returns (move, anchor square) of a legal placement of ``building`` in the rotation the
    tray shows after ``rotation`` turns."""
    tray = next(t for t in picture["trays"][picture["to_move"]] if t["building"] == building)
    shape = tray["shapes"][rotation % len(tray["shapes"])]
    for move in picture["moves"]:
        if move["notation"].split()[0] == building and normalised(move["squares"]) == sorted(shape):
            return move, anchor_of(move["squares"], shape)
    raise AssertionError(f"no legal {building} in rotation {rotation}")


def test_classic_against_the_computer_by_pointer(pages, server):
    page = pages.open("/")
    start_from_home(page, "classic", seats={1: "easy"})
    gid = game_id(page)
    wait_my_turn(page)

    # the Cathedral is picked for Light's first placement: place it with the pointer
    picture = server.picture(gid)
    move, anchor = find_placement(picture, "Cathedral", 0)
    page.mouse.move(*square_point(page, anchor))
    page.wait_for_selector(".ghost.legal")
    page.mouse.click(*square_point(page, anchor))
    wait_moves(page, 2)  # the Cathedral and the computer's reply
    assert page.locator("#moves li").first.inner_text().endswith(move["notation"])
    wait_my_turn(page)
    assert page.locator(".cathedral").count() == 1

    # pick the Castle, rotate it with the button and the R key, place it
    page.locator('.tray-item.playable[data-building="Castle"]').click()
    page.locator(".tools button", has_text="Rotate").click()
    page.keyboard.press("r")
    picture = server.picture(gid)
    move, anchor = find_placement(picture, "Castle", 2)
    before = move_count(page)
    page.mouse.move(*square_point(page, anchor))
    page.wait_for_selector(".ghost.legal")
    assert move["notation"] in page.locator(".tools").inner_text()
    page.mouse.click(*square_point(page, anchor))
    wait_moves(page, before + 2)
    assert page.locator(".building.player-0").count() == 1
    screenshot(page, "classic")

    # an illegal spot shows an illegal ghost and places nothing
    page.locator('.tray-item.playable[data-building="Tavern"]').click()
    cathedral_square = server.picture(gid)["cathedral"]["squares"][2]
    page.mouse.move(*square_point(page, cathedral_square))
    page.wait_for_selector(".ghost.illegal")

    # take back: the Castle and the computer's reply go
    page.locator("#takeback").click()
    expect(page.locator(PLIES)).to_have_count(before)
    expect(page.locator(".building.player-0")).to_have_count(0)
    assert server.view(gid)["ply"] == before

    # the computer's hint names a legal placement
    page.locator("#hint").click()
    hint = page.locator("#hint-box .best-move")
    hint.wait_for()
    assert hint.inner_text() in {m["notation"] for m in server.picture(gid)["moves"]}

    # resign (the button asks once more), see the result, download the record
    page.locator("#resign").click()
    page.locator("#resign").click()
    page.wait_for_selector("#result:not(.hidden)")
    assert "Dark" in page.locator("#result").inner_text()
    assert server.view(gid)["status"] == "finished"
    with page.expect_download() as download:
        page.locator("#record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == "classic" and len(record["actions"]) == before

    # the replay steps through the game
    page.locator("#replay").click()
    page.wait_for_url(f"**/replay/{gid}")
    page.wait_for_selector("#board .board-frame")
    expect(page.locator("#ply")).to_have_text(f"ply {before} / {before}")
    page.locator("#first").click()
    expect(page.locator("#ply")).to_have_text(f"ply 0 / {before}")
    expect(page.locator(".cathedral")).to_have_count(0)
    page.locator("#next").click()
    page.wait_for_selector(".cathedral")
    assert page.locator("#moves [aria-current='true']").get_attribute("data-ply") == "1"

    # analyse: the hard player's best move for Dark at this position
    page.locator("#analyse").click()
    best = page.locator(".best-move")
    best.wait_for()
    at_ply_1 = server.call("GET", f"/api/games/{gid}/picture?ply=1")
    dark_moves = {m["notation"] for m in at_ply_1["moves"]}
    assert best.inner_text() in dark_moves


def test_classic_lehmann_opening_and_notation_box(pages, server):
    page = pages.open("/?game=classic")
    start_from_home(page, "classic", params={"opening": "lehmann"}, seats={0: "random", 1: "human"})
    # Lehmann: Dark builds first; we are Dark
    wait_my_turn(page)
    page.locator("#notation").fill("Tavern a1")
    page.locator("#notation-form button").click()
    wait_moves(page, 2)
    assert "Tavern a1" in page.locator("#moves").inner_text()
    assert "Cathedral" in page.locator("#moves li").nth(1).inner_text()


def test_classic_on_a_phone_by_touch_and_by_keyboard(pages, server):
    page = pages.open("/", phone=True)
    start_from_home(page, "classic", seats={1: "random"})
    gid = game_id(page)
    wait_my_turn(page)
    picture = server.picture(gid)
    move, anchor = find_placement(picture, "Cathedral", 0)
    # a first tap shows the ghost and a Place button; a second tap on the same square places
    page.touchscreen.tap(*square_point(page, anchor))
    page.wait_for_selector(".ghost.legal")
    expect(page.locator(".tools button", has_text="Place here")).to_be_visible()
    page.touchscreen.tap(*square_point(page, anchor))
    wait_moves(page, 2)
    assert move["notation"] in page.locator("#moves li").first.inner_text()
    screenshot(page, "classic-phone")

    # keyboard: pick the Bridge, turn it with R, walk the ghost with the arrows, Enter places
    wait_my_turn(page)
    page.locator('.tray-item.playable[data-building="Bridge"]').click()
    board = page.locator("#board .board-frame svg")
    board.focus()
    page.keyboard.press("r")
    move, anchor = find_placement(server.picture(gid), "Bridge", 1)
    for key in ["ArrowLeft"] * 9 + ["ArrowDown"] * 9:  # to a1 (the ghost's anchor clamps)
        page.keyboard.press(key)
    for key in ["ArrowRight"] * (anchor % 10) + ["ArrowUp"] * (anchor // 10):
        page.keyboard.press(key)
    page.wait_for_selector(".ghost.legal")
    placed = move["notation"]
    assert placed in page.locator(".tools").inner_text()
    page.keyboard.press("Enter")
    wait_moves(page, 3)
    assert placed in page.locator("#moves li").nth(2).inner_text()
