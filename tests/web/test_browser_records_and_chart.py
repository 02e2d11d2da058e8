"""The import page importing a small file with a refused record, and the player page's rating
chart drawn with its axes, in a real browser."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from tests.web.conftest import signup, unique_name, watch_errors  # noqa: E402
from tests.web.playing import PASSWORD, players_at_a_game, post  # noqa: E402

RECORDS = (
    '[Game "Pente"]\n[Player 1 Name "ann"]\n[Player 2 Name "bob"]\n\n1. K10 L11 2. M12 N13\n\n'
    '[Game "Pente"]\n[Player 1 Name "cy"]\n[Player 2 Name "di"]\n\n1. K10 L11 2. L11\n'
)


def test_the_import_page_imports_a_file_and_says_why_a_record_was_refused(new_page, site, tmp_path):
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("imp"), PASSWORD)
    page.goto(f"{site}/database/")
    page.click("#import-link")
    records = tmp_path / "games.txt"
    records.write_text(RECORDS)
    page.set_input_files("#import-file", str(records))
    page.click("#import-start")
    expect(page.locator("#import-status")).to_contain_text(
        "2 of 2 records read. Done.", timeout=30_000
    )
    expect(page.locator("#import-summary")).to_have_text("1 imported, 1 refused.")
    expect(page.locator("#import-games a")).to_have_count(1)
    refusal = page.locator("#import-refusals tbody tr")
    expect(refusal).to_have_count(1)
    expect(refusal).to_contain_text("L11 is already taken")
    expect(refusal.locator("td").nth(0)).to_have_text("2")
    assert errors == []


def test_the_rating_history_is_a_chart_with_axes_and_hover_values(new_page, site):
    (ann, bob), errors = players_at_a_game(new_page, site)
    names = [page.locator("#me").inner_text() for page in (ann, bob)]
    # A rated Swap2-Pente set is one game: bob resigns it, and both ratings move.
    challenge = post(
        ann, "challenges/", {"variant": "Swap2-Pente", "rated": True, "invitee": names[1]}
    )
    assert challenge["status"] == 201, challenge
    accepted = post(bob, f"challenges/{challenge['data']['id']}/accept/", {})
    assert accepted["status"] == 200 and accepted["data"]["game"], accepted
    assert post(bob, f"games/{accepted['data']['game']}/resign", {})["status"] == 200
    ann.goto(f"{site}/players/{names[0]}/")
    chart = ann.locator("#rating-chart .uplot")
    expect(chart).to_be_visible()
    # Axes: the dates along the bottom, the ratings up the side, each with its label.
    expect(chart.locator(".u-axis")).to_have_count(2)
    expect(chart.locator(".u-title")).to_have_text(f"{names[0]}: Swap2-Pente · normal")
    expect(ann.locator("#rating-chart-note")).to_contain_text("1 rated result.")
    box = chart.locator(".u-over").bounding_box()
    ann.mouse.move(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2)
    expect(chart.locator(".u-legend .u-series").nth(1)).to_contain_text(
        re.compile(rf"\d{{4}} \(\+\d+, \w+ v {names[1]}\)")
    )
    assert [e for said in errors for e in said] == []
