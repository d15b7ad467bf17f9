"""Accounts in the browser (docs/accounts.md): signing up and in with a passkey (Chromium's
virtual authenticator) and with a password; a rated game made from a lobby challenge, whose
ratings change as Glicko-2 says and show on each player's page; a correspondence game whose
turn shows as a notification in the other player's page, and reaches them by e-mail."""

from __future__ import annotations

import email
import email.policy
import re
import time
import uuid

import pytest
from playwright.sync_api import expect
from test_web_access import serious
from webtest import SCREENSHOTS, Pages, game_id, secret

from cathedral.server import glicko

WAIT_MS = 20_000  # a notification is asked for every 5 s: a bounded wait well past that


def unique(prefix: str) -> str:
    """A fresh account name (the session's server is shared by every test)."""
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def local(url: str) -> str:
    """The server's address by name: an IP address cannot be a WebAuthn relying party."""
    return url.replace("127.0.0.1", "localhost")


def shot(page, name: str) -> None:
    """A screenshot of the whole page under build/web-screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"accounts-{name}.png"), full_page=True)


def api(page, method: str, path: str, body: dict | None = None, token: str | None = None):
    """Calls the API as the page's account (its cookie, its CSRF token); returns the JSON."""
    me = page.request.get(path_on(page, "/api/me")).json()["account"]
    headers = {"X-CSRF-Token": me["csrf"]} if me else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    response = page.request.fetch(path_on(page, path), method=method, data=body, headers=headers)
    assert response.ok, f"{method} {path}: {response.status} {response.text()}"
    return response.json() if response.body() else None


def path_on(page, path: str) -> str:
    """``path`` on the page's own origin (localhost or 127.0.0.1)."""
    origin = page.url.split("/", 3)[:3]
    return "/".join(origin) + path


def signed_up(pages: Pages, name: str, path: str = "/me", *, phone: bool = False):
    """A page of a fresh browser context signed up as ``name`` (through the API), at ``path``."""
    page = pages.open(path, phone=phone)
    response = page.request.post(path_on(page, "/api/account/signup"),
                                 data={"name": name, "password": "correct horse"})
    assert response.status == 201, response.text()
    page.reload()
    expect(page.locator("#account-name")).to_have_text(name)
    return page


def rated_view(page, gid: str) -> dict:
    """The game's view once the server has rated it (rating follows the end, off its path)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        view = api_get(page, f"/api/games/{gid}")
        if view.get("rating_changes") or time.monotonic() > deadline:
            return view
        time.sleep(0.1)


def seat_secrets(page, gid: str, *secrets: str) -> dict[int, str]:
    """The seat each secret opens: player -> secret."""
    return {api_get(page, f"/api/games/{gid}/seat", token=s)["player"]: s for s in secrets}


def api_get(page, path: str, token: str | None = None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = page.request.get(path_on(page, path), headers=headers)
    assert response.ok, f"GET {path}: {response.status} {response.text()}"
    return response.json()


def play_one(page, gid: str, seats: dict[int, str]) -> dict:
    """The player to move makes a legal move (the first of the picture's), through the API."""
    view = api_get(page, f"/api/games/{gid}")
    picture = api_get(page, f"/api/games/{gid}/picture")
    move = picture["moves"][0]
    return api(page, "POST", f"/api/games/{gid}/moves",
               {"ply": view["ply"], "action": move["action"]}, token=seats[view["current_player"]])


# ----- signing up and in --------------------------------------------------------------------


def test_a_passkey_signs_up_out_and_in_again(pages, server):
    page = pages.open(local(server.url) + "/signin")
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})["authenticatorId"]
    shot(page, "signin")
    name = unique("pk")
    page.locator("#signup-name").fill(name)
    page.locator("#signup-passkey").click()
    page.wait_for_url("**/me")
    expect(page.locator("#account-name")).to_have_text(name)
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(credentials["credentials"]) == 1
    assert credentials["credentials"][0]["isResidentCredential"]
    expect(page.locator("#keys-text")).to_contain_text("a passkey")

    page.locator("#signout").click()
    expect(page.locator("#signin-link")).to_be_visible()
    expect(page.locator("#signed-out")).to_be_visible()
    page.locator("#signin-link").click()
    page.wait_for_url("**/signin?next=%2Fme")
    page.locator("#signin-passkey").click()
    page.wait_for_url("**/me")
    expect(page.locator("#account-name")).to_have_text(name)

    # this device holds the account's passkey already; another device adds a second one
    page.locator("#add-passkey").click()
    expect(page.locator("#passkey-status")).to_contain_text("already holds a passkey")
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": authenticator})
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "usb", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    page.locator("#add-passkey").click()
    expect(page.locator("#passkey-status")).to_have_text("Passkey added.")
    expect(page.locator("#keys-text")).to_contain_text("2 passkeys")


