"""The game page's tools in a real browser: the computer's analysis of a game over (asked for,
followed while it runs, on this page or another one open on the game, then its marks in the move
list, its chart and the computer's choice on the board), hints against the computer, and Go's
count (territory and dead stones) on the board.
Each at a phone's width too, with no page wider than the screen.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.web.conftest import GAME_URL, signup, unique_name, watch_errors
from tests.web.playing import (
    PASSWORD,
    WALLS,
    against_the_computer,
    click,
    game_id,
    go_black_and_white,
    play_to_five,
    players_at_a_game,
    post,
    stone,
    white_and_black,
)

pytestmark = pytest.mark.usefixtures("browser")

PHONE = {"width": 390, "height": 844}


def fits_the_phone(page) -> None:
    """At a phone's width nothing makes the page scroll sideways."""
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"


def go_at_marking(new_page, site):
    """Two new players at a 9x9 game played to its marking (the walls, the invasion and three
    passes, through the API), both pages reloaded: (black, white) and their console errors."""
    pages, errors = players_at_a_game(new_page, site, variant="Go (9x9)", names=("go", "go"))
    black, white = go_black_and_white(*pages)
    game = game_id(black)
    for ply, point in enumerate([*WALLS, "PASS", "B5", "PASS", "PASS"]):
        mover = black if ply % 2 == 0 else white
        answer = post(mover, f"games/{game}/moves", {"ply": ply, "point": point})
        assert answer["status"] == 200, answer
    for page in (black, white):
        page.reload()
    expect(black.locator("#status")).to_have_text("Mark the dead stones, then propose")
    return black, white, errors


def test_go_territory_and_dead_stones_show_while_marking_and_once_counted(new_page, site, shot):
    black, white, errors = go_at_marking(new_page, site)
    # As the board stands, B5 spoils black's area: only white's side is territory.
    expect(black.locator("#board rect.territory.black")).to_have_count(0)
    expect(black.locator("#board rect.territory.white")).to_have_count(27)
    # Black marks B5 (crossed at once) and proposes it: both boards show the count so.
    black.click('#board rect.pt[data-point="B5"]')
    expect(black.locator('#board .dead-mark[data-point="B5"]')).to_have_count(1)
    black.click("#controls [data-action=propose]")
    for page in (black, white):
        expect(page.locator("#board rect.territory.black")).to_have_count(27)
        expect(page.locator("#board rect.territory.white")).to_have_count(27)
        expect(page.locator('#board .dead-mark[data-point="B5"]')).to_have_count(1)
        expect(stone(page, "B5")).to_have_attribute("opacity", "0.4")
        expect(page.locator("#count-note")).to_contain_text(
            "The count with the stones marked dead: black 36, white 43.5"
        )
    white.click("#controls [data-action=accept]")
    # Counted: B5 has left the board and is shown faded and crossed where it stood.
    for page in (black, white):
        expect(page.locator("#status")).to_have_text(re.compile(r"won by the count"))
        expect(stone(page, "B5")).to_have_count(0)
        expect(page.locator('#board circle.dead-stone[data-point="B5"]')).to_have_count(1)
        expect(page.locator('#board .dead-mark[data-point="B5"]')).to_have_count(1)
        expect(page.locator("#board rect.territory.black")).to_have_count(27)
        expect(page.locator("#board rect.territory.white")).to_have_count(27)
        expect(page.locator("#count-note")).to_contain_text("Small squares are each side's")
    # An earlier position is drawn without the count's note.
    black.keyboard.press("ArrowLeft")
    expect(black.locator("#count-note")).to_be_hidden()
    black.keyboard.press("End")
    expect(black.locator("#count-note")).to_be_visible()
    fits_the_phone(black)
    shot(black, "go-count-phone")
    assert errors == [[], []]


def cross(page, point: str, times: int = 1) -> None:
    """Click the stone on ``point`` ``times`` times in a row, at once (the board is drawn again
    after each click: each finds its point anew)."""
    page.evaluate(
        """([point, times]) => {
            for (let i = 0; i < times; i++) {
                document.querySelector(`#board rect.pt[data-point="${point}"]`)
                    .dispatchEvent(new MouseEvent("click", { bubbles: true }));
            }
        }""",
        [point, times],
    )


