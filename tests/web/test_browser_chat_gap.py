"""A chat line said after a page first read its chat but before its event stream began still
shows once the stream connects: the page reads the chat again when its stream opens (a line
said in that gap reaches no stream). So on a game's page, the home page (the main room) and a
hill's page (its room). The stream is held back by refusing its first requests.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.conftest import signup, unique_name
from tests.web.playing import PASSWORD, call, game_id, hold_streams, players_at_a_game

pytestmark = pytest.mark.usefixtures("browser")


def test_a_game_chat_line_said_before_the_stream_began_shows_once_it_connects(new_page, site):
    (ann, bob), _ = players_at_a_game(new_page, site)
    game = game_id(ann)
    carl = new_page()
    held = hold_streams(carl, "**/api/games/*/events*")
    carl.goto(f"{site}/games/{game}/")
    expect(carl.locator("#status")).not_to_have_text("")  # the page's script has run
    carl.wait_for_timeout(500)  # and read the chat, still empty

    status, _ = call(ann, "POST", f"games/{game}/chat", '{"text": "said in the gap"}')
    assert status == 201
    held[0] = False
    expect(carl.locator("#chat li")).to_contain_text(["said in the gap"], timeout=15_000)


@pytest.mark.parametrize("where", ["/", "/hills/pente-turn/"], ids=["main-room", "hill-room"])
def test_a_room_chat_line_said_before_the_stream_began_shows_once_it_connects(
    new_page, site, where
):
    ann = new_page()
    signup(ann, site, unique_name("gap"), PASSWORD)
    carl = new_page()
    held = hold_streams(carl, "**/api/rooms/*/events*")
    carl.goto(f"{site}{where}")
    room = carl.locator("#hill-steps").get_attribute("data-room") if "hills" in where else "main"
    carl.wait_for_timeout(500)  # the page's script has read the chat

    status, _ = call(ann, "POST", f"rooms/{room}/chat", '{"text": "said in the room gap"}')
    assert status == 201
    held[0] = False
    expect(carl.locator("#room-chat li")).to_contain_text(["said in the room gap"], timeout=15_000)
