"""A double click on Start makes one game (the button is disabled while its request is in
flight; two requests of the same action send one Idempotency-Key); and a signed-out visitor
plays the computer as a guest.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import GAME_URL, signup, unique_name, watch_errors
from tests.web.playing import PASSWORD, click, game_id, stone

#: The player's games, read from the API by the page (``player`` filter of ``GET /api/games/``).
GAMES_OF = (
    "(name) => fetch(`/api/games/?player=${name}`).then((r) => r.json()).then((b) => b.count)"
)


def test_a_double_click_on_start_makes_one_game(new_page, site):
    page = new_page()
    errors = watch_errors(page)
    name = unique_name("dbl")
    signup(page, site, name, PASSWORD)
    page.goto(f"{site}/play/")
    page.select_option("select[name=opponent]", "computer")
    page.select_option("select[name=level]", index=0)
    page.dblclick("#challenge-form button[type=submit]")
    page.wait_for_url(GAME_URL)
    expect(page.locator("#board")).to_be_visible()
    assert page.evaluate(GAMES_OF, name) == 1
    assert errors == []


def test_the_same_action_sent_twice_at_once_makes_one_game(new_page, site):
    """Past the button (two calls of ``api()`` at once, as a script or a second tab might):
    both carry the same Idempotency-Key, and the server makes one game."""
    page = new_page()
    name = unique_name("twice")
    signup(page, site, name, PASSWORD)
    page.goto(f"{site}/play/")
    level = page.locator("select[name=level] option").first.get_attribute("value")
    answers = page.evaluate(
        """async (level) => {
          const { api } = await import(document.querySelector('script[src*="site.js"]').src);
          const body = { variant: "Pente", invitee: level };
          const both = await Promise.all([1, 2].map(() => api("challenges/", { method: "POST", body })));
          return both.map((r) => [r.status, r.data.game]);
        }""",
        level,
    )
    assert [status for status, _ in answers] == [201, 201]
    assert answers[0][1] == answers[1][1]
    assert page.evaluate(GAMES_OF, name) == 1


def test_a_signed_out_visitor_plays_the_computer_as_a_guest(new_page, site):
    page = new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/play/")
    page.click("#guest-form button[type=submit]")
    expect(page.locator("#guest-note")).to_be_visible()
    expect(page.locator("select[name=opponent] option")).to_have_count(1)
    page.select_option("select[name=level]", index=0)
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(GAME_URL)
    assert game_id(page) > 0
    expect(page.locator("#status")).to_have_text("Your turn", timeout=30_000)
    point = next(p for p in ("A1", "A19", "T1", "T19", "B2") if stone(page, p).count() == 0)
    click(page, point)
    expect(stone(page, point)).to_have_count(1)
    assert errors == []