def test_go_s_count_follows_the_stones_crossed_before_they_are_proposed(new_page, site):
    black, white, errors = go_at_marking(new_page, site)
    asked = []
    black.on("request", lambda r: asked.append(r.url) if "/count" in r.url else None)
    note = black.locator("#count-note")
    expect(note).to_contain_text("The count as the board stands: black 9, white 44.5")
    # B5 crossed, uncrossed and crossed again at once: one count asked for, and shown, before
    # anything is proposed (the opponent's page still counts the board as it stands).
    cross(black, "B5", times=3)
    expect(black.locator('#board .dead-mark[data-point="B5"]')).to_have_count(1)
    expect(black.locator("#board rect.territory.black")).to_have_count(27)
    expect(note).to_contain_text(
        "The count with the stones you crossed (not proposed yet): black 36, white 43.5"
    )
    assert len(asked) == 1 and asked[0].endswith("/count?dead=B5"), asked
    expect(black.locator("#controls [data-action=propose]")).to_be_visible()
    expect(white.locator("#board rect.territory.black")).to_have_count(0)
    # Uncrossed: the board's own count again, without asking; an empty point is no stone.
    cross(black, "B5")
    cross(black, "A1")
    expect(black.locator("#board rect.territory.black")).to_have_count(0)
    expect(black.locator('#board .dead-mark[data-point="A1"]')).to_have_count(0)
    expect(note).to_contain_text("The count as the board stands: black 9, white 44.5")
    time.sleep(0.6)
    assert len(asked) == 1
    assert errors == [[], []]


def refusal(page, url: str, status: int, detail: str, method: str = "GET") -> None:
    """The next ``method`` request to ``url`` is refused with ``detail`` (as the API says it)."""

    def handle(route):
        if route.request.method != method:
            route.fallback()
            return
        route.fulfill(
            status=status, content_type="application/json", body=json.dumps({"detail": detail})
        )

    page.route(url, handle, times=1)


def test_a_hint_against_the_computer_is_ringed_until_the_move(new_page, site, shot):
    page, errors = against_the_computer(new_page, site, name="hint")
    expect(page.locator("#status")).to_have_text("Your turn", timeout=30_000)
    ask = page.locator("#controls [data-action=hint]")
    # A refusal (the rate of hints, here) is said, and nothing is ringed.
    slow = "Request was throttled. Expected available in 12 seconds."
    refusal(page, "**/api/games/*/hint", 429, slow)
    ask.click()
    expect(page.locator("#notice")).to_have_text(slow)
    expect(page.locator("#board g.hint circle")).to_have_count(0)
    # From the keyboard: the hinted point is ringed and named.
    ask.focus()
    page.keyboard.press("Enter")
    ring = page.locator("#board g.hint circle")
    expect(ring).to_have_count(1)
    point = ring.get_attribute("data-point")
    expect(page.locator("#notice")).to_have_text(f"Hint: {point}")
    assert stone(page, point).count() == 0
    fits_the_phone(page)
    shot(page, "hint-phone")
    # Played: the ring and the words go with the move.
    click(page, point)
    expect(stone(page, point)).to_have_count(1)
    expect(ring).to_have_count(0)
    expect(page.locator("#notice")).to_be_empty()
    expect(page.locator("#status")).to_have_text("Your turn", timeout=30_000)
    expect(ask).to_be_visible()
    assert [e for e in errors if "429 (Too Many Requests)" not in e] == []


