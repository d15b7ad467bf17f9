"""The pages as players who use a keyboard, a screen reader or a phone ask for them: axe-core
finds no serious or critical violation on any page, a whole classic and a whole Allmer game
are played with the keyboard alone, moves are read out in a live region, and every control
on a phone is a finger's size."""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect
from test_web_classic import anchor_of, normalised
from webtest import wait_my_turn, wait_past

AXE = Axe()


def serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    found = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
            for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_any_page(pages, server, phone):
    tables = [
        server.create("classic", ["human", "easy"]),
        server.create("allmer", ["human", "easy", "easy", "easy"], players=4),
        server.create("red", ["human", "easy"], players=2),
    ]
    paths = ["/", "/lobby", "/g/nosuchgame", f"/replay/{tables[0]['id']}"]
    paths += [t["seats"][0]["url"] for t in tables] + [f"/g/{tables[2]['id']}"]
    pages.expect_error("status of 404")  # /g/nosuchgame asks for a game that is not there
    for path in paths:
        page = pages.open(path, phone=phone)
        page.locator("#banner:visible, .hero:visible, #missing h1:visible").first.wait_for()
        if path.startswith(("/g/", "/replay/")) and "nosuchgame" not in path:
            page.locator("#board[data-ply]").wait_for()
        assert serious(page) == [], path


