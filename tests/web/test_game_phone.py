"""The game page on a phone (390x844, a touch screen): the title, the status and both clocks in
view above the board without scrolling, a page that never scrolls itself, tap targets at least
40 px apart, and "confirm moves on touch" (on by default there on boards over 13x13): a first
tap shows the stone, a second on it plays it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web import conftest as web
from tests.web.playing import PASSWORD, stone

PHONE = {"width": 390, "height": 844}

#: Every tap target's centre and box (the board's points aside), for the spacing check.
TARGETS = """() => [...document.querySelectorAll("a, button, input, select, summary")]
  .filter((node) => !node.closest("#board") && node.getClientRects().length
    && getComputedStyle(node).visibility !== "hidden" && !node.closest("[hidden], details:not([open]) > :not(summary)"))
  .map((node) => { const box = node.getBoundingClientRect();
    return { what: node.outerHTML.slice(0, 80), x: box.x + box.width / 2, y: box.y + box.height / 2 }; })"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-US", timezone_id="UTC"
    )
    context.set_default_timeout(web.TIMEOUT_MS)
    yield context.new_page()
    context.close()


def in_view(page, selector) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    return box


def test_the_game_page_on_a_phone(phone, site):
    page = phone
    errors = web.watch_errors(page)
    web.signup(page, site, web.unique_name("tap"), PASSWORD)
    page.goto(f"{site}/play/")
    page.select_option("select[name=opponent]", "computer")
    page.select_option("select[name=level]", index=0)
    page.select_option("select[name=variant]", "Pente")
    page.select_option("select[name=time_control]", "live")
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(web.GAME_URL)
    expect(page.locator("#status")).to_have_text("Your turn")
    expect(page.locator('[data-clock="1"]')).to_have_text(re.compile(r"\d:\d\d"))
    # Title, status and both clocks in view, above the board, and the page where it opened.
    page.wait_for_timeout(500)
    assert page.evaluate("window.scrollY") == 0
    board = page.locator("#board").bounding_box()
    for selector in ("h1", "#status", '[data-clock="1"]', '[data-clock="2"]'):
        assert in_view(page, selector)["y"] < board["y"], selector
    # Tap targets at least 40 px apart (centre to centre).
    targets = page.evaluate(TARGETS)
    close = [
        (a["what"], b["what"])
        for i, a in enumerate(targets)
        for b in targets[i + 1 :]
        if ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5 < 39.5
    ]
    assert close == []
    # Confirm moves on touch (a 19x19 board): the first tap shows the stone, the second plays.
    expect(page.locator("#settings input[data-setting=confirm-touch]")).to_be_checked()
    page.tap('#board rect.pt[data-point="B18"]')
    expect(page.locator('#board .ghost[data-point="B18"]')).to_have_count(1)
    page.wait_for_timeout(300)
    expect(stone(page, "B18")).to_have_count(0)
    page.tap('#board rect.pt[data-point="B18"]')
    expect(stone(page, "B18")).to_have_count(1)
    expect(page.locator("#board .ghost")).to_have_count(0)
    assert page.evaluate("window.scrollY") == 0
    assert errors == []