def test_no_hint_while_go_s_dead_stones_are_marked_against_the_computer(new_page, site):
    """Black by the new-game form's choice, the player passes at once; the computer (white,
    ahead by the komi) passes too: the marking is theirs, with no Hint beside it."""
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("mark"), PASSWORD)
    page.goto(f"{site}/play/")
    page.select_option("select[name=opponent]", "computer")
    page.select_option("select[name=level]", index=0)
    page.select_option("select[name=variant]", "Go (9x9)")
    page.select_option("select[name=seat_wanted]", "1")  # I move first: black
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(GAME_URL)
    hint = page.locator("#controls [data-action=hint]")
    expect(page.locator("#status")).to_have_text("Your turn")
    expect(hint).to_be_visible()
    page.click("#controls [data-action=pass]")
    expect(page.locator("#status")).to_have_text(
        "Mark the dead stones, then propose", timeout=30_000
    )
    expect(page.locator("#controls [data-action=propose]")).to_be_visible()
    expect(hint).to_have_count(0)
    assert errors == []


def test_a_finished_game_is_analysed_on_request_and_its_marks_shown(new_page, site, shot):
    (ann, bob), errors = players_at_a_game(new_page, site)
    anonymous = new_page()
    errors.append(watch_errors(anonymous))
    white, black = white_and_black(ann, bob)
    # No analysis while the game is played, and no hints against a person.
    expect(black.locator("#analysis")).to_be_hidden()
    expect(black.locator("[data-action=hint]")).to_have_count(0)
    play_to_five(white, black)
    expect(black.locator("#status")).to_have_text(re.compile("won by five in a row"))
    game = game_id(black)
    analysis_url = f"{site}/api/games/{game}/analysis"

    # Someone signed out sees where to sign in, not a button.
    anonymous.goto(f"{site}/games/{game}/")
    expect(anonymous.locator("#analysis")).to_be_visible()
    expect(anonymous.locator("#analysis a", has_text="Sign in")).to_have_attribute(
        "href", f"/login/?next=/games/{game}/"
    )
    expect(anonymous.locator("[data-action=analyse]")).to_have_count(0)

    # The game just ended on the players' pages: the panel came with it. A refusal is said.
    ask = black.locator("#analysis [data-action=analyse]")
    busy = "You have 2 analyses pending or running, the most at once: wait until one is done."
    refusal(black, "**/api/games/*/analysis", 409, busy, method="POST")
    ask.click()
    expect(black.locator("#analysis-notice")).to_have_text(busy)
    expect(ask).to_be_enabled()
    # Asked for from the keyboard: its progress shows at once, then the analysis.
    gets = []
    black.on(
        "request",
        lambda r: (
            gets.append(time.monotonic())
            if r.method == "GET" and r.url.startswith(analysis_url)
            else None
        ),
    )
    ask.focus()
    black.keyboard.press("Enter")
    expect(black.locator("#analysis progress")).to_be_visible()
    expect(black.locator("#analysis-notice")).to_be_empty()
    expect(black.locator("#analysis .winrate")).to_be_visible(timeout=60_000)
    expect(black.locator("#analysis progress")).to_have_count(0)
    done = time.monotonic()
    body = black.request.get(analysis_url).json()
    assert body["status"] == "done"

    # Every blunder is marked in the move list (the missed block of the three is one), and
    # each player's counts are in the table.
    blunders = [p for p in body["plies"] if p["judgement"] == "blunder"]
    assert blunders, body["plies"]
    expect(black.locator("#moves .judgement.blunder")).to_have_count(len(blunders))
    expect(black.locator("#analysis .judgement-dot.blunder")).to_have_count(len(blunders))
    rows = black.locator("#analysis table tbody tr")
    expect(rows).to_have_count(2)
    for summary in body["summary"]:
        expect(rows.nth(summary["seat"] - 1)).to_contain_text(summary["name"])
        expect(rows.nth(summary["seat"] - 1).locator("td").last).to_have_text(
            str(summary["blunders"])
        )

    # A blunder chosen in the list: the computer's choice is ringed on that position's picture,
    # and said under the board.
    blunder = blunders[0]
    black.locator(f'#moves li[data-ply="{blunder["ply"]}"] button').click()
    expect(black.locator("#ply-label")).to_have_text(f"{blunder['ply']} / 9")
    ring = black.locator(f'#board g.suggested circle[data-point="{blunder["best_move"]}"]')
    expect(ring).to_have_count(1)
    note = black.locator("#analysis-note")
    loser = black.locator("#me").inner_text()
    expect(note).to_contain_text(f"Move {blunder['ply']}, {blunder['move']} by {loser}: a blunder")
    expect(note).to_contain_text(f"The computer preferred {blunder['best_move']}")
    # The arrows step on, and the note follows the move shown.
    black.keyboard.press("End")
    expect(note).to_contain_text("Move 9, K14")
    # Followed on the game's stream while it ran: no more reading once done.
    time.sleep(4.5)
    assert [t for t in gets if t > done + 0.5] == []
    fits_the_phone(black)
    black.locator(f'#moves li[data-ply="{blunder["ply"]}"] button').click()
    expect(ring).to_have_count(1)
    shot(black, "analysis-phone")

    # Anyone sees it, and nobody signed out gets a button.
    anonymous.reload()
    expect(anonymous.locator("#analysis .winrate")).to_be_visible()
    expect(anonymous.locator("#moves .judgement.blunder")).to_have_count(len(blunders))
    expect(anonymous.locator("[data-action=analyse]")).to_have_count(0)
    shot(anonymous, "analysis")
    # No error but the made-up refusal.
    assert [e for said in errors for e in said if "409 (Conflict)" not in e] == []