def tab_to(page, selector: str, *, back: bool = False, limit: int = 150) -> None:
    """Presses Tab (Shift+Tab with ``back``) until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.locator(f"{selector}:focus").count():
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {selector}")


def any_placement(picture: dict) -> tuple[str, int, int]:
    """A legal placement as the keys make it: (building, turns of R, anchor square)."""
    for tray in picture["trays"][picture["to_move"]]:
        if not tray["in_hand"]:
            continue
        for turns, shape in enumerate(tray["shapes"]):
            for move in picture["moves"]:
                if (move["notation"].split()[0] == tray["building"]
                        and normalised(move["squares"]) == sorted(shape)):
                    return tray["building"], turns, anchor_of(move["squares"], shape)
    raise AssertionError("no legal placement")


def test_a_whole_classic_game_with_the_keyboard_alone(pages, server):
    table = server.create("classic", ["human", "random"])
    gid = table["id"]
    page = pages.open(table["seats"][0]["url"])
    placed = 0
    while server.view(gid)["status"] == "playing":
        wait_my_turn(page)
        view = server.view(gid)
        if view["status"] != "playing" or view["current_player"] != 0:
            continue
        building, turns, anchor = any_placement(server.picture(gid))
        item = page.locator(f'.tray-item.playable[data-building="{building}"]')
        if item.get_attribute("aria-pressed") != "true":
            tab_to(page, f'.tray-item.playable[data-building="{building}"]')
            page.keyboard.press("Enter")  # picks it; the city takes the keys
        else:
            tab_to(page, "#board .board-frame svg", back=True)
        expect(page.locator("#board .board-frame svg")).to_be_focused()
        for _ in range(turns):
            page.keyboard.press("r")
        for key in ["ArrowLeft"] * 9 + ["ArrowDown"] * 9:
            page.keyboard.press(key)
        for key in ["ArrowRight"] * (anchor % 10) + ["ArrowUp"] * (anchor // 10):
            page.keyboard.press(key)
        page.locator(".ghost.legal").wait_for()
        page.keyboard.press("Enter")
        wait_past(page, view["ply"])
        placed += 1
    assert placed >= 5
    page.locator("#result:not(.hidden)").wait_for()


def test_a_whole_allmer_game_with_the_keyboard_alone(pages, server):
    table = server.create("allmer", ["human", "random"], players=2, max_turns=10)
    gid = table["id"]
    page = pages.open(table["seats"][0]["url"])
    rng = random.Random(4)
    steps = 0
    while server.view(gid)["status"] == "playing":
        wait_my_turn(page)
        view = server.view(gid)
        if view["status"] != "playing" or view["current_player"] != 0:
            continue
        picture = server.picture(gid)
        if picture["chain"] and picture["chain"].get("stop"):
            page.keyboard.press("s")  # end the chain
        else:
            move = rng.choice([m for m in picture["moves"] if m["steps"]])
            step = rng.choice(move["steps"])
            origin = picture["points"][move["from"]]["name"]
            if not picture["chain"]:
                tab_to(page, f'.stone.movable[data-point="{origin}"]')
                page.keyboard.press("Enter")  # the stone's landings; the keys go to the first
            tab_to(page, f'.landing[data-notation="{step["notation"]}"]')
            page.keyboard.press("Enter")
        wait_past(page, view["ply"])
        steps += 1
    assert steps >= 3
    page.locator("#result:not(.hidden)").wait_for()


def test_the_computers_moves_are_read_out_in_a_live_region(pages, server):
    table = server.create("classic", ["human", "easy"])
    page = pages.open(table["seats"][0]["url"])
    wait_my_turn(page)
    region = page.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    page.locator("#notation").fill("Cathedral e4 d5 e5 f5 e6 e7")
    page.locator("#notation").press("Enter")
    wait_my_turn(page)
    dark = server.view(table["id"])["history"][1]
    expect(region).to_have_text(f"Dark: {dark}", use_inner_text=True)


@pytest.mark.parametrize("game", ["classic", "allmer", "red"])
def test_every_control_on_a_phone_is_a_fingers_size(pages, server, game):
    table = server.create(game, ["human", "easy"])
    page = pages.open(table["seats"][0]["url"], phone=True)
    wait_my_turn(page)
    controls = page.locator(".btn:visible, .chip:visible, .choice:visible, "
                            ".tray-item.playable:visible, #moves button:visible, input:visible")
    # measured in one go: a board redrawn between two calls would swap the elements under them
    boxes = controls.evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.innerText || e.value, r.width, r.height]; })")
    assert len(boxes) > 3
    for text, width, height in boxes:
        assert height >= 44 and width >= 44, (text, width, height)


def test_on_a_phone_allmer_zooms_in_on_a_picked_stone_so_its_landings_are_fingers_apart(
        pages, server):
    table = server.create("allmer", ["human", "easy"])
    page = pages.open(table["seats"][0]["url"], phone=True)
    wait_my_turn(page)
    picture = server.picture(table["id"])
    move = max(picture["moves"], key=lambda m: len(m["steps"]))
    stone = page.locator(f'.stone.movable[data-point="{picture["points"][move["from"]]["name"]}"]')
    box = stone.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("#board svg.zoomed")).to_have_count(1)  # 46 px a gap, scrolling
    centres = []
    for el in [stone, *page.locator(".landing").all()]:
        b = el.bounding_box()
        centres.append((b["x"] + b["width"] / 2, b["y"] + b["height"] / 2))
    assert len(centres) == len(move["steps"]) + 1
    gaps = [((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5
            for i, (ax, ay) in enumerate(centres) for bx, by in centres[i + 1:]]
    assert min(gaps) >= 44, gaps
    # a tap between two points goes to the nearer: half a gap off a landing plays it
    landing = page.locator(".landing").first
    landing.scroll_into_view_if_needed()
    b = landing.bounding_box()
    notation = landing.get_attribute("data-notation")
    ply = server.view(table["id"])["ply"]
    page.touchscreen.tap(b["x"] + b["width"] / 2 + 12, b["y"] + b["height"] / 2)
    wait_past(page, ply)
    assert server.view(table["id"])["history"][ply] == notation


def test_on_a_phone_a_red_card_says_what_it_is_when_tapped(pages, server):
    table = server.create("red", ["human", "easy"])
    page = pages.open(table["seats"][0]["url"], phone=True)
    wait_my_turn(page)
    card = page.locator("div.card[data-slot]").first
    card.tap()
    note = page.locator('.card-menu[role="note"]')
    expect(note).to_contain_text(card.get_attribute("data-slot"))
    expect(note).to_contain_text("completing it gives")
