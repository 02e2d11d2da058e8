"""The play page's other turns in a real browser: Connect6's two stones a turn, and Go's pass,
marking of dead stones and acceptance of the count.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.playing import against_the_computer, go_black_and_white, players_at_a_game, stone

pytestmark = pytest.mark.usefixtures("browser")

CORNERS = ("A1", "A3", "A5", "A7", "C1", "C3", "T19", "T17", "R19", "R17")


def connect6_game(new_page, site):
    """A new player's Connect6 game against the computer, at their first turn: the page and
    the JavaScript errors it meets."""
    page, errors = against_the_computer(new_page, site, variant="Connect6", name="six")
    expect(page.locator("#status")).to_have_text("Your turn: place two stones", timeout=30_000)
    return page, errors


def test_a_connect6_turn_is_two_clicks_and_the_first_stone_waits(new_page, site):
    page, errors = connect6_game(new_page, site)
    first, second = [p for p in CORNERS if stone(page, p).count() == 0][:2]
    page.click(f'#board rect.pt[data-point="{first}"]')
    expect(page.locator(f'#board .pending[data-point="{first}"]')).to_have_count(1)
    expect(stone(page, first)).to_have_count(0)  # not sent yet
    page.click(f'#board rect.pt[data-point="{second}"]')
    expect(stone(page, first)).to_have_count(1)
    expect(stone(page, second)).to_have_count(1)
    # No captures in Connect6: nobody is said to have captured 0 stones.
    expect(page.locator("#players")).not_to_contain_text("captured")
    assert errors == []


def test_connect6_waiting_stones_go_after_a_refused_turn_and_never_on_a_taken_point(new_page, site):
    page, errors = connect6_game(new_page, site)
    pending = page.locator("#board .pending")
    # A taken point (the centre stone) is no waiting stone.
    page.click('#board rect.pt[data-point="K10"]')
    expect(page.locator("#notice")).to_have_text("That point is taken.")
    expect(pending).to_have_count(0)
    # The server refuses the next turn (as it would a stale or illegal one): both waiting
    # stones go, and the next turn sends two stones, not four.
    sent = []
    page.route(
        "**/api/games/*/moves",
        lambda route: route.fulfill(
            status=409, content_type="application/json", body='{"detail": "Not now."}'
        ),
        times=1,
    )
    page.on("request", lambda r: sent.append(r.post_data_json) if r.method == "POST" else None)
    page.click('#board rect.pt[data-point="A1"]')
    page.click('#board rect.pt[data-point="A3"]')
    expect(page.locator("#notice")).to_have_text("Not now.")
    expect(pending).to_have_count(0)
    # From the keyboard: the board takes the focus, the arrows move from the centre, Enter plays.
    page.focus("#board")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(page.locator('#board .pending[data-point="J10"]')).to_have_count(1)
    page.click('#board rect.pt[data-point="A5"]')
    expect(stone(page, "J10")).to_have_count(1)
    expect(stone(page, "A5")).to_have_count(1)
    assert [len(body["points"]) for body in sent] == [2, 2]
    # Clicking the board while an earlier position is shown goes back to the game as it stands.
    page.click("#viewer [data-step=first]")
    expect(page.locator("#board rect.pt")).to_have_count(0)
    page.click("#board")
    expect(page.locator("#board rect.pt")).not_to_have_count(0)
    expect(page.locator("#moves li button")).not_to_have_count(0)
    assert [e for e in errors if "409 (Conflict)" not in e] == []  # but the refusal made up


def test_go_pass_marking_and_accepting_the_count(new_page, site, shot):
    pages, errors = players_at_a_game(new_page, site, variant="Go (9x9)", names=("go", "go"))
    black, white = go_black_and_white(*pages)
    black.click('#board rect.pt[data-point="E5"]')
    expect(stone(white, "E5")).to_have_count(1)
    white.click("#controls [data-action=pass]")
    expect(black.locator("#controls [data-action=pass]")).to_be_visible()
    black.click("#controls [data-action=pass]")
    # The player who passed first marks the dead stones (none here) and proposes them; the
    # other decides, and each side is told which part is theirs.
    expect(white.locator("#status")).to_have_text("Mark the dead stones, then propose")
    marker = white.locator("#me").inner_text()
    expect(black.locator("#status")).to_have_text(f"Counting: {marker} is marking the dead stones")
    white.click("#controls [data-action=propose]")
    expect(black.locator("#status")).to_have_text("Accept or reject the dead stones marked")
    expect(white.locator("#status")).to_have_text(re.compile("^Waiting for .* to accept or reject"))
    expect(white.locator("#controls [data-action=accept]")).to_have_count(0)
    expect(white.locator("#controls [data-action=undo-ask]")).to_have_count(0)
    expect(white.locator("#moves li").last).to_have_text("no dead stones")
    black.click("#controls [data-action=accept]")
    # The move list says what was decided, not the button's words.
    expect(white.locator("#moves li").last).to_have_text("Marking accepted")
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
