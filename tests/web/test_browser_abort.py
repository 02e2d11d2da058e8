"""A rated live game in which player 2 never places a stone is aborted when its start window
closes: both pages say so and who was absent, the set is over with no result, nobody's rating
moves, and the absent player's page counts the abort. Its own server, whose start window is a
few seconds (the other browser tests keep the default minute)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.servers import start_embedded, stop_server
from tests.web import conftest as web
from tests.web.playing import PASSWORD, game_id

WINDOW_SECONDS = 4


@pytest.fixture(scope="module")
def quick_site(browser, tmp_path_factory):
    proc, base = start_embedded(
        tmp_path_factory.mktemp("abort-var"),
        **web.SERVER_SETTINGS,
        START_WINDOW_SECONDS=str(WINDOW_SECONDS),
    )
    yield base
    stop_server(proc)


def test_a_rated_live_game_player_two_never_starts_is_aborted_and_rates_nobody(
    new_page, quick_site
):
    site = quick_site
    ann, bob = new_page(), new_page()
    names = [web.unique_name("abo"), web.unique_name("rta")]
    for page, name in zip((ann, bob), names, strict=True):
        web.signup(page, site, name, PASSWORD)
    ann.goto(f"{site}/play/")
    ann.select_option("select[name=opponent]", "player")
    ann.fill("input[name=invitee]", names[1])
    ann.select_option("select[name=variant]", "Pente")
    ann.check("input[name=rated]")
    ann.select_option("select[name=time_control]", "live")
    ann.fill("input[name=initial_minutes]", "5")
    ann.click("#challenge-form button[type=submit]")
    expect(ann.locator("#outgoing li[data-challenge]")).to_have_count(1)
    web.accepted_from_home(site, ann, bob)
    game = game_id(ann)
    # Whoever is player 2 waits with the clocks standing, then the window closes on them.
    status = re.compile(r"^Aborted: (\S+) placed no first stone in time \(no result, not rated\)$")
    for page in (ann, bob):
        expect(page.locator("#status")).to_have_text(status, timeout=(WINDOW_SECONDS + 20) * 1000)
    absent = status.match(ann.locator("#status").inner_text()).group(1)
    assert absent in names
    present = names[1 - names.index(absent)]
    # The set is over with no result; neither player has a rating.
    state = ann.request.get(f"{site}/api/games/{game}/").json()
    assert state["status"] == "cancelled" and state["end_reason"] == "aborted"
    the_set = ann.request.get(f"{site}/api/sets/{state['set']['id']}/").json()
    assert the_set["status"] == "cancelled" and the_set["result"] is None
    for name in names:
        player = ann.request.get(f"{site}/api/players/{name}/").json()
        assert player["ratings"] == [], player["ratings"]
    # The absent player's page counts the abort; the other's does not.
    ann.goto(f"{site}/players/{absent}/")
    expect(ann.locator("#aborts")).to_have_text("1")
    ann.goto(f"{site}/players/{present}/")
    expect(ann.locator("#aborts")).to_have_text("0")
