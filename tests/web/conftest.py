"""Browser tests of the site's pages: headless Chromium driven by Playwright (sync API) against
the real server, started as the README starts the embedded default (``manage.py serve``).

Fixtures:

- ``site`` (session): the base URL (``http://127.0.0.1:<port>``) of a ``manage.py serve`` with a
  fresh ``PENTE_VAR_DIR`` (its own SQLite database), no ``DATABASE_URL``/``REDIS_URL`` and the
  rate limits lifted. The server is a separate process: these tests never touch the test
  database, so they need no ``django_db`` mark (and must not take one).
- ``browser`` (session): headless Chromium; the test is skipped, with the reason, when
  Playwright or a Chromium executable is missing (``CHROMIUM`` names one; when it is set but
  is no executable, the tests skip too: ``CHROMIUM=/nonexistent`` checks that they skip).
- ``new_page`` (function): ``new_page()`` is a new page in a new browser context (its own
  cookies: one context per user), 1280x900; every context is closed at the end of the test.
- ``shot`` (function): ``shot(page, "home")`` saves a full-page screenshot as ``home.png`` in
  ``var/screenshots/`` (``PENTE_SCREENSHOTS`` names another folder) and returns its path.

Helpers to import (``from tests.web.conftest import signup, unique_name, watch_errors``):
``signup(page, base, username, password)``, ``signin(...)``, ``unique_name(prefix)`` and
``watch_errors(page)`` (the console errors and uncaught exceptions of a page, as a list that
fills as they come).

A browser test should ask for ``new_page`` (or ``browser``) before ``site`` in its arguments,
or carry ``pytest.mark.usefixtures("browser")``, so that without a browser it is skipped before
a server is started for nothing.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.servers import ROOT, start_embedded, stop_server

#: Short heartbeats, and rate limits far above what the tests do (sign-ups from one address...).
SERVER_SETTINGS = {
    "LIVE_HEARTBEAT_SECONDS": "0.5",
    "LIVE_SPECTATORS_SECONDS": "0.2",
    "THROTTLE_AUTH_RATE": "1000/min",
    "THROTTLE_AUTH_USERNAME_RATE": "1000/min",
    "THROTTLE_WRITES_RATE": "5000/min",
    "THROTTLE_WRITES_IP_RATE": "5000/min",
    "THROTTLE_MOVES_RATE": "5000/min",
    "THROTTLE_CHALLENGES_RATE": "5000/min",
    "THROTTLE_CHALLENGE_TARGET_RATE": "5000/min",
    "THROTTLE_CHAT_RATE": "5000/min",
    "THROTTLE_CHAT_BURST_RATE": "5000/10s",
    "THROTTLE_TOURNAMENTS_RATE": "5000/hour",
    # A live set's countdown to game 2: long enough for a slow machine to see it and press Ready.
    "SET_NEXT_GAME_SECONDS": "15",
}

#: Chromium's flags: no sandbox (containers, root), no GPU, and nothing that calls home.
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

VIEWPORT = {"width": 1280, "height": 900}
TIMEOUT_MS = 15_000
SCREENSHOTS = Path(os.environ.get("PENTE_SCREENSHOTS") or ROOT / "var" / "screenshots")

NO_CHROMIUM = (
    "no Chromium: install Debian's chromium package (apt-get install chromium), or set "
    "CHROMIUM to a Chromium executable, to run the browser tests"
)
NO_PLAYWRIGHT = (
    "no Playwright for Python: install the dev dependencies (pip install -e '.[dev]', "
    "playwright==1.65.2) to run the browser tests"
)


def chromium_executable() -> str | None:
    """The Chromium to drive: ``CHROMIUM`` when set (None when that is no executable file),
    else Debian's ``/usr/bin/chromium``, ``/usr/bin/chromium-browser``, or one on the PATH."""

    def runnable(path: str | None) -> bool:
        return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)

    given = os.environ.get("CHROMIUM", "").strip()
    if given:
        return given if runnable(given) else None
    for candidate in (
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if runnable(candidate):
            return candidate
    return None


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.skip(NO_PLAYWRIGHT)
    # The pages' assertions wait as long as their actions do: on a loaded machine an event
    # takes seconds to reach a page by its stream, more than the default 5.
    expect.set_options(timeout=TIMEOUT_MS)
    executable = chromium_executable()
    if executable is None:
        given = os.environ.get("CHROMIUM", "").strip()
        pytest.skip(
            f"CHROMIUM={given} is not an executable: {NO_CHROMIUM}" if given else NO_CHROMIUM
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=BROWSER_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The base URL of a real ``manage.py serve`` (embedded default) on a free port."""
    proc, base = start_embedded(tmp_path_factory.mktemp("web-var"), **SERVER_SETTINGS)
    yield base
    stop_server(proc)


@pytest.fixture
def new_page(browser):
    """``new_page()``: a page in a context of its own (separate cookies: one per user)."""
    contexts = []

    def make():
        context = browser.new_context(viewport=VIEWPORT, locale="en-US", timezone_id="UTC")
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def save_shot(page, name: str) -> Path:
    """A full-page screenshot of ``page`` saved as ``<name>.png`` in the screenshots folder."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def shot():
    """``shot(page, name)``: save a full-page screenshot as an artifact, return its path."""
    return save_shot


_serial = itertools.count(1)


def unique_name(prefix: str = "u") -> str:
    """A username no other test (or earlier run on the same server) has."""
    return f"{prefix}{os.getpid() % 100_000}x{next(_serial)}"


def watch_errors(page) -> list[str]:
    """The console errors and uncaught exceptions of ``page`` from now on (a list that fills
    as they happen)."""
    errors: list[str] = []
    page.on(
        "console",
        lambda msg: (
            errors.append(f"console: {msg.text} ({msg.location.get('url', '')})")
            if msg.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def _expect_home(page, base: str, what: str) -> None:
    """Fail with what the form said when the browser did not land on the home page."""
    if page.url.split("?")[0].rstrip("/") != base.rstrip("/"):
        said = (
            page.locator("main").inner_text(timeout=2_000) if page.locator("main").count() else ""
        )
        pytest.fail(f"{what} did not lead to {base}/ but to {page.url}:\n{said[:1000]}")


def signup(page, base: str, username: str, password: str) -> None:
    """Create an account through the sign-up form; returns once the browser is back on ``/``."""
    page.goto(f"{base}/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.fill("input[name=password2]", password)
    with page.expect_navigation():
        page.click("#signup-form button[type=submit]")
    _expect_home(page, base, f"signing up as {username}")


def signin(page, base: str, username: str, password: str) -> None:
    """Sign in through the sign-in form; returns once the browser is back on ``/``."""
    page.goto(f"{base}/login/")
    page.fill("#login-form input[name=username]", username)
    page.fill("#login-form input[name=password]", password)
    with page.expect_navigation():
        page.click("#login-form button[type=submit]")
    _expect_home(page, base, f"signing in as {username}")


#: The address of a game page.
GAME_URL = re.compile(r".*/games/(\d+)/$")


def accepted_from_home(site, challenger, invitee) -> None:
    """The invitee accepts the challenger's challenge on their home page (after a reload: it
    may have come before their stream); both are taken to the game."""
    invitee.goto(f"{site}/")
    invitee.locator("#incoming button[data-api$='/accept']").click()
    invitee.wait_for_url(GAME_URL)
    challenger.wait_for_url(GAME_URL)


def challenge(page, site: str, *, variant: str, opponent: str = "computer", invitee: str = ""):
    """Challenge from the play page: the first computer level, or ``invitee``."""
    page.goto(f"{site}/play/")
    page.select_option("select[name=opponent]", opponent)
    if opponent == "computer":
        page.select_option("select[name=level]", index=0)
    else:
        page.fill("input[name=invitee]", invitee)
    page.select_option("select[name=variant]", variant)
    page.click("#challenge-form button[type=submit]")
