"""Fixtures of the browser tests: a real `cathedral serve` on a temporary SQLite database and a
free port, Debian's Chromium driven by Playwright, and pages that fail the test on any console
error or uncaught exception."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests run with --import-mode=importlib

from webtest import CHROMIUM, CHROMIUM_ARGS, Pages, Server, free_port, serving


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Server:
    with serving(tmp_path_factory.mktemp("web-server")) as running:
        yield running


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory):
    """A second `cathedral serve` that sends e-mail notifications to a local SMTP server
    (aiosmtpd); yields (Server, the messages it received)."""
    controller_module = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd is missing")
    received: list = []

    class Inbox:
        async def handle_DATA(self, server, session, envelope):  # aiosmtpd calls it by this name
            received.append(envelope)
            return "250 OK"

    port = free_port()
    controller = controller_module.Controller(Inbox(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with serving(tmp_path_factory.mktemp("mail-server"), "--smtp",
                     f"smtp://127.0.0.1:{port}") as running:
            yield running, received
    finally:
        controller.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (bash scripts/test.sh installs Debian's chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def pages(browser, server):
    """Opens pages; at the end fails the test if any page logged a console error."""
    opened = Pages(browser, server)
    yield opened
    opened.close()
    assert not opened.unexpected(), "console errors:\n" + "\n".join(opened.unexpected())
