"""Reading a game in the browser: "since your last move" against the record in 4-player
Allmer and Red, building on a Red card by clicking it, a clock that waits for the second
person, a skipped turn announced, a tampered key that selects nothing, and the addresses with
no game."""

from __future__ import annotations

import random

from playwright.sync_api import expect
from webtest import wait_my_turn

import cathedral
from cathedral.ai import load_agent


def play_until(server, gid: str, token: str, player: int, agent, stop) -> dict:
    """Plays ``player``'s decisions through the API with ``agent`` until ``stop(view)``; the
    computers answer meanwhile. Returns the last view."""
    game = None
    for _ in range(2000):
        view = server.view(gid)
        if stop(view) or view["status"] != "playing":
            return view
        if view["current_player"] != player:
            continue
        game = game or cathedral.load(view["game"], **view["params"])
        state = game.state_from_json(view["state"])
        action = agent.choose(state)
        server.call("POST", f"/api/games/{gid}/moves", {"ply": view["ply"], "action": action},
                    token)
    raise AssertionError("the game did not get there")


def my_turn_starts(view: dict) -> bool:
    """Player 0 is about to start a turn, every other player having had one since theirs."""
    return view["current_player"] == 0 and not view["in_turn"] and view["turns"] >= 4


def check_since(page, view: dict, me: int) -> None:
    """The page's "since your last move" shows, turn by turn and in order, every decision the
    other players made after our last one, each starting with the record's notation."""
    record = view["history"]
    mine = max(i for i, p in enumerate(view["movers"]) if p == me) + 1
    expected = [(ply, p) for ply, p in enumerate(view["movers"], 1) if ply > mine and p >= 0]
    assert expected, "the computers have not moved yet"
    turns = page.locator("#since li.turn")
    shown = []
    for t in range(turns.count()):
        turn = turns.nth(t)
        player = int(turn.get_attribute("data-player"))
        expect(turn.locator(".who")).to_have_text(view["players"][player])
        for d in range(turn.locator(".did").count()):
            did = turn.locator(".did").nth(d)
            ply = int(did.get_attribute("data-ply"))
            assert did.inner_text().startswith(record[ply - 1])
            shown.append((ply, player))
    assert shown == expected
    assert page.locator("#since-title").text_content() == "Since your last move"


def test_since_your_last_move_in_four_player_allmer(pages, server):
    table = server.create("allmer", ["human", "easy", "easy", "easy"], players=4, max_turns=40)
    gid, token = table["id"], table["seats"][0]["token"]
    agent = load_agent("random", cathedral.load("allmer", players=4), seed=1)
    view = play_until(server, gid, token, 0, agent, my_turn_starts)
    page = pages.open(table["seats"][0]["url"])
    wait_my_turn(page)
    check_since(page, server.view(gid), 0)
    # the three computers, in order, each with its colour and name
    expect(page.locator("#since li.turn .who")).to_have_text(["Blue", "Black", "Red"])
    assert view["turns"] >= 4


def test_since_your_last_move_in_four_player_red_folds_the_dice(pages, server):
    table = server.create("red", ["human", "easy", "easy", "easy"], players=4, turn_cap=3)
    gid, token = table["id"], table["seats"][0]["token"]
    agent = load_agent("easy", cathedral.load("red", players=4, turn_cap=3), seed=2)
    view = play_until(server, gid, token, 0, agent, my_turn_starts)
    page = pages.open(table["seats"][0]["url"])
    wait_my_turn(page)
    view = server.view(gid)
    check_since(page, view, 0)
    expect(page.locator("#since li.turn .who")).to_have_text(["Blue", "Yellow", "Green"])
    # dice rolled meanwhile are one folded line, not moves; the set-up is folded in the list
    mine = max(i for i, p in enumerate(view["movers"]) if p == 0) + 1
    if -1 in view["movers"][mine:]:
        expect(page.locator("#since .dice").first).to_contain_text("roll")
    expect(page.locator("#moves li.setup summary")).to_contain_text("Set-up ·")
    assert page.locator("#moves li.turn").count() == view["turns"]


