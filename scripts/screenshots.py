"""Remakes docs/screenshots/{classic,allmer,red}.png by driving the real UI.

Starts `cathedral serve` on a temporary SQLite database (or uses --url), plays each game a few
moves into the middle game through the HTTP API (the human seat's moves chosen by the `easy`
player, the computer answering), then opens the human's page in Debian's Chromium, points at
a move the way a player would (a building's ghost, a stone's landings, the decision's
choices) and saves the page.

    .venv/bin/python scripts/screenshots.py                 # docs/screenshots/*.png
    .venv/bin/python scripts/screenshots.py --review build/shots   # also every page, phone too
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import cathedral
from cathedral.ai import load_agent

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class Client:
    def __init__(self, url: str) -> None:
        self.url = url

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data, headers, method=method)
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read() or b"null")


def start_server(db: Path) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "cathedral", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{db}", "--rate-limit", "off"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return process, url
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if process.poll() is not None:
                raise SystemExit("cathedral serve exited at start") from None
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("cathedral serve did not answer /healthz")


def play_into(
    client: Client, game: str, params: dict, plies: int, seats: list[str], mover: str
) -> dict:
    """Creates a table (the human seat first) and plays the human's moves with ``mover`` until
    at least ``plies`` plies are on it; returns the create reply."""
    # public, so that the lobby has tables to show
    created = client.call("POST", "/api/games", {"game": game, "params": params, "seats": seats,
                                                 "public": True})
    token = created["seats"][0]["token"]
    engine = cathedral.load(game, **params)
    agent = load_agent(mover, engine, seed=7)
    while True:
        view = client.call("GET", f"/api/games/{created['id']}")
        if view["status"] != "playing" or view["ply"] >= plies:
            break
        if view["current_player"] != 0:
            time.sleep(0.2)
            continue
        state = engine.state_from_json(view["state"])
        if state.current_player() != 0:
            time.sleep(0.2)
            continue
        action = agent.choose(state)
        client.call(
            "POST", f"/api/games/{created['id']}/moves",
            {"ply": view["ply"], "action": int(action)}, token,
        )
    return created


def allmer_line(client: Client) -> dict:
    """A two-person table where White's next step converts and starts a chain (both seats'
    moves sent here), so the picture shows landings that convert."""
    created = client.call("POST", "/api/games", {"game": "allmer", "seats": ["human", "human"]})
    tokens = [seat["token"] for seat in created["seats"]]
    line = ("f3-f7", "f13-f10", "g3-g5", "f14-f11", "f7-f8", "f15-f12")
    for ply, move in enumerate(line):
        client.call("POST", f"/api/games/{created['id']}/moves", {"ply": ply, "move": move},
                    tokens[ply % 2])
    return created


def ready(page, client: Client, game_id: str) -> None:
    """Waits until the page draws the current position and the human may move."""
    while True:
        view = client.call("GET", f"/api/games/{game_id}")
        if view["current_player"] == 0 or view["status"] != "playing":
            page.locator(f'#board[data-ply="{view["ply"]}"]').wait_for()
            return
        time.sleep(0.2)


def point_classic(page, client: Client, game_id: str) -> None:
    """Picks the building whose best placement claims the most and holds its ghost there."""
    picture = client.call("GET", f"/api/games/{game_id}/picture")
    if not picture["moves"]:
        return
    best = max(
        picture["moves"], key=lambda m: (len(m.get("captures", [])), len(m.get("claims", [])))
    )
    building = best["notation"].split()[0]
    tray = next(t for t in picture["trays"][0] if t["building"] == building)
    page.locator(f'.tray-item.playable[data-building="{building}"]').click()
    files = [s % 10 for s in best["squares"]]
    ranks = [s // 10 for s in best["squares"]]
    shape = sorted([s % 10 - min(files), s // 10 - min(ranks)] for s in best["squares"])
    for turn, candidate in enumerate(tray["shapes"]):
        if sorted(candidate) == shape:
            for _ in range(turn):
                page.keyboard.press("r")
            width = max(x for x, _ in candidate)
            height = max(y for _, y in candidate)
            file, rank = min(files) + width // 2, min(ranks) + height // 2
            box = page.locator("#board .board-frame svg").bounding_box()
            page.mouse.move(box["x"] + (24 + file * 40 + 20) / 432 * box["width"],
                            box["y"] + (8 + (9 - rank) * 40 + 20) / 432 * box["height"])
            page.wait_for_timeout(200)
            return


def point_allmer(page, client: Client, game_id: str) -> None:
    """Selects the stone with the most converting landings and points at its best landing."""
    picture = client.call("GET", f"/api/games/{game_id}/picture")
    if not picture["moves"]:
        return
    stone = max(picture["moves"], key=lambda st: max(len(s["converts"]) for s in st["steps"]))
    name = picture["points"][stone["from"]]["name"]
    page.locator(f'.stone.movable[data-point="{name}"]').click()
    step = max(stone["steps"], key=lambda s: len(s["converts"]))
    page.locator(f'.landing[data-notation="{step["notation"]}"]').hover()
    page.wait_for_timeout(200)


def shoot(browser, client: Client, out: Path, review: Path | None) -> None:
    tables = {
        "classic": ({}, 14, ["human", "easy"], "easy", point_classic),
        "allmer": ({}, 0, [], "", point_allmer),
        "red": ({"players": 3}, 160, ["human", "easy", "easy"], "easy", None),
    }
    for game, (params, plies, seats, mover, point) in tables.items():
        if game == "allmer":
            created = allmer_line(client)
        else:
            created = play_into(client, game, params, plies, seats, mover)
        context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
        page = context.new_page()
        page.goto(client.url + created["seats"][0]["url"])
        ready(page, client, created["id"])
        if point:
            point(page, client, created["id"])
        page.screenshot(path=str(out / f"{game}.png"))
        print(f"wrote {out / f'{game}.png'}")
        if review:
            page.screenshot(path=str(review / f"{game}-desktop-full.png"), full_page=True)
            phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
            p = phone.new_page()
            p.goto(client.url + created["seats"][0]["url"])
            ready(p, client, created["id"])
            p.screenshot(path=str(review / f"{game}-phone.png"), full_page=True)
            client.call("POST", f"/api/games/{created['id']}/resign", {},
                        created["seats"][0]["token"])
            for name, ctx in (("desktop", context), ("phone", phone)):
                r = ctx.new_page()
                r.goto(f"{client.url}/replay/{created['id']}")
                r.locator("#board .board-frame, #board .red-table").first.wait_for()
                r.wait_for_timeout(500)
                r.screenshot(path=str(review / f"{game}-replay-{name}.png"), full_page=True)
            phone.close()
        context.close()
    if review:
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            context = browser.new_context(viewport=viewport)
            for page_name, path in (("home", "/"), ("lobby", "/lobby")):
                page = context.new_page()
                page.goto(client.url + path)
                page.wait_for_timeout(800)
                page.screenshot(path=str(review / f"{page_name}-{name}.png"), full_page=True)
            context.close()
        print(f"review shots in {review}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--review", type=Path, help="also save every page, desktop and phone")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install chromium")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.review:
        args.review.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        process, url = (None, args.url) if args.url else start_server(Path(tmp) / "games.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                shoot(browser, Client(url), args.out, args.review)
                browser.close()
        finally:
            if process:
                process.terminate()
                process.wait(timeout=30)


if __name__ == "__main__":
    main()
