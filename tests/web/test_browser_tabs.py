"""Many tabs of one player: a browser keeps at most six connections to a server over HTTP/1.1,
and every open event stream holds one. The tabs share each stream (``follow`` in site.js: one
tab holds it and passes its events on), so any number of home pages leave room for loading a
page, every tab still gets every event, and when the tab holding a stream closes another takes
it over without missing one.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.web.conftest import signup, unique_name, watch_errors
from tests.web.playing import PASSWORD

pytestmark = pytest.mark.usefixtures("browser")


def say(page, text: str) -> None:
    page.fill("#room-form input[name=text]", text)
    page.click("#room-form button[type=submit]")


def test_five_home_tabs_share_their_streams_and_a_sixth_page_still_loads(new_page, site):
    first = new_page()
    errors = watch_errors(first)
    signup(first, site, unique_name("tabs"), PASSWORD)
    tabs = [first] + [first.context.new_page() for _ in range(4)]
    for tab in tabs[1:]:
        tab.goto(f"{site}/")
    # Two streams a home page: without sharing, ten would be asked for, and six are the most
    # a browser keeps open to one server; the next page would wait for one to close.
    started = time.monotonic()
    extra = first.context.new_page()
    extra.goto(f"{site}/leaderboards/", timeout=10_000)
    assert time.monotonic() - started < 10

    other = new_page()
    signup(other, site, unique_name("talker"), PASSWORD)
    say(other, "hello every tab")
    for tab in tabs:
        expect(tab.locator("#room-chat")).to_contain_text("hello every tab")

    # The tab that holds the streams goes: another takes them over, from the last event seen.
    first.close()
    say(other, "still here")
    for tab in tabs[1:]:
        expect(tab.locator("#room-chat")).to_contain_text("still here")
    assert errors == []