def test_a_password_signs_up_out_and_in_again(pages, server):
    pages.expect_error("status of 401")  # the wrong password, refused
    pages.expect_error("status of 409")  # the name taken
    name = unique("pw")
    page = pages.open("/signin?next=%2Flobby")
    page.locator("#signup-name").fill("x")
    page.locator("#signup-submit").click()
    expect(page.locator("#signup-error")).to_contain_text("3 to 20")  # checked before asking
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill("short")
    page.locator("#signup-submit").click()
    expect(page.locator("#signup-error")).to_contain_text("at least 8")
    page.locator("#signup-password").fill("a good long password")
    page.locator("#signup-submit").click()
    page.wait_for_url("**/lobby")
    expect(page.locator("#account-name")).to_have_text(name)
    expect(page.locator("#account-name")).to_have_attribute("href", f"/@/{name}")

    page.locator("#signout").click()
    expect(page.locator("#signin-link")).to_be_visible()
    page.locator("#signin-link").click()
    page.wait_for_url("**/signin?next=%2Flobby")
    # the same name again is taken, whatever its case
    page.locator("#signup-name").fill(name.upper())
    page.locator("#signup-password").fill("another long password")
    page.locator("#signup-submit").click()
    expect(page.locator("#signup-error")).to_contain_text("taken")
    page.locator("#signin-name").fill(name)
    page.locator("#signin-password").fill("not the password")
    page.locator("#signin-submit").click()
    expect(page.locator("#signin-error")).to_have_text("wrong name or password")
    page.locator("#signin-password").fill("a good long password")
    page.locator("#signin-submit").click()
    page.wait_for_url("**/lobby")
    expect(page.locator("#account-name")).to_have_text(name)

    # deleting the account asks for its name first; then the name is gone
    pages.expect_error("status of 404")  # its page, asked for afterwards
    page.goto("/me")
    expect(page.locator("#delete")).to_be_disabled()
    page.locator("#delete-name").fill(name[:-1])
    expect(page.locator("#delete")).to_be_disabled()
    page.locator("#delete-name").fill(name)
    page.locator("#delete").click()
    page.wait_for_url(f"{server.url}/")  # home
    expect(page.locator("#signin-link")).to_be_visible()
    page.goto(f"/@/{name}")
    expect(page.locator("#unknown")).to_be_visible()


def test_an_unknown_player_and_a_foreign_next_are_handled(pages, server):
    pages.expect_error("status of 404")
    page = pages.open("/@/nobody-here-at-all")
    expect(page.locator("#unknown")).to_be_visible()
    expect(page.locator("#unknown-text")).to_contain_text("nobody-here-at-all")
    page = pages.open("/signin?next=//example.org/x")
    page.locator("#signup-name").fill(unique("nx"))
    page.locator("#signup-password").fill("a good long password")
    page.locator("#signup-submit").click()
    page.wait_for_url("**/me")  # never another site


# ----- a rated game from the lobby ------------------------------------------------------------


