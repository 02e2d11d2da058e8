"""A live rated set in the browser, one game at a time (as Pente.org plays it): game 2 does not
exist while game 1 is played; when game 1 is over both pages count down to it, and it starts
with the seats swapped, both players taken to it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import accepted_from_home, signup, unique_name, watch_errors
from tests.web.playing import PASSWORD, game_id, white_and_black

pytestmark = pytest.mark.usefixtures("browser")


def test_a_live_rated_set_starts_game_2_after_game_1_with_seats_swapped(new_page, site, shot):
    ann, bob = new_page(), new_page()
    errors = [watch_errors(page) for page in (ann, bob)]
    ann_name, bob_name = unique_name("ann"), unique_name("bob")
    signup(ann, site, ann_name, PASSWORD)
    signup(bob, site, bob_name, PASSWORD)

    # Ann challenges Bob to a rated set of Pente in real time.
    ann.goto(f"{site}/play/")
    ann.select_option("select[name=opponent]", "player")
    ann.fill("input[name=invitee]", bob_name)
    ann.check("input[name=rated]")
    ann.select_option("select[name=time_control]", "live")
    ann.click("#challenge-form button[type=submit]")
    expect(ann.locator("#outgoing li[data-challenge]")).to_have_count(1)
    accepted_from_home(site, ann, bob)
    first = game_id(ann)
    assert game_id(bob) == first
    white, black = white_and_black(ann, bob)
    first_white = white.locator("#me").inner_text()

    # While game 1 is played the set has no game 2, and the set box says where the set stands.
    the_set = ann.request.get(f"{site}/api/games/{first}/").json()["set"]
    p1, p2 = the_set["player1"]["username"], the_set["player2"]["username"]
    assert first_white == p1  # seat 1 of game 1 is the set's player 1
    for page in (ann, bob):
        expect(page.locator("#set-box")).to_contain_text(f"Game 1 of 2 · {p1} 0 - 0 {p2}")
    assert len(ann.request.get(f"{site}/api/sets/{the_set['id']}/").json()["games"]) == 1

    # Black resigns game 1: both pages count down to game 2, with a Ready button.
    black.once("dialog", lambda dialog: dialog.accept())
    black.click("#controls button:has-text('Resign')")
    score = f"{p1} 1 - 0 {p2}"
    for page in (ann, bob):
        expect(page.locator("#set-box")).to_contain_text(score)
        expect(page.locator("#set-countdown")).to_have_text(re.compile(r"Game 2 starts in \d+ s"))
    shot(ann, "live-set-countdown")
    ann.click("#set-ready")
    expect(ann.locator("#set-box")).to_contain_text(f"waiting for {bob_name}")

    # Bob is not ready: game 2 starts when the countdown is over, and both pages go to it.
    for page in (ann, bob):
        page.wait_for_url(re.compile(rf".*/games/(?!{first}/)\d+/$"), timeout=45_000)
    second = game_id(ann)
    assert second != first and game_id(bob) == second
    white, black = white_and_black(ann, bob)
    assert white.locator("#me").inner_text() == p2  # seats swapped
    for page in (ann, bob):
        expect(page.locator("#set-box")).to_contain_text(f"Game 2 of 2 · {score}")
    assert errors == [[], []]
