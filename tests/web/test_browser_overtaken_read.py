"""The game page in a real browser when a read of the game's state is overtaken: a read sent
before a move (the one the page makes when its stream connects) and answered after the move's
own answer must not put the board back as it was, and the move's event, come while that read was
on its way, must still bring a fresh read.

The page's reads are held back by a wrapper around ``fetch`` put in before its scripts run: the
request goes to the server at once (its answer is the state before the move), the answer reaches
the page only when the test lets it go.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.playing import click, players_at_a_game, stone, white_and_black

pytestmark = pytest.mark.usefixtures("browser")

#: Holds the answers to GET /api/games/<id>/ until ``window.letReadsGo()``; afterwards reads
#: pass straight through. ``window.heldReads()`` counts those held.
HOLD_READS = r"""
(() => {
  const realFetch = window.fetch.bind(window);
  const held = [];
  let holding = true;
  window.heldReads = () => held.length;
  window.letReadsGo = () => {
    holding = false;
    held.splice(0).forEach((release) => release());
  };
  window.fetch = (input, init = {}) => {
    const url = String(input);
    const method = (init.method || "GET").toUpperCase();
    if (!holding || method !== "GET" || !/\/api\/games\/[^/]+\/$/.test(url)) {
      return realFetch(input, init);
    }
    const answer = realFetch(input, init);
    return new Promise((resolve) => held.push(() => resolve(answer)));
  };
})();
"""


def holding_reads(page) -> None:
    """``page`` loaded again with its reads held: the one it makes when its stream connects is
    on its way, its answer held."""
    page.add_init_script(HOLD_READS)
    page.reload()
    page.wait_for_function("window.heldReads() > 0")


def test_a_read_overtaken_by_a_move_s_answer_leaves_the_move_on_the_board(new_page, site):
    pages, errors = players_at_a_game(new_page, site)
    waiting, mover = white_and_black(*pages)
    holding_reads(mover)
    click(mover, "A1")
    expect(stone(mover, "A1")).to_have_count(1)
    # The other page has the move's event: so has this one, while its read was held.
    expect(stone(waiting, "A1")).to_have_count(1)
    expect(waiting.locator("#status")).to_have_text("Your turn")
    mover.wait_for_timeout(300)
    mover.evaluate("window.letReadsGo()")
    mover.wait_for_timeout(500)
    expect(stone(mover, "A1")).to_have_count(1)
    expect(mover.locator("#status")).not_to_have_text("Your turn")
    # The page still follows the game: the other side's answer shows.
    click(waiting, "K13")
    expect(stone(mover, "K13")).to_have_count(1)
    expect(mover.locator("#status")).to_have_text("Your turn")
    assert errors == [[], []]


def test_a_move_s_event_come_while_a_read_is_on_its_way_brings_a_fresh_read(new_page, site):
    pages, errors = players_at_a_game(new_page, site)
    waiting, mover = white_and_black(*pages)
    holding_reads(waiting)
    # The other side moves; its event reaches this page while the read (sent before) is held.
    click(mover, "A1")
    expect(stone(mover, "A1")).to_have_count(1)
    waiting.wait_for_timeout(800)
    waiting.evaluate("window.letReadsGo()")
    expect(stone(waiting, "A1")).to_have_count(1)
    expect(waiting.locator("#status")).to_have_text("Your turn")
    assert errors == [[], []]
