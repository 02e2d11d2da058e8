"""King of the Hill in a real browser: two players join a turn-based hill from its page, talk
in the hill's room, one challenges the other from the staircase, the rated set ends, and the
staircase changes on both players' hill pages without a reload."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from tests.web.conftest import GAME_URL, signup, unique_name, watch_errors  # noqa: E402
from tests.web.playing import PASSWORD, post  # noqa: E402

HILL = "pente-turn"


def _hill_games(page) -> list[int]:
    """The games in progress of the hill's sets, read from the hills API by ``page``."""
    detail = page.evaluate("""async (slug) => (await fetch(`/api/hills/${slug}/`)).json()""", HILL)
    return sorted(
        {s["game"] for step in detail["steps"] for m in step["members"] for s in m["sets"]} - {None}
    )


def _member(page, name: str, step: int):
    return page.locator(f'#staircase li[data-step="{step}"] [data-member="{name}"]')


def test_two_players_climb_a_hill_and_both_staircases_change_without_reload(new_page, site, shot):
    ann, bob = new_page(), new_page()
    errors = [watch_errors(ann), watch_errors(bob)]
    names = [unique_name("kh"), unique_name("kh")]
    for page, name in zip((ann, bob), names, strict=True):
        signup(page, site, name, PASSWORD)
        page.goto(f"{site}/hills/{HILL}/")
        page.click("#hill-join")
        expect(page.locator("#hill-leave")).to_be_visible()
    ann_name, bob_name = names
    for page in (ann, bob):
        expect(_member(page, ann_name, 1)).to_be_visible()
        expect(_member(page, bob_name, 1)).to_be_visible()
        page.evaluate("window.notReloaded = true")

    # The hill has its room: what Ann says there, Bob reads on his hill page, once, even if
    # she says it before his page's stream follows the room (the page reads the room's latest
    # lines when its stream connects).
    ann.fill("#room-form input[name=text]", "Up the hill we go")
    ann.click("#room-form button[type=submit]")
    expect(bob.locator("#room-chat")).to_contain_text("Up the hill we go", timeout=15_000)
    expect(bob.locator("#room-chat li", has_text="Up the hill we go")).to_have_count(1)

    # Ann challenges Bob from the staircase; Bob accepts on his home page (another tab).
    ann.click(f'#staircase button.hill-challenge[data-opponent="{bob_name}"]')
    expect(ann.locator("#hill-message")).to_have_text(f"Challenge sent to {bob_name}.")
    bob_home = bob.context.new_page()
    bob_home.goto(f"{site}/")
    bob_home.locator("#incoming button[data-api$='/accept']").click()
    bob_home.wait_for_url(GAME_URL)
    # The set started: both staircases show it (a link to the game), still without reload.
    for page in (ann, bob):
        expect(_member(page, ann_name, 1).locator("a.hill-set")).to_have_count(1)

    # Bob resigns every game of the rated set: Ann goes up, alone on top, with a crown.
    resigned = []
    while games := _hill_games(bob_home):  # the set's games in progress, one after the other
        assert len(resigned) < 2 and games[0] not in resigned, (games, resigned)
        assert post(bob_home, f"games/{games[0]}/resign", {})["status"] == 200
        resigned.append(games[0])
    assert len(resigned) == 2  # a Pente set is two games
    for page in (ann, bob):
        expect(_member(page, ann_name, 2)).to_be_visible()
        expect(_member(page, ann_name, 2).locator(".crown")).to_have_count(1)
        expect(_member(page, bob_name, 1)).to_be_visible()
        expect(page.locator("#staircase li.hill-step")).to_have_count(2)
        assert page.evaluate("window.notReloaded") is True
    shot(ann, "hill")
    assert [e for said in errors for e in said] == []
