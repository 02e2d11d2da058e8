"""The game page's clocks show the server's time left (``clock.remaining_ms`` less the time
since ``clock.as_of``), read on the server's clock: after a reload in the middle of a turn, for
a player and for a spectator, whose browsers' clocks are wrong by hours (Playwright's clock)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from datetime import datetime, timedelta

from playwright.sync_api import expect

from tests.web import conftest as web
from tests.web.playing import PASSWORD, click, game_id, stone, white_and_black

re_to_move = re.compile("to move")
#: How far the shown time may be from the server's.
TOLERANCE_MS = 500


def live_game(new_page, site):
    """Two new players at a live game of Pente (5 minutes): their pages and console errors."""
    pages = [new_page(), new_page()]
    errors = [web.watch_errors(page) for page in pages]
    names = [web.unique_name(prefix) for prefix in ("clk", "tik")]
    for page, name in zip(pages, names, strict=True):
        web.signup(page, site, name, PASSWORD)
    ann = pages[0]
    ann.goto(f"{site}/play/")
    ann.select_option("select[name=opponent]", "player")
    ann.fill("input[name=invitee]", names[1])
    ann.select_option("select[name=variant]", "Pente")
    ann.select_option("select[name=time_control]", "live")
    ann.fill("input[name=initial_minutes]", "5")
    ann.click("#challenge-form button[type=submit]")
    expect(ann.locator("#outgoing li[data-challenge]")).to_have_count(1)
    web.accepted_from_home(site, *pages)
    return pages, errors


def server_left(site, game, seat, at: float | None = None) -> float:
    """The server's time left for ``seat`` at ``at`` (time.time(); None: the seat's clock
    stands), from the state's answer."""
    with urllib.request.urlopen(f"{site}/api/games/{game}/") as answer:
        clock = json.load(answer)["clock"]
    as_of = datetime.fromisoformat(clock["as_of"]).timestamp()
    return clock["remaining_ms"][seat - 1] - (0 if at is None else (at - as_of) * 1000)


def shown_left(page, seat) -> tuple[float, float]:
    """The time left ``page`` shows for ``seat`` at its clock's next tick (ms), and when."""
    shown = page.evaluate(
        """seat => new Promise((done, fail) => {
          // The players' panel may be drawn again meanwhile (a spectator joins, an event): the
          // clock is looked for again at each change instead of watching one node.
          const find = () => document.querySelector(`[data-clock="${seat}"]`);
          const before = find().dataset.ms;
          new MutationObserver((_, watcher) => {
            const node = find();
            if (!node || node.dataset.ms === before) return;
            watcher.disconnect();
            done(Number(node.dataset.ms));
          }).observe(document.body, { subtree: true, childList: true, attributes: true,
                                      attributeFilter: ["data-ms"] });
          setTimeout(() => fail(new Error("the clock did not tick")), 5000);
        })""",
        seat,
    )
    return shown, time.time()


def reading_error(page, site, game, seat) -> str | None:
    """What is wrong with one reading of ``seat``'s clock on ``page`` (None: nothing)."""
    shown, at = shown_left(page, seat)
    truth = server_left(site, game, seat, at)
    if abs(shown - truth) >= TOLERANCE_MS:
        return f"shows {shown} ms where the server has {truth:.0f}"
    # It ticks: a second later, a second less (measured against the time that really passed
    # between the two readings, which a loaded machine stretches).
    page.wait_for_timeout(1000)
    later, later_at = shown_left(page, seat)
    passed_ms = (later_at - at) * 1000
    if shown - later <= 500 or abs((shown - later) - passed_ms) >= TOLERANCE_MS:
        return f"went from {shown} to {later} ms in {passed_ms:.0f} ms"
    return None


def assert_shows_the_servers_time(page, site, game, seat, *, tries: int = 3) -> None:
    """The page's clock agrees with the server's in one of ``tries`` readings. A reading is
    taken in the test, after the page's tick has come back through the browser's driver: on a
    loaded machine that return alone can take most of a second, once. A page that is wrong
    (by the time since the clock's reading, by its browser's hours) is wrong every time."""
    errors = []
    for _ in range(tries):
        error = reading_error(page, site, game, seat)
        if error is None:
            return
        errors.append(error)
    raise AssertionError("; ".join(errors))


def test_the_clock_shown_after_a_reload_mid_turn_is_the_servers_for_a_player_and_a_spectator(
    new_page, site
):
    (ann, bob), errors = live_game(new_page, site)
    white, black = white_and_black(ann, bob)
    click(black, "A1")
    expect(stone(white, "A1")).to_have_count(1)
    click(white, "K12")
    expect(stone(black, "K12")).to_have_count(1)
    game = game_id(black)
    # Captures said in stones (and pairs in Pente); no hover mark over a placed stone.
    expect(black.locator('#players [data-seat="1"]')).to_contain_text("0 stones captured")
    expect(black.locator('#board rect.pt.taken[data-point="K10"]')).to_have_count(1)
    expect(black.locator('#board rect.pt.taken[data-point="K11"]')).to_have_count(0)
    # Black's turn: the tab's title says so and its icon has a dot; white's tab does not.
    expect(black).to_have_title(re.compile(r"^\(1\) Your turn · "))
    expect(black.locator('link[rel~="icon"]')).to_have_attribute(
        "href", re.compile("^data:image/png")
    )
    expect(white).not_to_have_title(re.compile("Your turn"))
    expect(white.locator('link[rel~="icon"]')).to_have_attribute("href", "/static/web/favicon.svg")
    black.wait_for_timeout(2500)  # into black's turn (seat 2)
    # The player's browser thinks it is an hour and seven minutes earlier.
    black.clock.install(time=datetime.now() - timedelta(hours=1, minutes=7))
    black.reload()
    expect(black.locator("#status")).to_have_text("Your turn")
    expect(black.locator('[data-clock="2"]')).not_to_have_text("5:00")
    assert_shows_the_servers_time(black, site, game, 2)
    # A spectator (signed out), whose browser is three hours ahead.
    watcher = new_page()
    watcher_errors = web.watch_errors(watcher)
    watcher.clock.install(time=datetime.now() + timedelta(hours=3))
    watcher.goto(f"{site}/games/{game}/")
    expect(watcher.locator("#status")).to_have_text(re_to_move)
    assert_shows_the_servers_time(watcher, site, game, 2)
    # Only the seat to move runs: white's clock stands still, as the server's does.
    standing = float(watcher.locator('[data-clock="1"]').get_attribute("data-ms"))
    assert abs(standing - server_left(site, game, 1)) < TOLERANCE_MS
    assert errors == [[], []] and watcher_errors == []