#: Player 2 along column A, player 1 along column T, every other row: 20 stones, no five, no
#: capture; with the centre stone 21 plies, so that the analysis takes three batches.
EDGES = [p for row in range(1, 20, 2) for p in (f"A{row}", f"T{row}")]


def test_an_analysis_asked_for_elsewhere_shows_on_the_pages_open_on_the_game(new_page, site):
    (ann, bob), errors = players_at_a_game(new_page, site)
    white, black = white_and_black(ann, bob)
    game = game_id(black)
    for ply, point in enumerate(EDGES, start=1):
        answer = post(
            black if ply % 2 else white, f"games/{game}/moves", {"ply": ply, "point": point}
        )
        assert answer["status"] == 200, answer
    assert post(white, f"games/{game}/resign", {})["status"] == 200
    expect(white.locator("#status")).to_have_text(re.compile("won by resignation"))
    # White's page, open since the game began, and a page opened on the game over by somebody
    # signed out; its stream open, white's page counts it among the spectators.
    viewer = new_page()
    errors.append(watch_errors(viewer))
    viewer.goto(f"{site}/games/{game}/")
    expect(viewer.locator("#analysis a", has_text="Sign in")).to_be_visible()
    expect(white.locator("#spectators")).to_have_text("· 1 watching")
    reads = []
    for page in (white, viewer):
        page.on(
            "request",
            lambda r: reads.append(r.url) if r.method == "GET" and "/analysis" in r.url else None,
        )

    # Black asks for it through the API: both pages show its progress, then the analysis.
    asked = post(black, f"games/{game}/analysis", {})
    assert asked["status"] == 202, asked
    for page in (white, viewer):
        expect(page.locator("#analysis progress")).to_be_visible()
        expect(page.locator("#analysis-progress")).to_have_text(
            re.compile(r"Analysing: (10|20) of 21 moves done\.")
        )
    for page in (white, viewer):
        expect(page.locator("#analysis progress")).to_have_count(0, timeout=60_000)
        expect(page.locator("#analysis .winrate")).to_be_visible()
    body = viewer.request.get(f"{site}/api/games/{game}/analysis").json()
    assert body["status"] == "done" and len(body["plies"]) == 21
    judged = [p for p in body["plies"] if p["judgement"]]
    for page in (white, viewer):
        expect(page.locator("#moves .judgement")).to_have_count(len(judged))
        rows = page.locator("#analysis table tbody tr")
        for summary in body["summary"]:
            expect(rows.nth(summary["seat"] - 1).locator("td").last).to_have_text(
                str(summary["blunders"])
            )
    # The stream's events were enough: neither page read the analysis itself.
    assert reads == []
    expect(viewer.locator("[data-action=analyse]")).to_have_count(0)
    expect(white.locator("[data-action=analyse]")).to_have_count(0)
    assert errors == [[], [], []]