def test_red_clicking_a_card_with_several_ways_to_build_shows_them_beside_it(pages, server):
    table = server.create("red", ["human", "easy"], players=2)
    gid, token = table["id"], table["seats"][0]["token"]
    agent = load_agent("easy", cathedral.load("red", players=2), seed=3)

    def several(view: dict) -> bool:
        if view["current_player"] != 0:
            return False
        choices = server.picture(gid)["decision"]["choices"]
        slots = [c["slot"] for c in choices if c["kind"] in ("deliver", "ornament")]
        return any(slots.count(s) > 1 for s in slots)

    view = play_until(server, gid, token, 0, agent, several)
    assert view["status"] == "playing"
    picture = server.picture(gid)
    builds = [c for c in picture["decision"]["choices"] if c["kind"] in ("deliver", "ornament")]
    slot = next(s for s in {c["slot"] for c in builds}
                if sum(c["slot"] == s for c in builds) > 1)
    ways = [c for c in builds if c["slot"] == slot]
    name = next(t["name"] for tower in picture["towers"] for t in tower["slots"]
                if t["slot"] == slot)
    page = pages.open(table["seats"][0]["url"])
    wait_my_turn(page)
    card = page.locator(f'.card.target[data-slot="{name}"]')
    expect(card).to_have_attribute("aria-label", f"{card.get_attribute('aria-label')}")
    assert "Click to build on it" in card.get_attribute("title")
    card.click()
    menu = page.locator(".card-menu")
    expect(menu.locator(".choice")).to_have_count(len(ways))
    chosen = ways[-1]
    menu.locator(f'.choice[data-notation="{chosen["notation"]}"]').click()
    expect(page.locator("#moves button[data-ply]").last).to_have_text(chosen["notation"])
    assert server.view(gid)["history"][view["ply"]] == chosen["notation"]


def test_a_clock_waits_until_the_second_person_has_opened_their_link(pages, server):
    table = server.call("POST", "/api/games", {
        "game": "classic", "seats": ["human", "human"],
        "clock": {"initial_s": 300, "increment_s": 5}})
    light = pages.open(table["seats"][0]["url"])
    expect(light.locator("#banner")).to_contain_text("The clocks start when Dark opens their link")
    expect(light.locator('.clock[data-clock="1"]')).to_have_text("waiting")
    expect(light.locator('.clock[data-clock="0"]')).to_have_text("5:00")
    light.wait_for_timeout(1500)
    assert server.view(table["id"])["clock"]["remaining_s"] == [300, 300]
    dark = pages.open(table["seats"][1]["url"])
    for page in (light, dark):
        expect(page.locator(".clock.running")).to_have_count(1)
    expect(light.locator("#banner")).not_to_contain_text("clocks start")
    assert server.view(table["id"])["clock"]["running"] == 0


def test_a_skipped_turn_is_announced_in_the_banner_and_the_list(pages, server):
    table = server.create("classic", ["human", "human"])
    gid = table["id"]
    tokens = [seat["token"] for seat in table["seats"]]
    rng = random.Random(5)  # in this random game Dark cannot place after ply 22
    game = cathedral.load("classic")
    while server.view(gid)["ply"] < 23:
        view = server.view(gid)
        action = rng.choice(game.state_from_json(view["state"]).legal_actions())
        server.call("POST", f"/api/games/{gid}/moves", {"ply": view["ply"], "action": action},
                    tokens[view["current_player"]])
    assert server.view(gid)["skips"] == [[23, [1]]]
    page = pages.open(table["seats"][0]["url"])
    wait_my_turn(page)
    expect(page.locator("#banner")).to_contain_text("Dark could not move and was skipped")
    expect(page.locator('#moves li.turn[data-turn="23"] .skip')).to_have_text("Dark skipped")
    expect(page.locator("#since li.skip")).to_have_text("Dark could not move and was skipped")


def test_a_tampered_key_leaves_a_page_that_only_watches(pages, server):
    table = server.create("classic", ["human", "easy"])
    token = table["seats"][0]["token"]
    page = pages.open(f"/g/{table['id']}#{token[:-3]}xyz")
    pages.expect_error("status of 401")  # the refused secret
    expect(page.locator("#message")).to_contain_text("not valid for this game: you are watching")
    expect(page.locator("#board")).to_have_attribute("data-interactive", "false")
    assert page.locator(".tray-item.playable").count() == 0
    assert page.locator(".tray-item").count() > 0  # the trays are shown, but not to pick from
    for hidden in ("#notation-form", "#resign", "#hint", "#takeback"):
        expect(page.locator(hidden)).to_be_hidden()
    page.locator("#board svg").first.click()
    expect(page.locator(".ghost")).to_have_count(0)
    expect(page.locator("#banner")).to_contain_text("watching")
    assert server.view(table["id"])["ply"] == 0


def test_addresses_with_no_game_get_a_page_that_says_so_and_leads_home(pages, server):
    pages.expect_error("status of 404")  # asking for a game that is not there
    for path in ("/g/%00%ff", "/g/doesnotexist123", "/g/", "/g", "/replay/%zz",
                 "/replay/doesnotexist123"):
        page = pages.open(path)
        missing = page.locator("#missing")
        expect(missing).to_be_visible()
        expect(missing.locator("h1")).to_have_text("No such game")
        expect(missing.locator('a[href="/"]')).to_be_visible()
        expect(page.locator("#play")).to_be_hidden()
        expect(page.locator("#record")).to_be_hidden()
