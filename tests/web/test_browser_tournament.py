"""A tournament in a real browser: a player joins from its page, the organiser starts it from
its page, and the page then draws the elimination bracket with every player in it.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import signin, signup, unique_name, watch_errors
from tests.web.playing import PASSWORD, api_player
from tournaments.pairing import trf

pytestmark = pytest.mark.usefixtures("browser")

PHONE = {"width": 390, "height": 844}


def create_tournament(organiser: httpx.Client, **fields) -> int:
    """A tournament created through the API, starting tomorrow; returns its id."""
    start_at = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    body = {
        "variant": "Pente",
        "rated": False,
        "time_control": "turn",
        "days_per_move": 3,
        "start_at": start_at,
        **fields,
    }
    created = organiser.post("tournaments/", json=body)
    assert created.status_code == 201, created.text
    return created.json()["id"]


def test_joining_starting_and_the_bracket_of_an_elimination_tournament(new_page, site, shot):
    organiser_name, organiser = api_player(site)
    tid = create_tournament(organiser, name="Autumn <Knockout>", format="single_elimination")
    names = []
    for _ in range(3):
        name, client = api_player(site)
        assert client.post(f"tournaments/{tid}/join/").status_code == 201
        names.append(name)

    # A fourth player joins with the page's button.
    page = new_page()
    errors = watch_errors(page)
    joiner = unique_name("j")
    signup(page, site, joiner, PASSWORD)
    page.goto(f"{site}/tournaments/{tid}/")
    expect(page.locator("h1")).to_contain_text("Autumn <Knockout>")  # escaped, shown as text
    page.locator(f'[data-api="tournaments/{tid}/join"]').click()
    expect(page.locator(f'[data-api="tournaments/{tid}/withdraw"]')).to_be_visible()
    names.append(joiner)

    # The organiser starts it from the page.
    boss = new_page()
    errors.extend(watch_errors(boss))
    boss.goto(f"{site}/login/")
    signin(boss, site, organiser_name, PASSWORD)
    boss.goto(f"{site}/tournaments/{tid}/")
    boss.locator(f'[data-api="tournaments/{tid}/start"]').click()
    bracket = boss.locator("#bracket")
    expect(bracket).to_be_visible()
    for name in names:
        expect(bracket).to_contain_text(name)
    shot(boss, "tournament")

    # Cancelling asks first: dismissed, nothing happens; accepted, the tournament is off.
    cancel = boss.locator(f'[data-api="tournaments/{tid}/cancel"]')
    boss.once("dialog", lambda dialog: dialog.dismiss())
    cancel.click()
    expect(boss.locator("#tournament-facts")).to_have_attribute("data-status", "running")
    boss.once("dialog", lambda dialog: dialog.accept())
    cancel.click()
    expect(boss.locator("#tournament-facts")).to_have_attribute("data-status", "cancelled")
    assert errors == []


def test_a_swiss_player_asks_for_a_bye_from_the_page_and_takes_it_back(new_page, site):
    _, organiser = api_player(site)
    tid = create_tournament(organiser, name="Winter Swiss", format="swiss", rounds=3)
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("s"), PASSWORD)
    page.goto(f"{site}/tournaments/{tid}/")
    page.locator(f'[data-api="tournaments/{tid}/join"]').click()
    page.get_by_role("button", name="Sit out round 2 (half a point)").click()
    expect(page.locator("#byes-planned")).to_contain_text("round 2")
    page.get_by_role("button", name="Play round 2 after all").click()
    expect(page.get_by_role("button", name="Sit out round 2 (half a point)")).to_be_visible()
    expect(page.locator("#byes-planned")).to_have_count(0)
    assert errors == []


def test_the_new_tournament_form_shows_the_fields_of_the_format_and_clock_chosen(new_page, site):
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("org"), PASSWORD)
    page.goto(f"{site}/tournaments/new/")
    field = {
        name: page.locator(f"#tournament-form [name={name}]")
        for name in ("days_per_move", "initial_minutes", "rounds", "cycles")
    }
    for format_, clock, shown in (
        ("swiss", "turn", {"days_per_move", "rounds"}),
        ("round_robin", "live", {"initial_minutes", "cycles"}),
    ):
        page.select_option("select[name=format]", format_)
        page.select_option("select[name=time_control]", clock)
        for name, locator in field.items():
            expect(locator).to_be_visible() if name in shown else expect(locator).to_be_hidden()
    assert errors == []


def drawn_event(players: int) -> str:
    """The TRF of a finished one-round Swiss of ``players`` (even) with long names: every game
    of the round drawn."""
    drawn = [
        trf.TrfPlayer(
            start_rank=rank,
            name=f"Player {rank} Featherstonehaugh",
            games=(trf.TrfGame(opponent=rank + 1, colour="w", result="="),)
            if rank % 2
            else (trf.TrfGame(opponent=rank - 1, colour="b", result="="),),
        )
        for rank in range(1, players + 1)
    ]
    return trf.dump(trf.TrfTournament(name="Drawn Swiss", rounds=1, players=tuple(drawn)))


def test_on_a_phone_each_result_of_a_round_is_on_one_line(new_page, site, shot):
    _, organiser = api_player(site)
    imported = organiser.post("tournaments/import-trf/", json={"trf": drawn_event(4)})
    assert imported.status_code == 201, imported.text
    page = new_page()
    errors = watch_errors(page)
    page.set_viewport_size(PHONE)
    page.goto(f"{site}/tournaments/{imported.json()['id']}/")
    results = page.locator("#rounds-table td.result")
    expect(results).to_have_text(["½–½", "½–½"])
    # The lines a result's text takes: the distinct tops of the boxes of its text.
    lines = results.evaluate_all(
        """cells => cells.map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        })"""
    )
    assert lines == [1, 1]
    # And in view: the players' names leave them room, the table need not be scrolled.
    rights = results.evaluate_all(
        "cells => cells.map((cell) => cell.getBoundingClientRect().right)"
    )
    assert max(rights) <= PHONE["width"], rights
    shot(page, "tournament-results-phone")
    assert errors == []
