"""A tournament game announced to its player on the pages they have open: a banner with the
link and the time left to place a first stone, the tab's title, the browser's notification.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.web.conftest import signup, unique_name, watch_errors
from tests.web.playing import PASSWORD, api_player

pytestmark = pytest.mark.usefixtures("browser")

#: A stand-in for the browser's notifications (granted): the page's calls are recorded.
FAKE_NOTIFICATION = """
window.__notes = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push({ title, ...options }); }
};
"""


def test_a_tournament_game_is_announced_on_every_page_the_player_has_open(new_page, site):
    _organiser_name, organiser = api_player(site)
    start_at = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    created = organiser.post(
        "tournaments/",
        json={
            "name": "Evening Cup",
            "variant": "Pente",
            "rated": False,
            "format": "single_elimination",
            "time_control": "live",
            "initial_minutes": 5,
            "games_per_match": 1,
            "start_at": start_at,
        },
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    _rival, rival = api_player(site)
    assert rival.post(f"tournaments/{tid}/join/").status_code == 201

    page = new_page()
    errors = watch_errors(page)
    page.context.add_init_script(FAKE_NOTIFICATION)
    player = unique_name("a")
    signup(page, site, player, PASSWORD)
    page.goto(f"{site}/tournaments/{tid}/")
    page.locator(f'[data-api="tournaments/{tid}/join"]').click()
    expect(page.locator(f'[data-api="tournaments/{tid}/withdraw"]')).to_be_visible()
    other = page.context.new_page()  # a second tab of the same player, on another page
    errors.extend(watch_errors(other))
    other.goto(f"{site}/leaderboards/")
    page.wait_for_timeout(500)  # both pages follow the player's stream

    assert organiser.post(f"tournaments/{tid}/start/").status_code in (200, 202)
    for _ in range(600):  # a job pairs it
        if not organiser.get(f"tournaments/{tid}/").json()["pairing_pending"]:
            break
        time.sleep(0.1)

    for tab in (page, other):
        banner = tab.locator("#tournament-games .tournament-game")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Evening Cup")
        expect(banner).to_contain_text("round 1")
        expect(banner.locator(".tournament-game-left")).to_have_text(re.compile(r"^[0-5]:\d\d$"))
        expect(tab).to_have_title(re.compile("^⚑ Tournament game"))
    link = page.locator("#tournament-games a", has_text="Play it now")
    href = link.get_attribute("href")
    assert re.fullmatch(r"/games/\d+/", href)
    notes = page.evaluate("window.__notes") + other.evaluate("window.__notes")
    assert len({note["tag"] for note in notes}) == 1 and "Evening Cup" in notes[0]["title"]

    # Opening the game takes the announcement away, on the other tab too.
    link.click()
    expect(page).to_have_url(f"{site}{href}")
    expect(page.locator("#tournament-games .tournament-game")).to_have_count(0)
    other.reload()
    expect(other.locator("#tournament-games .tournament-game")).to_have_count(0)
    expect(other).not_to_have_title(re.compile("Tournament game"))
    assert errors == []
