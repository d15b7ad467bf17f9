"""Two people play each other through invite links while a third watches; a refused move shows
its message; the lobby lists a public table and a seat is taken from it."""

from __future__ import annotations

from playwright.sync_api import expect
from webtest import game_id, wait_moves, wait_my_turn


def test_two_players_through_invite_links_and_a_spectator(pages, server):
    home = pages.open("/?game=classic")
    home.locator('.game-box[data-game="classic"]').click()
    home.locator('select[data-seat="1"]').select_option("human")
    home.locator("#clocks .chip", has_text="5 min").click()
    home.locator("#start").click()
    invites = home.locator("#invites .invite[data-player]")
    expect(invites).to_have_count(2)
    light_url = invites.nth(0).locator("input").input_value()
    dark_url = invites.nth(1).locator("input").input_value()
    watch_url = home.locator('#invites input[aria-label="Watch link"]').input_value()
    assert "#" in light_url and "#" in dark_url and "#" not in watch_url

    light = pages.open(light_url)
    dark = pages.open(dark_url)
    watcher = pages.open(watch_url)
    gid = game_id(light)
    wait_my_turn(light)
    expect(dark.locator("#turn")).to_have_text("Light to move")
    expect(watcher.locator("#banner")).to_contain_text("watching")
    assert watcher.locator("#notation-form").is_hidden()
    expect(watcher.locator(".clock")).to_have_count(2)  # a clock per player
    assert server.view(gid)["clock"]["initial_s"] == 300

    # Light places the Cathedral by typing it; everyone sees it
    light.locator("#notation").fill("Cathedral e4 d5 e5 f5 e6 e7")
    light.locator("#notation").press("Enter")
    for page in (light, dark, watcher):
        wait_moves(page, 1)
        expect(page.locator(".cathedral")).to_have_count(1)
    wait_my_turn(dark)
    expect(light.locator("#turn")).to_have_text("Dark to move")

    # Dark tries an occupied square: refused with the engine's reason, nothing changes
    dark.locator("#notation").fill("Tavern e5")
    dark.locator("#notation").press("Enter")
    expect(dark.locator("#message")).to_contain_text("occupied by the Cathedral")
    assert server.view(gid)["ply"] == 1

    # then a legal one by pointer: the first playable Tavern spot, a1
    dark.locator('.tray-item.playable[data-building="Tavern"]').click()
    box = dark.locator("#board .board-frame svg").bounding_box()
    dark.mouse.click(
        box["x"] + (24 + 20) / 432 * box["width"],
        box["y"] + (8 + 9 * 40 + 20) / 432 * box["height"],
    )
    for page in (light, dark, watcher):
        wait_moves(page, 2)
        expect(page.locator("#moves li").nth(1)).to_contain_text("Tavern a1")
    wait_my_turn(light)
    # a spectator has no seat: no take-back, no resign; two people get no hint or take-back
    assert watcher.locator("#resign").is_hidden()
    assert light.locator("#hint").is_hidden() and light.locator("#takeback").is_hidden()
    assert light.locator("#resign").is_visible()

    # clicking a move shows that position; "Back to the game" returns to the live one
    watcher.locator('#moves button[data-ply="1"]').click()
    watcher.locator('#board[data-ply="1"]').wait_for()
    expect(watcher.locator("#viewing")).to_be_visible()
    expect(watcher.locator(".building")).to_have_count(0)
    watcher.locator("#back-live").click()
    watcher.locator('#board[data-ply="2"]').wait_for()
    expect(watcher.locator(".building")).to_have_count(1)


def test_a_public_table_in_the_lobby(pages, server):
    created = server.call(
        "POST", "/api/games", {"game": "allmer", "seats": ["human", "human"], "public": True}
    )
    lobby = pages.open("/lobby")
    row = lobby.locator(f'li[data-game-id="{created["id"]}"]')
    row.locator("button", has_text="Sit as Black").click()
    lobby.wait_for_url(f"**/g/{created['id']}#*")
    lobby.wait_for_selector("#board .board-frame")
    expect(lobby.locator("#players li").nth(1)).to_contain_text("you")


def test_an_uploaded_record_opens_in_the_replay(pages, server, tmp_path):
    import cathedral

    state = cathedral.load("allmer").new_initial_state()
    for move in ("f3-f7", "f13-f10", "f7-f8", "h13-h11", "f8-f9A"):
        state.apply_action(state.string_to_action(move))
    path = tmp_path / "game.json"
    path.write_text(cathedral.Record.from_state(state).to_json())
    lobby = pages.open("/lobby")
    lobby.locator("#record-file").set_input_files(str(path))
    lobby.locator("#upload").click()
    lobby.wait_for_url("**/replay/**")
    expect(lobby.locator("#ply")).to_have_text("ply 5 / 5")
    lobby.locator("#prev").click()
    expect(lobby.locator("#ply")).to_have_text("ply 4 / 5")
    lobby.locator('#board[data-ply="4"]').wait_for()
    assert lobby.locator(".stone.black").count() == 15
    lobby.locator("#next").click()
    lobby.locator('#board[data-ply="5"]').wait_for()
    assert lobby.locator(".stone.black").count() < 15  # f8-f9A converted
    lobby.locator("#analyse").click()
    lobby.locator("#analysis .best-move").wait_for()  # White's chain: continue or stop
