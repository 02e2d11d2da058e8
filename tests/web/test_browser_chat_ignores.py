"""A chat line's "⋯" in a real browser: report the line to the moderators, or ignore its
author, whose lines leave the chat at once and whose challenges are refused from then on; the
author's page says so and undoes it.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.conftest import signup, unique_name, watch_errors
from tests.web.playing import PASSWORD, call

pytestmark = pytest.mark.usefixtures("browser")


def test_a_chat_line_is_reported_and_its_author_ignored_from_the_home_page(new_page, site, shot):
    alice, troll = new_page(), new_page()
    errors = watch_errors(alice)
    alice_name, troll_name = unique_name("alice"), unique_name("troll")
    signup(alice, site, alice_name, PASSWORD)
    signup(troll, site, troll_name, PASSWORD)
    troll.fill("#room-form input[name=text]", "buy my stuff")
    troll.click("#room-form button[type=submit]")
    expect(troll.locator(f'#room-chat li[data-author="{troll_name}"]')).to_have_count(1)
    # The author sees no "⋯" on their own line (the lines of other tests' players have one).
    own = troll.locator(f'#room-chat li[data-author="{troll_name}"]')
    expect(own.locator(".line-actions")).to_have_count(0)

    alice.reload()
    line = alice.locator(f'#room-chat li[data-author="{troll_name}"]').last
    expect(line).to_contain_text("buy my stuff")
    line.locator("summary").click()
    alice.once("dialog", lambda dialog: dialog.accept("spam"))
    line.locator("button[data-report]").click()
    expect(alice.locator("#room-notice")).to_have_text("Reported to the moderators: thank you.")
    shot(alice, "home-chat-line-actions")

    alice.once("dialog", lambda dialog: dialog.accept())
    line.locator("button[data-ignore]").click()
    expect(alice.locator("#room-notice")).to_have_text(
        f"You ignore {troll_name} now: their page undoes it."
    )
    expect(alice.locator(f'#room-chat li[data-author="{troll_name}"]')).to_have_count(0)

    # Their next line, said at once, stays out too.
    troll.fill("#room-form input[name=text]", "are you still there")
    troll.click("#room-form button[type=submit]")
    expect(troll.locator("#room-chat")).to_contain_text("are you still there")
    alice.wait_for_timeout(1500)
    expect(alice.locator("#room-chat")).not_to_contain_text("are you still there")

    status, refused = call(
        troll, "POST", "challenges/", f'{{"variant": "Pente", "invitee": "{alice_name}"}}'
    )
    assert (status, refused["code"]) == (403, "not_accepting")

    alice.goto(f"{site}/players/{troll_name}/")
    expect(alice.locator("#ignored-note")).to_be_visible()
    alice.click("#unignore")
    expect(alice.locator("#ignore")).to_be_visible()
    status, _ = call(
        troll, "POST", "challenges/", f'{{"variant": "Pente", "invitee": "{alice_name}"}}'
    )
    assert status == 201
    assert errors == []
