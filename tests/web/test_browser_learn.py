"""The Learn section in a real browser: a newcomer, not signed in, completes the first Pente
lesson and the Go ko lesson by clicking the board; the rules links of the new-game form and of
a game's page lead to that game's rules.

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


def click_point(page, point: str) -> None:
    page.locator(f'#board rect.pt[data-point="{point}"]').click()


def answer_right(page, point: str, step: int) -> None:
    click_point(page, point)
    expect(page.locator("#feedback")).to_have_class(re.compile(r"\bright\b"))
    expect(page.locator(f'#steps li[data-step="{step}"]')).to_have_class(re.compile(r"\bdone\b"))


def test_a_newcomer_completes_the_first_pente_lesson(new_page, site, shot):
    page = new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/")
    page.get_by_role("link", name="Learn", exact=True).click()
    expect(page).to_have_url(f"{site}/learn/")
    page.get_by_role("link", name=re.compile("^Pente: captures")).click()
    expect(page).to_have_url(f"{site}/learn/pente/")
    expect(page.locator("#step-title")).to_have_text("Step 1 of 4")
    # A wrong answer first: told so, then tried again.
    click_point(page, "L11")
    feedback = page.locator("#feedback")
    expect(feedback).to_have_class(re.compile(r"\bwrong\b"))
    expect(feedback).to_contain_text("Bracket the pair")
    page.locator("#retry").click()
    answer_right(page, "N10", 1)
    expect(page.locator('#board circle.stone[data-point="L10"]')).to_have_count(0)  # captured
    shot(page, "lesson-pente")
    page.locator("#next").click()
    answer_right(page, "K12", 2)
    page.locator("#next").click()
    answer_right(page, "N13", 3)
    page.locator("#next").click()
    # The tournament rule refuses a point next to the centre, with the rules' own words.
    click_point(page, "L10")
    expect(feedback).to_have_class(re.compile(r"\bwrong\b"))
    expect(page.locator("#refusal")).to_contain_text("Tournament rule")
    page.locator("#retry").click()
    answer_right(page, "K13", 4)
    expect(page.locator("#complete")).to_be_visible()
    expect(page.locator("#next")).to_be_hidden()
    # The Learn page remembers it for this browser's session.
    page.goto(f"{site}/learn/")
    row = page.locator('li[data-lesson="pente"]')
    expect(row.locator(".lesson-progress")).to_have_text("4 of 4 steps done")
    expect(row.locator(".lesson-complete")).to_be_visible()
    assert errors == []


def test_a_newcomer_completes_the_go_ko_lesson(new_page, site, shot):
    page = new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/learn/go-ko/")
    expect(page.locator("#board circle.stone")).to_have_count(7)
    answer_right(page, "E4", 1)
    expect(page.locator('#board circle.stone[data-point="D4"]')).to_have_count(0)
    page.locator("#next").click()
    # The retake is refused by the rules: that is what this step asks.
    answer_right(page, "D4", 2)
    expect(page.locator("#refusal")).to_contain_text("superko")
    shot(page, "lesson-go-ko")
    page.locator("#next").click()
    answer_right(page, "D4", 3)
    expect(page.locator("#complete")).to_be_visible()
    expect(page.locator("#next-lesson")).to_have_attribute("href", "/learn/go-end/")
    assert errors == []


def test_a_signed_in_players_progress_is_kept_on_their_account(new_page, site):
    page = new_page()
    signup(page, site, unique_name("learner"), PASSWORD)
    page.goto(f"{site}/learn/connect6/")
    # Connect6: two stones a turn, then Play.
    click_point(page, "L10")
    click_point(page, "L11")
    expect(page.locator("#board circle.pending")).to_have_count(2)
    page.locator("#play-turn").click()
    expect(page.locator("#feedback")).to_have_class(re.compile(r"\bright\b"))
    page.goto(f"{site}/learn/")
    expect(page.locator('li[data-lesson="connect6"] .lesson-progress')).to_have_text(
        "1 of 2 steps done"
    )


def test_the_rules_links_of_the_new_game_form_and_the_game_page(new_page, site, shot):
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("rules"), PASSWORD)
    page.goto(f"{site}/play/")
    page.select_option("select[name=variant]", "go-9")
    link = page.locator("#variant-rules a.rules-link:visible")
    expect(link).to_have_count(1)
    expect(link).to_have_text("Rules of Go (9x9)")
    link.click()
    expect(page).to_have_url(f"{site}/rules/go-9/")
    expect(page.locator("#rules-title")).to_have_text("Rules of Go (9x9)")
    expect(page.locator("#rules h3#ko-and-positional-superko")).to_be_visible()
    challenge(page, site, variant="Keryo-Pente")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.locator("#rules-link").click()
    expect(page).to_have_url(f"{site}/rules/keryo-pente/")
    expect(page.locator("#rules h3#keryo-pente")).to_be_visible()
    shot(page, "rules-keryo-pente")
    page.get_by_role("link", name="Rated games").click()
    expect(page.locator("h1")).to_have_text("Rated games")
    assert errors == []


def test_pass_marking_and_decisions_are_answered_with_their_buttons(new_page, site):
    page = new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/learn/go-end/")
    page.get_by_role("button", name="Pass").click()
    expect(page.locator("#feedback")).to_have_class(re.compile(r"\bright\b"))
    page.locator("#next").click()
    expect(page.get_by_role("button", name="Pass")).to_have_count(0)  # marking: no pass
    answer_right(page, "C2", 2)  # one stone marks its whole group
    expect(page.locator("#complete")).to_be_visible()
    page.goto(f"{site}/learn/swap2/")
    page.get_by_role("button", name="keep").click()
    expect(page.locator("#feedback")).to_have_class(re.compile(r"\bwrong\b"))
    page.locator("#retry").click()
    page.get_by_role("button", name="swap").click()
    expect(page.locator("#feedback")).to_have_class(re.compile(r"\bright\b"))
    assert errors == []
