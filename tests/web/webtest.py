"""Helpers of the browser tests (imported by conftest and the tests): the server process and
its JSON client, pages that record console errors, and pointer helpers for the boards."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "web-screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


class Server:
    """A running `cathedral serve` and a small JSON client for test setup."""

    def __init__(self, url: str, process: subprocess.Popen, log: Path) -> None:
        self.url = url
        self.process = process
        self.log = log

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read() or b"null")

    def create(self, game: str, seats: list[str], **params) -> dict:
        return self.call("POST", "/api/games", {"game": game, "params": params, "seats": seats})

    def view(self, game_id: str) -> dict:
        return self.call("GET", f"/api/games/{game_id}")

    def picture(self, game_id: str) -> dict:
        return self.call("GET", f"/api/games/{game_id}/picture")

    def move(self, game_id: str, token: str, notation: str) -> dict:
        ply = self.view(game_id)["ply"]
        return self.call(
            "POST", f"/api/games/{game_id}/moves", {"ply": ply, "move": notation}, token
        )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serving(base: Path, *extra: str):
    """Runs `cathedral serve` on a fresh SQLite database under ``base`` and a free port (rate
    limits off, one worker, ``extra`` arguments after those) until the block ends; yields its
    Server once it answers /healthz."""
    import pytest

    port = free_port()
    log = base / "server.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [
        sys.executable, "-m", "cathedral", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", f"sqlite:///{base / 'games.db'}", "--rate-limit", "off", "--workers", "1", *extra,
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        # a bounded wait for the server to answer (start-up, not a speed check)
        for _ in range(300):
            if process.poll() is not None:
                pytest.fail(f"cathedral serve exited at start:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        else:
            pytest.fail(f"cathedral serve did not answer /healthz:\n{log.read_text()[-3000:]}")
        yield Server(url, process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Pages:
    """Opens pages in fresh browser contexts and records every console error."""

    def __init__(self, browser, server: Server) -> None:
        self.browser = browser
        self.server = server
        self.contexts = []
        self.errors: list[str] = []
        self.expected: list[str] = []

    def open(self, path: str = "/", *, phone: bool = False):
        viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
        context = self.browser.new_context(
            viewport=viewport, has_touch=phone, is_mobile=phone, base_url=self.server.url
        )
        context.set_default_timeout(30_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{page.url}: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.goto(path)
        return page

    def expect_error(self, text: str) -> None:
        """Console errors holding ``text`` are expected (a refused request logs one)."""
        self.expected.append(text)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(text in e for text in self.expected)]

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def screenshot(page, name: str) -> Path:
    """Saves a screenshot of the board under build/web-screenshots/ and returns its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.locator("#board").screenshot(path=str(path))
    return path


# ----- driving the pages ---------------------------------------------------------------------


def start_from_home(page, game: str, *, seats: dict[int, str] | None = None, params=None) -> None:
    """Starts a table from the home page: the game's box, parameter chips, each seat's select."""
    page.locator(f'.game-box[data-game="{game}"]').click()
    for name, value in (params or {}).items():
        page.locator(f'[data-param="{name}"] .chip[data-value="{value}"]').click()
    for seat, level in (seats or {}).items():
        page.locator(f'select[data-seat="{seat}"]').select_option(level)
    page.locator("#start").click()
    page.wait_for_url("**/g/**")
    page.wait_for_selector("#board .board-frame, #board .red-table")


def game_id(page) -> str:
    return urllib.parse.urlsplit(page.url).path.rstrip("/").split("/")[-1]


def secret(page) -> str:
    return urllib.parse.urlsplit(page.url).fragment


PLIES = "#moves button[data-ply]"  # a ply of the move list (turns group them)


def move_count(page) -> int:
    return page.locator(PLIES).count()


def wait_moves(page, count: int) -> None:
    """Waits until the move list has at least ``count`` plies (locators, not a JS predicate:
    the pages' CSP forbids evaluating strings)."""
    if count > 0:
        page.locator(PLIES).nth(count - 1).wait_for()


def wait_my_turn(page) -> None:
    """Waits until the page says it is our turn and has drawn the board ready for input (the
    banner is drawn first; the board after its picture arrives)."""
    page.locator(".banner.mine").wait_for()
    page.locator('#board[data-interactive="true"]').wait_for()


def svg_point(page, selector: str, x: float, y: float, view: tuple[float, float]):
    """Returns the page coordinates of the point (x, y) of an SVG whose viewBox is ``view``."""
    box = page.locator(selector).bounding_box()
    return box["x"] + x / view[0] * box["width"], box["y"] + y / view[1] * box["height"]


def wait_turn(page, server: Server, gid: str, player: int = 0) -> dict:
    """Waits until ``player`` is to move (or the game is over) and the page shows that
    position, ready for input; returns the view."""
    while True:
        view = server.view(gid)
        if view["status"] != "playing" or view["current_player"] == player:
            expected = "true" if view["status"] == "playing" else "false"
            page.locator(
                f'#board[data-ply="{view["ply"]}"][data-interactive="{expected}"]'
            ).wait_for()
            if server.view(gid)["ply"] == view["ply"]:
                return view
        else:
            page.wait_for_timeout(100)


def wait_past(page, ply: int) -> int:
    """Waits until the page draws a position after ``ply``; returns the ply drawn."""
    board = page.locator("#board")
    while True:
        shown = board.get_attribute("data-ply")
        if shown is not None and int(shown) > ply:
            return int(shown)
        page.wait_for_timeout(50)
