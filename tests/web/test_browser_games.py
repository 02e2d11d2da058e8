"""The play page's other turns in a real browser: Connect6's two stones a turn, and Go's pass,
marking of dead stones and acceptance of the count.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import challenge, signup, unique_name, watch_errors

pytestmark = pytest.mark.usefixtures("browser")

PASSWORD = "correct-horse-battery-1"
GAME_URL = re.compile(r".*/games/(\d+)/$")
CORNERS = ("A1", "A3", "A5", "A7", "C1", "C3", "T19", "T17", "R19", "R17")


def stone(page, point: str):
    return page.locator(f'#board circle.stone[data-point="{point}"]')


def test_a_connect6_turn_is_two_clicks_and_the_first_stone_waits(new_page, site):
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("six"), PASSWORD)
    challenge(page, site, variant="Connect6")
    page.wait_for_url(GAME_URL)
    expect(page.locator("#status")).to_have_text("Your turn: place two stones", timeout=30_000)
    first, second = [p for p in CORNERS if stone(page, p).count() == 0][:2]
    page.click(f'#board rect.pt[data-point="{first}"]')
    expect(page.locator(f'#board .pending[data-point="{first}"]')).to_have_count(1)
    expect(stone(page, first)).to_have_count(0)  # not sent yet
    page.click(f'#board rect.pt[data-point="{second}"]')
    expect(stone(page, first)).to_have_count(1)
    expect(stone(page, second)).to_have_count(1)
    assert errors == []


def test_go_pass_marking_and_accepting_the_count(new_page, site, shot):
    black, white = new_page(), new_page()
    errors = [watch_errors(page) for page in (black, white)]
    black_name, white_name = unique_name("go"), unique_name("go")
    signup(black, site, black_name, PASSWORD)
    signup(white, site, white_name, PASSWORD)
    challenge(black, site, variant="Go (9x9)", opponent="player", invitee=white_name)
    expect(black.locator("#outgoing li[data-challenge]")).to_have_count(1)
    white.goto(f"{site}/")
    white.locator("#incoming button[data-api$='/accept']").click()
    white.wait_for_url(GAME_URL)
    black.wait_for_url(GAME_URL)
    # The challenger may have been given either colour: Go's first mover is black.
    if "Your turn" not in black.locator("#status").inner_text():
        expect(white.locator("#status")).to_have_text("Your turn")
        black, white = white, black
    black.click('#board rect.pt[data-point="E5"]')
    expect(stone(white, "E5")).to_have_count(1)
    white.click("#controls [data-action=pass]")
    expect(black.locator("#controls [data-action=pass]")).to_be_visible()
    black.click("#controls [data-action=pass]")
    # The player who passed first marks the dead stones (none here) and proposes them.
    expect(white.locator("#status")).to_have_text("Mark the dead stones, then propose")
    white.click("#controls [data-action=propose]")
    black.click("#controls [data-action=accept]")
    winner = black.locator("#me").inner_text()
    for page in (black, white):
        expect(page.locator("#status")).to_have_text(
            re.compile(rf"^{winner} won by .*\(black 81(\.0)?, white [0-9.]+\)$")
        )
    # Nothing left to do or say once it is counted: the actions' panel is not an empty box.
    for page in (black, white):
        expect(page.locator("#actions")).to_be_hidden()
    shot(black, "go")
    assert errors == [[], []]
