"""The site in a real browser: signing up and out, the home page without script errors, and
the API docs rendered by Swagger UI from this server alone (they work offline).

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import pytest

from tests.web.conftest import signup, unique_name, watch_errors
from tests.web.playing import imported_game

# Ask for the browser first: without one the tests skip before a server is started.
pytestmark = pytest.mark.usefixtures("browser")

PASSWORD = "correct-horse-battery-1"


def expect(target):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def test_signing_up_shows_my_name_in_the_header(new_page, site, shot):
    page = new_page()
    name = unique_name("sign")
    signup(page, site, name, PASSWORD)
    me = page.locator("#me")
    expect(me).to_have_text(name)
    assert me.get_attribute("href").rstrip("/").endswith(f"/players/{name}")
    expect(page.locator("header").get_by_role("button", name="Sign out")).to_be_visible()
    shot(page, "home-signed-in")


def test_signing_out_from_the_header(new_page, site):
    page = new_page()
    signup(page, site, unique_name("out"), PASSWORD)
    expect(page.locator("#me")).to_be_visible()
    with page.expect_navigation():
        page.locator("header").get_by_role("button", name="Sign out").click()
    expect(page.locator("#me")).to_have_count(0)
    header = page.locator("header")
    expect(header.get_by_role("link", name="Sign in")).to_be_visible()
    expect(header.get_by_role("link", name="Sign up")).to_be_visible()
    # The session is gone on the server too, not just on this page.
    page.goto(f"{site}/")
    expect(page.locator("#me")).to_have_count(0)


def test_the_header_keeps_its_height_when_one_signs_in(new_page, site):
    """The page below does not jump when the header's buttons change."""
    page = new_page()
    page.goto(f"{site}/")
    signed_out = page.locator("header").bounding_box()["height"]
    signup(page, site, unique_name("hdr"), PASSWORD)
    expect(page.locator("#me")).to_be_visible()
    assert page.locator("header").bounding_box()["height"] == signed_out


def test_a_session_is_one_context_s_alone(new_page, site):
    """Two users side by side: each browser context keeps its own session."""
    first, second = new_page(), new_page()
    name = unique_name("ctx")
    signup(first, site, name, PASSWORD)
    second.goto(f"{site}/")
    expect(second.locator("#me")).to_have_count(0)
    first.reload()
    expect(first.locator("#me")).to_have_text(name)


def test_the_api_docs_render_swagger_ui_with_nothing_from_elsewhere(new_page, site, shot):
    page = new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{site}/api/docs/")
    # Swagger UI has fetched the schema and drawn the endpoints.
    expect(page.locator(".swagger-ui .info .title")).to_be_visible()
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    assert page.locator(".swagger-ui .opblock").count() > 20
    shot(page, "api-docs")
    assert any(url.startswith(f"{site}/api/schema/") for url in requested), requested
    # Inline data (data:, blob:) never leaves the page; everything else comes from this server.
    elsewhere = [
        url
        for url in requested
        if not url.startswith(f"{site}/") and not url.startswith(("data:", "blob:"))
    ]
    assert not elsewhere, f"the docs page loaded from elsewhere: {elsewhere}"


def test_the_home_page_has_no_script_errors(new_page, site, shot):
    page = new_page()
    errors = watch_errors(page)
    loaded: dict[str, int] = {}
    page.on("response", lambda response: loaded.__setitem__(response.url, response.status))
    response = page.goto(f"{site}/")
    assert response.status == 200
    page.wait_for_load_state("load")
    page.wait_for_timeout(1000)  # the page's scripts fetch and draw after the load
    shot(page, "home")
    assert loaded.get(f"{site}/static/web/site.css") == 200, loaded
    assert loaded.get(f"{site}/static/web/site.js") == 200, loaded
    assert not errors, "\n".join(errors)


def test_the_home_page_signed_in_has_no_script_errors(new_page, site):
    page = new_page()
    signup(page, site, unique_name("homein"), PASSWORD)
    errors = watch_errors(page)
    page.reload()
    page.wait_for_timeout(1000)
    assert not errors, "\n".join(errors)


def test_the_settings_forms_are_compact_with_checkboxes_beside_their_words(new_page, site):
    """Forms side by side in a row stay as tall as their own fields (the row's tallest form
    does not stretch the others' fields and buttons), and a weekend day's box sits beside its
    name."""
    page = new_page()
    signup(page, site, unique_name("set"), PASSWORD)
    page.goto(f"{site}/settings/")
    for field in page.locator("input[type=password], button[type=submit]").all():
        assert field.bounding_box()["height"] < 48, field.evaluate("e => e.outerHTML")
    box = page.locator("fieldset input[type=checkbox]").first
    label = page.locator("fieldset label:has(input[type=checkbox])").first
    centre = [b["y"] + b["height"] / 2 for b in (box.bounding_box(), label.bounding_box())]
    assert abs(centre[0] - centre[1]) < 6
    expect(page.locator("input[name=name]")).to_have_attribute("placeholder", "Token name")


def test_on_a_phone_no_page_is_wider_than_the_screen(new_page, site):
    """Wide tables (a player's API tokens, the game database's results) scroll inside their
    panel; the page itself never scrolls sideways."""
    page = new_page()
    name = unique_name("phone")
    signup(page, site, name, PASSWORD)
    page.goto(f"{site}/settings/")
    for token in ("a laptop", "a phone"):
        page.fill("input[name=name]", token)
        with page.expect_navigation():
            page.click("form:has(input[name=name]) button[type=submit]")
    # A long name without a space that won a game: on the database's first page, however the
    # tests before this one left it.
    imported_game(page, "W" * 150, "L" * 150, result="1-0")
    page.set_viewport_size({"width": 360, "height": 740})
    paths = ("/", "/settings/", "/database/", "/database/explorer/", "/leaderboards/")
    others = ("/tournaments/", "/tournaments/new/", "/play/", f"/players/{name}/", "/no-such-page/")
    for path in (*paths, *others):
        page.goto(f"{site}{path}")
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{path} is {wide} px wider than the screen"
    # The rankings and the game database drop the columns a phone can do without: their
    # tables fit the screen rather than scroll.
    for path, table in (("/leaderboards/", "#leaderboard"), ("/database/", "#games")):
        page.goto(f"{site}{path}")
        right = page.evaluate(f"document.querySelector('{table}').getBoundingClientRect().right")
        assert right <= 360, f"{path}: its table reaches {right} px"