def test_a_rated_game_from_a_lobby_challenge_changes_both_ratings(pages, server):
    alice, bob = unique("al"), unique("bo")
    a = signed_up(pages, alice, "/lobby")
    b = signed_up(pages, bob, "/lobby")

    # Alice makes an open, rated challenge of classic; her lobby waits for an opponent
    a.locator("#challenge-game").select_option("classic")
    a.locator("#challenge-clock").select_option(index=1)  # the catalog's first preset
    expect(a.locator("#challenge-rated")).to_be_checked()
    a.locator("#challenge-create").click()
    expect(a.locator("#waiting")).to_be_visible()
    challenge = a.locator("#waiting").get_attribute("data-challenge-id")
    shot(a, "lobby-waiting")

    # Bob sees it, with Alice's name and rating, and accepts it; both land at the game
    b.reload()  # (the lobby asks every 5 s)
    row = b.locator(f'#open-challenges li[data-challenge-id="{challenge}"]')
    expect(row).to_contain_text(alice)
    expect(row).to_contain_text("1500")
    expect(row).to_contain_text("rated")
    shot(b, "lobby")
    row.get_by_role("button", name="Accept").click()
    b.wait_for_url("**/g/**")
    a.wait_for_url("**/g/**", timeout=WAIT_MS)
    gid = game_id(a)
    assert game_id(b) == gid
    seats = seat_secrets(a, gid, secret(a), secret(b))
    assert len(seats) == 2
    view = api_get(a, f"/api/games/{gid}")
    assert view["rated"] is True
    assert sorted(view["names"]) == sorted([alice, bob])
    for page in (a, b):
        expect(page.locator("#rated-note")).to_be_visible()
        expect(page.locator(".seat-account")).to_have_count(2)
        link = page.locator(f'.seat-account[data-account="{alice}"]')
        expect(link).to_have_attribute("href", f"/@/{alice}")

    # a move each, then the player to move resigns
    play_one(a, gid, seats)
    view = play_one(a, gid, seats)
    loser = view["current_player"]
    view = api(a, "POST", f"/api/games/{gid}/resign", {"ply": view["ply"]}, token=seats[loser])
    assert view["status"] == "finished"
    view = rated_view(a, gid)
    new = glicko.Rating()
    expected = {1 - loser: glicko.rate(new, [(new, 1.0)]), loser: glicko.rate(new, [(new, 0.0)])}
    changes = view["rating_changes"]
    for player in (0, 1):
        assert changes[player]["before"] == pytest.approx(1500)
        # the view rounds to a tenth
        assert changes[player]["after"] == pytest.approx(expected[player].rating, abs=0.051)
    loser_name = view["names"][loser]
    winner_name = view["names"][1 - loser]

    # the game pages show the changes
    for page in (a, b):
        cell = page.locator(f'#result .rating-change[data-player="{1 - loser}"]')
        expect(cell).to_contain_text(f"1500 → {round(expected[1 - loser].rating)}")
    shot(a, "game-rated")

    # each player's page: the rating as Glicko-2 says, a chart with a point, the game
    for name, rating in ((winner_name, expected[1 - loser]), (loser_name, expected[loser])):
        page = a if name == alice else b
        page.goto(f"/@/{name}")
        card = page.locator('.rating-card[data-setting="classic"]')
        expect(card.locator(".rating-number")).to_have_text(f"{round(rating.rating)}?")
        expect(card.locator("svg.rating-chart circle.point")).to_have_count(1)
        expect(card.locator("svg.rating-chart desc")).to_contain_text("1 rated game")
        row = page.locator(f'#player-games tr[data-game-id="{gid}"]')
        expect(row).to_contain_text("win" if name == winner_name else "loss")
        expect(row.locator(f'a[href="/@/{bob if name == alice else alice}"]')).to_have_count(1)
        expect(page.locator("#records")).to_have_attribute("href", f"/api/players/{name}/records")
        shot(page, f"player-{'winner' if name == winner_name else 'loser'}")
    records = a.request.get(path_on(a, f"/api/players/{alice}/records"))
    assert records.ok and any(r for r in records.json())

    # My games lists it, finished; the leaderboard has its tabs and the computer's levels
    a.goto("/me")
    item = a.locator(f'#games li[data-game-id="{gid}"]')
    expect(item).to_have_attribute("data-status", "finished")
    shot(a, "me")
    a.goto("/leaderboard?setting=classic")
    tab = a.locator('#settings [role="tab"][aria-selected="true"]')
    expect(tab).to_have_attribute("data-setting", "classic")
    expect(a.locator("#computers tbody tr").first).to_be_visible()
    shot(a, "leaderboard")


def test_quick_pairing_waits_then_opens_the_game_for_both(pages, server):
    a = signed_up(pages, unique("qa"), "/lobby")
    b = signed_up(pages, unique("qb"), "/lobby")
    for page in (a, b):
        page.locator("#challenge-game").select_option("allmer")
        page.locator("#challenge-clock").select_option("none")
        page.locator("#pairing-range").select_option("100")
    a.locator("#pairing").click()
    expect(a.locator("#waiting-text")).to_contain_text("rating range")
    b.locator("#pairing").click()
    b.wait_for_url("**/g/**")
    a.wait_for_url("**/g/**", timeout=WAIT_MS)
    assert game_id(a) == game_id(b)
    view = api_get(a, f"/api/games/{game_id(a)}")
    assert view["game"] == "allmer" and view["rated"] is True and len(view["names"]) == 2


