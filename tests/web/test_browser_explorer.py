"""The explorer's page in a real browser: clicking the board's points walks through a game.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import challenge, signup, unique_name, watch_errors

PASSWORD = "correct-horse-battery-1"

pytestmark = pytest.mark.usefixtures("browser")


def expect(target):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def test_clicking_points_of_the_board_plays_them_and_back_takes_one_away(new_page, site, shot):
    page = new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/database/")
    page.get_by_role("link", name="explore by position").click()
    board = page.locator("#explorer-board")
    expect(board.locator("circle.stone")).to_have_count(1)  # the centre stone
    board.locator('a.point[data-point="L11"]').click()
    expect(page).to_have_url(f"{site}/database/explorer/?game=Pente&moves=L11")
    expect(board.locator('circle.stone[data-point="L11"]')).to_have_count(1)
    board.locator('a.point[data-point="N13"]').click()
    expect(board.locator("circle.stone")).to_have_count(3)
    expect(page.locator("#explorer-path")).to_contain_text("L11 · N13")
    shot(page, "explorer")
    page.locator("#explorer-back").click()
    expect(board.locator("circle.stone")).to_have_count(2)
    assert errors == []


def test_a_games_page_opens_the_explorer_at_the_position_it_shows(new_page, site):
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("x"), PASSWORD)
    challenge(page, site, variant="Pente")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    # The seats are drawn. Once the player is to move (the computer has answered the centre
    # if the player moves first), they play A1, and the computer answers that if they move
    # second: at least three plies, so that ply 2 is an earlier position. (Choosing the last
    # ply follows the game as it goes on, so a move arriving then would move the view.)
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"), timeout=90_000)
    page.locator('#board rect.pt[data-point="A1"]').click()
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^[3-9] / "), timeout=90_000)
    page.locator('#moves li[data-ply="2"] button').click()  # ply 2: the centre and the answer
    expect(page.locator("#ply-label")).to_have_text(re.compile(r"^2 / "))
    explore = page.locator("#explore")
    expect(explore).to_have_attribute(
        "href", re.compile(r"^/database/explorer/\?game=Pente&moves=K10%2C[A-T]\d+$")
    )
    explore.click()
    expect(page.locator("#explorer-board circle.stone")).to_have_count(2)
    assert errors == []
