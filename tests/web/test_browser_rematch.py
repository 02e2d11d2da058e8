"""A rematch in the browser: after a game, one player asks from the game's page, the other
sees it there and accepts, and both pages go to the new game, seats swapped."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from tests.web.conftest import GAME_URL  # noqa: E402
from tests.web.playing import (  # noqa: E402
    game_id,
    hold_streams,
    players_at_a_game,
    post,
    white_and_black,
)


def seat_names(page, game: int) -> list[str]:
    state = page.evaluate("async (id) => (await fetch(`/api/games/${id}/`)).json()", game)
    return [p["name"] for p in state["players"]]


def test_a_rematch_from_a_finished_game_starts_a_game_with_the_seats_swapped(new_page, site):
    (ann, bob), errors = players_at_a_game(new_page, site)
    white, black = white_and_black(ann, bob)
    game = game_id(white)
    before = seat_names(white, game)
    expect(white.locator("#rematch")).to_be_hidden()
    assert post(black, f"games/{game}/resign", {})["status"] == 200
    # The end reaches each page by its event stream: slow on a loaded machine.
    expect(white.locator("#rematch-button")).to_be_visible(timeout=20_000)
    white.click("#rematch-button")
    expect(white.locator("#rematch")).to_contain_text("waiting for")
    expect(black.locator("#rematch")).to_contain_text("asks for a rematch", timeout=20_000)
    black.get_by_role("button", name="Accept rematch").click()
    for page in (white, black):
        page.wait_for_url(lambda url: GAME_URL.match(url) and f"/games/{game}/" not in url)
    new = game_id(black)
    assert game_id(white) == new != game
    assert seat_names(black, new) == list(reversed(before))
    expect(black.locator("#status")).to_have_text(re.compile("Your turn|to move"))
    assert [e for said in errors for e in said] == []


def test_a_game_that_ended_before_its_stream_began_still_offers_the_rematch(new_page, site):
    # The end reaches no stream that is not yet open: the page reads the game again when its
    # stream connects. The stream is held back by refusing its first requests.
    (ann, bob), _ = players_at_a_game(new_page, site)
    white, black = white_and_black(ann, bob)
    game = game_id(white)
    held = hold_streams(white, "**/api/games/*/events*")
    white.reload()
    expect(white.locator("#rematch")).to_be_hidden()
    assert post(black, f"games/{game}/resign", {})["status"] == 200
    white.wait_for_timeout(500)
    held[0] = False
    expect(white.locator("#rematch-button")).to_be_visible(timeout=20_000)
