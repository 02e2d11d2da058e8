"""Long names on a phone (390 px wide): a name with no space, a player's (20 characters, the
most a new account takes) or an imported record's (150), never makes a page wider than the
screen; on the game page it is cut with an
ellipsis and its title holds it whole. And a turn-based game's deadline is said in the time zone
of the viewer's account, which it names, whatever the browser's own.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.web.conftest import GAME_URL, signup, unique_name, watch_errors
from tests.web.playing import PASSWORD, call, game_id, imported_game

pytestmark = pytest.mark.usefixtures("browser")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

#: The API called from the page, with its session and CSRF token: (status, body).


def fits(page, width: int) -> None:
    """The page does not scroll sideways at ``width``."""
    page.wait_for_load_state("load")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll} px wide at {width} px"


def test_long_names_never_widen_a_page_on_a_phone(new_page, site, shot):
    page = new_page()
    errors = watch_errors(page)
    long_user = unique_name("long").ljust(20, "g")
    signup(page, site, long_user, PASSWORD)
    record_name = "P" * 150
    archived = imported_game(page, record_name, "Q" * 150)
    # A game of the long-named player against the computer, with a long line in its chat, and
    # an open invitation of theirs.
    page.goto(f"{site}/play/")
    page.select_option("select[name=opponent]", "computer")
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(GAME_URL)
    playing = game_id(page)
    page.fill("#chat-form input[name=text]", "W" * 300)
    page.click("#chat-form button[type=submit]")
    expect(page.locator("#chat li")).to_have_count(1)
    assert call(page, "POST", "challenges/", '{"variant": "Pente", "seats": 3}')[0] == 201

    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        width = size["width"]
        page.goto(f"{site}/games/{archived}/")
        expect(page.locator("#players .player")).to_have_count(2)
        fits(page, width)
        name = page.locator("#players .player .name").first
        expect(name).to_have_attribute("title", record_name)
        expect(name).to_have_text(record_name)
        # Cut, not whole (read in one step: the panel is drawn again as the stream opens).
        assert name.evaluate("node => node.getBoundingClientRect().width") < width / 2
        if size is PHONE:
            shot(page, "game-long-names-phone")
        page.goto(f"{site}/games/{playing}/")
        expect(page.locator(f'#players .player .name[title="{long_user}"]')).to_have_count(1)
        expect(page.locator("#chat li")).to_have_count(1)
        fits(page, width)
        for path in ("/", "/play/", f"/database/?player={record_name}", f"/players/{long_user}/"):
            page.goto(f"{site}{path}")
            fits(page, width)
            if size is PHONE:
                shot(page, f"{path.split('/')[1] or 'home'}-long-names-phone")
        # The new-game form with all that an open invitation may ask for.
        page.goto(f"{site}/play/")
        page.select_option("select[name=opponent]", "open")
        page.select_option("select[name=computer_level]", "2")
        expect(page.locator("input[name=computer_wait_seconds]")).to_be_visible()
        fits(page, width)
        if size is PHONE:
            shot(page, "play-open-phone")
        page.goto(f"{site}/database/?player={record_name}")
        expect(page.locator(f'#games a[href="/games/{archived}/"]')).to_have_count(1)
    assert errors == []


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


def test_the_move_list_has_room_for_three_digit_move_numbers(new_page, site):
    """Go and long Pente games pass move 100: the list's numbers ("131.") must not be cut to
    their last two digits by the list's left margin."""
    page = new_page()
    signup(page, site, unique_name("moves"), PASSWORD)
    page.goto(f"{site}/games/{imported_game(page, 'A', 'B')}/")
    expect(page.locator("#moves li").first).to_be_visible()
    room, needed = page.evaluate(
        """() => {
          const list = document.getElementById("moves");
          const style = getComputedStyle(list.querySelector("li"));
          const context = document.createElement("canvas").getContext("2d");
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          return [parseFloat(getComputedStyle(list).paddingLeft),
                  context.measureText("388. ").width];
        }"""
    )
    assert needed <= room, f"the numbers need {needed} px, the list leaves {room} px"