def test_a_rated_correspondence_table_from_home_and_a_claimed_seat(pages, server):
    name = unique("ho")
    home = signed_up(pages, name, "/?game=classic")
    expect(home.locator("#rated-field")).to_be_visible()
    home.locator("#rated").check()
    home.locator("#clocks .chip", has_text="Correspondence").click()
    home.locator("#days").select_option("2")
    home.locator('select[data-seat="1"]').select_option("easy")
    home.locator("#start").click()
    home.wait_for_url("**/g/**")
    view = api_get(home, f"/api/games/{game_id(home)}")
    assert view["rated"] is True and view["names"][0] == name
    assert view["clock"]["per_move"] is True and view["clock"]["initial_s"] == 2 * 86400
    expect(home.locator("#rated-note")).to_be_visible()
    left = home.locator('.clock.per-move[data-clock="0"]')
    expect(left).to_have_text(re.compile(r"^(2 d 0 h|1 d 23 h)$"))  # two days a move
    expect(home.locator("#claim")).to_be_hidden()  # the seat is the account's already
    shot(home, "game-correspondence")

    # someone playing without an account signs up from the game page, comes back to the seat
    # (the secret in the fragment kept in the browser, never sent) and claims it
    table = server.create("classic", ["human", "human"])
    old = table["seats"][0]["token"]
    home = pages.open(table["seats"][0]["url"])
    expect(home.locator("#claim")).to_be_hidden()
    home.locator("#signin-link").click()
    home.wait_for_url(f"**/signin?next=%2Fg%2F{table['id']}")
    name = unique("cl")
    home.locator("#signup-name").fill(name)
    home.locator("#signup-password").fill("a good long password")
    home.locator("#signup-submit").click()
    home.wait_for_url(f"**/g/{table['id']}#{old}")
    claim = home.locator("#claim-seat")
    expect(claim).to_have_text(f"Claim this seat for {name}")
    claim.click()
    expect(home.locator(f'.seat-account[data-account="{name}"]')).to_be_visible()
    expect(home.locator("#claim")).to_be_hidden()
    new = secret(home)
    assert new and new != old
    assert api_get(home, f"/api/games/{table['id']}/seat", token=new)["player"] == 0
    refused = home.request.get(path_on(home, f"/api/games/{table['id']}/seat"),
                               headers={"Authorization": f"Bearer {old}"})
    assert refused.status == 401  # the old link no longer opens the seat
    home.reload()  # the new address opens the seat
    expect(home.locator("#banner")).not_to_contain_text("watching")


# ----- correspondence: notifications in the page and by e-mail -----------------------------------


def correspondence_game(a, b, bob: str) -> tuple[str, dict[int, str], dict[str, int]]:
    """Alice challenges Bob to a correspondence game (a day a move); Bob accepts it on his
    /me page. Returns the game id, player -> secret, and name -> player."""
    made = api(a, "POST", "/api/challenges", {"game": "classic", "params": {},
                                             "clock": {"days_per_move": 1}, "rated": False,
                                             "to": bob})
    b.goto("/me")
    row = b.locator(f'#to-me li[data-challenge-id="{made["id"]}"]')
    expect(row).to_contain_text("1 day a move")
    row.get_by_role("button", name="Accept").click()
    b.wait_for_url("**/g/**")
    gid = game_id(b)
    accepted = api_get(a, f"/api/challenges/{made['id']}")
    assert accepted["status"] == "accepted" and accepted["game_id"] == gid
    seats = seat_secrets(a, gid, accepted["url"].split("#", 1)[1], secret(b))
    view = api_get(a, f"/api/games/{gid}")
    assert view["clock"]["per_move"] is True
    return gid, seats, {name: p for p, name in enumerate(view["names"])}


