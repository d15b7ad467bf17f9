"""Allmer's Cathedral in the browser: a four-player table against the computer from the home
page, a step by pointer, take-back, resignation and the replay; a chain ended by Stop."""

from __future__ import annotations

from playwright.sync_api import expect
from webtest import PLIES, game_id, screenshot, start_from_home, wait_moves, wait_my_turn

# White reaches a chain: f8-f9A converts and the same stone may convert again (the engine's
# own move generator found this line; the test checks the chain is really there)
CHAIN_LINE = ("f3-f7", "f13-f10", "f7-f8", "h13-h11")


def test_allmer_four_players_against_the_computer(pages, server):
    page = pages.open("/")
    start_from_home(
        page, "allmer", params={"players": 4}, seats={1: "random", 2: "random", 3: "random"}
    )
    gid = game_id(page)
    wait_my_turn(page)
    for colour in ("white", "blue", "black", "red"):
        assert page.locator(f".stone.{colour}").count() == 15
    assert page.locator(".stone.movable").count() == 5  # the front row of White's arm

    page.locator(".stone.movable").first.click()
    landing = page.locator(".landing").first
    notation = landing.get_attribute("data-notation")
    landing.click()
    wait_moves(page, 4)  # our step and the three computers'
    assert notation in page.locator("#moves li").first.inner_text()
    wait_my_turn(page)
    screenshot(page, "allmer")

    page.locator("#takeback").click()
    expect(page.locator(PLIES)).to_have_count(0)
    assert server.view(gid)["ply"] == 0

    page.locator("#resign").click()
    page.locator("#resign").click()
    page.wait_for_selector("#result:not(.hidden)")
    assert server.view(gid)["result"]["resigned"] == 0

    page.locator("#replay").click()
    page.wait_for_url(f"**/replay/{gid}")
    expect(page.locator("#ply")).to_have_text("ply 0 / 0")
    expect(page.locator(".stone")).to_have_count(60)  # waits for the replay to draw

    # a rematch: same game, seats rotated, the same secret keeps our seat (now Blue's)
    page.go_back()
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: "/g/" in url and gid not in url)
    rematch = game_id(page)
    assert server.view(gid)["rematch"] == rematch
    assert server.view(rematch)["seats"] == ["random", "human", "random", "random"]
    expect(page.locator('#players li[data-player="1"]')).to_contain_text("you")


def test_allmer_chain_with_a_visible_stop(pages, server):
    created = server.create("allmer", ["human", "human"])
    white, black = (seat["token"] for seat in created["seats"])
    gid = created["id"]
    for ply, move in enumerate(CHAIN_LINE):
        server.move(gid, white if ply % 2 == 0 else black, move)
    page = pages.open(created["seats"][0]["url"])
    wait_my_turn(page)

    page.locator('.stone.movable[data-point="f8"]').click()
    step = page.locator('.landing[data-notation="f8-f9A"]')
    step.hover()
    assert page.locator(".converts").count() >= 1  # the stones it would convert are marked
    step.click()
    stop = page.locator("button", has_text="Stop the chain")
    stop.wait_for()
    assert server.view(gid)["current_player"] == 0  # White's chain goes on
    assert page.locator(".chain-ring").count() == 1
    assert page.locator(".stone.movable").count() == 1  # only the chaining stone
    stop.click()
    wait_moves(page, 6)
    assert page.locator(PLIES).nth(5).inner_text().endswith("stop")
    expect(page.locator("#turn")).to_contain_text("Black")
    assert server.view(gid)["current_player"] == 1
