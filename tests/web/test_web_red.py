"""The Red Cathedral in the browser: a table against the computer from the home page and a full
turn of each basic action by pointer (move a die and take, claim a card and place its tile,
deliver to it), then take-back, resignation and the replay."""

from __future__ import annotations

from playwright.sync_api import expect
from webtest import game_id, screenshot, start_from_home, wait_past, wait_turn


def choose(page, server, gid: str, notation: str) -> None:
    """Clicks the choice with this notation and waits for the position after it."""
    ply = server.view(gid)["ply"]
    page.locator(f'.choice[data-notation="{notation}"]').click()
    wait_past(page, ply)


def slot_of(server, gid: str, name: str) -> int:
    """The slot number of the card named ``name`` (T1.1 ...)."""
    for tower in server.picture(gid)["towers"]:
        for slot in tower["slots"]:
            if slot["name"] == name:
                return slot["slot"]
    raise AssertionError(f"no card {name}")


def finish_turn(page, server, gid: str) -> None:
    """Presses Done while the turn offers it, until the computer has answered."""
    while True:
        view = server.view(gid)
        if view["current_player"] != 0 or view["status"] != "playing":
            break
        decision = server.picture(gid)["decision"]
        if not any(c["notation"] == "done" for c in decision["choices"]):
            break
        choose(page, server, gid, "done")
    wait_turn(page, server, gid)


def take_needed(page, server, gid: str) -> str:
    """Plays a turn that moves a die taking a material some claimable card needs (the one
    needed by most of them), takes it and finishes; returns the material."""
    picture = server.picture(gid)
    claimable = {c["slot"] for c in picture["decision"]["choices"] if c["kind"] == "claim"}
    wanted: dict[str, int] = {}
    for tower in picture["towers"]:
        for slot in tower["slots"]:
            if slot["slot"] in claimable:
                for m in slot["need"]:
                    wanted[m] = wanted.get(m, 0) + 1
    die = min(
        (
            c
            for c in picture["decision"]["choices"]
            if c["kind"] == "die" and c["take"]["resource"] in wanted and c["take"]["up_to"] > 0
        ),
        key=lambda c: (c["extra"], -wanted[c["take"]["resource"]]),
    )
    ply = server.view(gid)["ply"]
    if die["extra"] == 0:  # the die itself, on the market
        page.locator(f'.die-face.clickable[data-die="{die["die"]}"]').click()
    else:  # a paid move: its button among the choices
        page.locator(f'.choice[data-notation="{die["notation"]}"]').click()
    wait_past(page, ply)
    take = page.locator('.choice[data-notation^="take "]').last
    material = die["take"]["resource"]
    notation = take.get_attribute("data-notation")
    assert material in take.inner_text()
    choose(page, server, gid, notation)
    assert server.picture(gid)["holdings"][0]["inventory"][material] >= 1
    finish_turn(page, server, gid)
    return material


def test_red_each_basic_action_by_pointer(pages, server):
    page = pages.open("/")
    start_from_home(page, "red", seats={1: "random"})
    gid = game_id(page)
    wait_turn(page, server, gid)
    picture = server.picture(gid)
    assert len(picture["market"]) == 8 and picture["towers"]
    assert page.locator(".space").count() == 8

    # turn 1: move a die that takes a material some claimable card needs, take it, done; the
    # random opponent may claim that card meanwhile, so take again (a few turns at most) until
    # a claimable card needs a material we hold
    for _ in range(4):
        material = take_needed(page, server, gid)
        screenshot(page, "red")
        picture = server.picture(gid)
        slots = {s["slot"]: s for t in picture["towers"] for s in t["slots"]}
        held = picture["holdings"][0]["inventory"]
        payable = [
            (c, m)
            for c in picture["decision"]["choices"]
            if c["kind"] == "claim"
            for m in slots[c["slot"]]["need"]
            if held[m] > 0
        ]
        if payable:
            break
    else:
        raise AssertionError("no claimable card needs a material taken in four turns")

    # turn 2: claim a card that needs a material we hold (the one just taken when the random
    # opponent has not claimed its card meanwhile), place its tile face down
    claim, material = min(payable, key=lambda pair: pair[1] != material)
    name = slots[claim["slot"]]["name"]
    ply = server.view(gid)["ply"]
    page.locator(f'.card.claimable[data-slot="{name}"]').click()
    wait_past(page, ply)
    assert page.locator(".choice-group[data-kind='tile']").count() == 1

    # take the claim back (nothing was rolled since): the card is claimable again; claim it
    expect(page.locator("#takeback")).to_be_enabled()
    page.locator("#takeback").click()
    page.locator(f'#board[data-ply="{ply}"]').wait_for()
    owners = {s["name"]: s["owner"] for t in server.picture(gid)["towers"] for s in t["slots"]}
    assert owners[name] is None and server.view(gid)["ply"] == ply
    page.locator(f'.card.claimable[data-slot="{name}"]').click()
    wait_past(page, ply)
    choose(page, server, gid, "tile down 1")
    finish_turn(page, server, gid)
    assert server.picture(gid)["holdings"][0]["workshop"][0]["tile"] is not None

    # turn 3: build: clicking the claimed card delivers to it (its only way, so at once; with
    # several, they show next to the card)
    deliver = f"deliver {material} {name}"
    ways = [c for c in server.picture(gid)["decision"]["choices"]
            if c["kind"] in ("deliver", "ornament") and c.get("slot") == slot_of(server, gid, name)]
    before = server.picture(gid)["holdings"][0]["inventory"][material]
    ply = server.view(gid)["ply"]
    page.locator(f'.card.target[data-slot="{name}"]').click()
    if len(ways) > 1:
        page.locator(f'.card-menu .choice[data-notation="{deliver}"]').click()
    wait_past(page, ply)
    assert server.picture(gid)["holdings"][0]["inventory"][material] == before - 1
    finish_turn(page, server, gid)

    # resign and replay
    wait_turn(page, server, gid)
    page.locator("#resign").click()
    page.locator("#resign").click()
    page.wait_for_selector("#result:not(.hidden)")
    page.locator("#replay").click()
    page.wait_for_url(f"**/replay/{gid}")
    page.wait_for_selector(".red-table")
    page.locator("#prev").click()
    page.locator("#first").click()
    expect(page.locator("#ply")).to_have_text(f"ply 0 / {server.view(gid)['ply']}")


def test_red_every_tower_of_a_six_tower_plan_in_sight_on_a_phone(pages, server):
    # The plan is drawn at setup: 4-player tables are set until one has six towers, the most
    # a plan has (4A and 4B of the three 4-player plans; 30 tables miss them once in 10^14).
    for _ in range(30):
        table = server.create("red", ["human", "random", "random", "random"], players=4)
        if len(server.picture(table["id"])["towers"]) == 6:
            break
    else:
        raise AssertionError("no six-tower plan in 30 tables")
    page = pages.open(table["watch_url"], phone=True)
    page.wait_for_selector(".towers .tower")
    towers = page.locator(".towers").bounding_box()
    boxes = [tower.bounding_box() for tower in page.locator(".towers .tower").all()]
    assert len(boxes) == 6
    for box in boxes:  # inside the row, not scrolled out of sight past its right edge
        right = towers["x"] + towers["width"] + 0.5
        assert towers["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= right, (box, towers)
    assert towers["x"] + towers["width"] <= 390
    # each card's level word gives way to the room (T1.1 says it), its name stays
    expect(page.locator(".tower .card .level").first).to_be_hidden()
    expect(page.locator(".tower .card .name").first).to_be_visible()
    screenshot(page, "red-phone-towers")