def test_a_correspondence_turn_shows_in_the_other_players_page(pages, server):
    alice, bob = unique("al"), unique("bo")
    a = signed_up(pages, alice, "/me")
    b = signed_up(pages, bob, "/me")
    gid, seats, players = correspondence_game(a, b, bob)
    expect(b.locator(".clock.per-move").first).to_contain_text("h")  # a day a move: hours left
    mover = api_get(a, f"/api/games/{gid}")["current_player"]
    waiting = b if players[bob] != mover else a
    # the browser's notifications, allowed: a stand-in records what the page shows through them
    waiting.context.add_init_script("""
        window.shown = [];
        window.Notification = class { constructor(text) { window.shown.push(text); } };
        window.Notification.permission = "granted";
    """)
    waiting.goto("/lobby")
    waiting.locator("#account[data-notified]").wait_for()  # its first question answered
    play_one(a, gid, seats)
    notice = waiting.locator('#notices .notice[data-kind="turn"]')
    expect(notice).to_be_visible(timeout=WAIT_MS)
    expect(notice).to_contain_text("Your turn")
    assert any("Your turn" in text for text in waiting.evaluate("window.shown"))
    expect(waiting.locator("#unread")).to_be_visible()
    shot(waiting, "notice")
    notice.locator("a").click()  # to the game: through /me, which points at it
    waiting.wait_for_url(lambda url: gid in url)
    if "/me" in waiting.url:
        expect(waiting.locator(f'#games li.pointed[data-game-id="{gid}"]')).to_be_visible()
        expect(waiting.locator(f'#games li[data-game-id="{gid}"]')).to_have_class(
            "account-game your-turn pointed")
        shot(waiting, "me-pointed")
        waiting.locator(f'#games li[data-game-id="{gid}"] a.btn').click()
        waiting.wait_for_url(f"**/g/{gid}#**")
    expect(waiting.locator(".banner.mine")).to_be_visible()


def test_a_correspondence_turn_reaches_the_other_player_by_email(browser, mail_server):
    running, inbox = mail_server
    pages = Pages(browser, running)
    try:
        alice, bob = unique("al"), unique("bo")
        address = f"{bob}@example.org"
        a = signed_up(pages, alice, "/me")
        b = signed_up(pages, bob, "/me")
        b.locator("#email").fill(address)
        b.locator("#notify-email").check()
        b.locator("#save-settings").click()
        expect(b.locator("#settings-status")).to_have_text("Saved.")
        assert api_get(b, "/api/me")["account"]["notify"]["email"] is True
        shot(b, "settings")
        gid, seats, players = correspondence_game(a, b, bob)
        if api_get(a, f"/api/games/{gid}")["current_player"] == players[bob]:
            play_one(a, gid, seats)  # Bob moves first: then Alice's move makes it his turn
        play_one(a, gid, seats)
        assert api_get(a, f"/api/games/{gid}")["current_player"] == players[bob]
        deadline = time.monotonic() + WAIT_MS / 1000
        turns = []
        while time.monotonic() < deadline and not turns:
            time.sleep(0.1)
            mails = [email.message_from_bytes(m.content, policy=email.policy.default)
                     for m in list(inbox) if address in m.rcpt_tos]
            turns = [m for m in mails if "turn" in m["Subject"]]
        assert turns, f"no e-mail of Bob's turn within {WAIT_MS / 1000:.0f} s: {mails}"
        assert turns[0]["To"] == address
        assert gid in turns[0].get_body(("plain", "html")).get_content()
    finally:
        pages.close()
    assert not pages.unexpected(), "console errors:\n" + "\n".join(pages.unexpected())


# ----- every new page, as axe-core and a phone see it ------------------------------------------


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_the_account_pages(pages, server, phone):
    name = unique("ax")
    signed = signed_up(pages, name, "/me", phone=phone)
    table = server.create("classic", ["human", "easy"])
    api(signed, "POST", "/api/challenges", {"game": "classic", "params": {}, "clock": None,
                                           "rated": True, "to": None})
    for path in ["/signin", "/me", "/leaderboard", f"/@/{name}"]:
        page = pages.open(path, phone=phone)
        page.locator("#signin-link").wait_for()  # a fresh context: signed out
        assert serious(page) == [], path
        if phone:
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} is {width} px wide on a phone"
    for path in ["/me", "/lobby", "/", f"/@/{name}", table["seats"][0]["url"]]:
        signed.goto(path)
        signed.locator("#account-name").wait_for()
        assert serious(signed) == [], f"{path}, signed in"
        if phone:
            width = signed.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} is {width} px wide on a phone, signed in"
            label = path.strip("/").split("/")[0] or "home"
            shot(signed, f"phone-{ {'@': 'player', 'g': 'game'}.get(label, label)}")
