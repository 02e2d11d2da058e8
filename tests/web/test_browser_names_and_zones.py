"""A turn-based game's deadline is said in the time zone of the viewer's account, which it
names, whatever the browser's own.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.web.conftest import GAME_URL, signup, unique_name, watch_errors
from tests.web.playing import PASSWORD, game_id

pytestmark = pytest.mark.usefixtures("browser")

#: The API called from the page, with its session and CSRF token: (status, body).
CALL = """async ([method, path, body, type]) => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch('/api/' + path, { method, credentials: 'same-origin',
    headers: { 'Content-Type': type, 'X-CSRFToken': token, Accept: 'application/json' },
    body: body === null ? undefined : body });
  return [response.status, await response.json()];
}"""


def call(page, method: str, path: str, body=None, content_type="application/json"):
    return page.evaluate(CALL, [method, path, body, content_type])


def test_the_deadline_is_said_in_the_accounts_time_zone_and_named(new_page, site):
    page = new_page()  # the browser's time zone is UTC
    errors = watch_errors(page)
    signup(page, site, unique_name("tz"), PASSWORD)
    assert call(page, "PATCH", "me", '{"time_zone": "Asia/Tokyo"}')[0] == 200
    page.goto(f"{site}/play/")
    page.select_option("select[name=opponent]", "computer")
    page.select_option("select[name=time_control]", "turn")
    page.fill("input[name=days_per_move]", "2")
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(GAME_URL)
    # On the player's turn (after the computer's first stone, when it has one) the deadline
    # stays where it is until they move.
    expect(page.locator("#status")).to_have_text("Your turn", timeout=30_000)
    deadline = page.locator("#deadline")
    expect(deadline).to_contain_text("Asia/Tokyo")
    state = call(page, "GET", f"games/{game_id(page)}/")[1]
    due = datetime.fromisoformat(state["clock"]["deadline"]).astimezone(ZoneInfo("Asia/Tokyo"))
    hour = due.hour % 12 or 12
    expected = rf"Move by {due:%b} {due.day}, {due.year}, {hour}:{due:%M}\s{due:%p} Asia/Tokyo"
    expect(deadline).to_have_text(re.compile(expected))
    assert errors == []
