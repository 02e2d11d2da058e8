"""Go's end on the game page, in a real browser: komi, the rules and the prisoners shown from
the first move; a click on a stone marks its whole group (the page's pure functions and the
board); the running count beside the board on a wide screen; a marking the computer rejects
shows the stones it disputes, on the board and in words, and says that play resumes.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import GAME_URL, signup, unique_name, watch_errors
from tests.web.playing import (
    PASSWORD,
    WALLS,
    click,
    game_id,
    go_black_and_white,
    players_at_a_game,
    post,
)

pytestmark = pytest.mark.usefixtures("browser")

#: Rows of a 9x9 board, top first: white's wall on column D; black's B7 and B3 on its left
#: (one empty region: one group); on its right a white F5 and a black F2.
ROWS = [
    "...2.....",
    "...2.....",
    ".1.2.....",
    "...2.....",
    "...2.2...",
    "...2.....",
    ".1.2.....",
    "...2.1...",
    "...2.....",
]


def module(page, expression: str):
    """Evaluate ``expression`` with the page's Go module as ``go``."""
    return page.evaluate(
        f"""async () => {{ const go = await import("/static/web/go.js"); return {expression}; }}"""
    )


def test_the_group_a_click_marks_crosses_empty_points_but_not_the_other_colour(new_page, site):
    page = new_page()
    page.goto(f"{site}/")
    rows = repr(ROWS).replace("'", '"')
    # B7 and B3 share white's side of the board: one group, from either stone.
    assert module(page, f'go.groupOf({rows}, "B7")') == ["B3", "B7"]
    assert module(page, f'go.groupOf({rows}, "B3")') == ["B3", "B7"]
    # White's wall and F5 share the right side's empty region: one group, from either; black's
    # F2 there is cut off from B3 and B7 by the wall.
    wall_and_f5 = sorted([f"D{row}" for row in range(1, 10)] + ["F5"])
    assert module(page, f'go.groupOf({rows}, "D1")') == wall_and_f5
    assert module(page, f'go.groupOf({rows}, "F5")') == wall_and_f5
    assert module(page, f'go.groupOf({rows}, "F2")') == ["F2"]
    assert module(page, f'go.groupOf({rows}, "A1")') == []  # an empty point
    # A click toggles the whole group: dead, then alive again from any of its stones.
    assert module(page, f'go.toggleGroup([], {rows}, "B7")') == ["B3", "B7"]
    assert module(page, f'go.toggleGroup(["B3", "B7", "F2"], {rows}, "B3")') == ["F2"]


def go_with_two_invaders(new_page, site):
    """Two new players at a 9x9 game: the walls, then white invades black's side twice (B5,
    B7, apart), and passes; black passed first and marks. (black, white), their errors."""
    pages, errors = players_at_a_game(new_page, site, variant="Go (9x9)", names=("ge", "ge"))
    black, white = go_black_and_white(*pages)
    # Komi, the rules and the prisoners are there from the first move.
    for page in (black, white):
        expect(page.locator("#go-komi")).to_have_text("Komi 7.5 (to white)")
        expect(page.locator("#go-rules")).to_contain_text("Area counting, positional superko")
        expect(page.locator("#go-prisoners")).to_have_text("Prisoners: black has taken 0, white 0")
    game = game_id(black)
    for ply, point in enumerate([*WALLS, "PASS", "B5", "PASS", "B7", "PASS", "PASS"]):
        mover = black if ply % 2 == 0 else white
        answer = post(mover, f"games/{game}/moves", {"ply": ply, "point": point})
        assert answer["status"] == 200, answer
    for page in (black, white):
        page.reload()
    expect(black.locator("#status")).to_have_text("Mark the dead stones, then propose")
    return black, white, errors


def test_one_click_marks_a_whole_group_and_the_count_is_beside_the_board(new_page, site, shot):
    black, white, errors = go_with_two_invaders(new_page, site)
    note = black.locator("#count-note")
    expect(note).to_contain_text("as the board stands")
    click(black, "B5")  # B7 shares its region: both crossed at once
    for point in ("B5", "B7"):
        expect(black.locator(f'#board .dead-mark[data-point="{point}"]')).to_have_count(1)
    expect(note).to_contain_text("black 36, white 43.5")
    # Beside the board on a wide screen: to its right, its top within the board's height.
    black.set_viewport_size({"width": 1280, "height": 900})
    board = black.locator("#board").bounding_box()
    beside = note.bounding_box()
    assert beside["x"] >= board["x"] + board["width"] - 1, (board, beside)
    assert beside["y"] < board["y"] + board["height"], (board, beside)
    shot(black, "go-group-marking")
    click(black, "B7")  # alive again, both
    expect(black.locator("#board .dead-mark")).to_have_count(0)
    click(black, "B7")
    black.click("#controls [data-action=propose]")
    white.click("#controls [data-action=accept]")
    for page in (black, white):
        expect(page.locator("#status")).to_have_text(re.compile("won by the count"))
        # the two dead stones are black's prisoners
        expect(page.locator("#go-prisoners")).to_have_text("Prisoners: black has taken 2, white 0")
    assert errors == [[], []]


def test_a_marking_the_computer_rejects_shows_the_stones_it_disputes(new_page, site, shot):
    """Black against the weakest computer: one stone each, black passes, the computer (ahead
    by the komi) passes too; black marks the computer's stone dead and the computer rejects,
    naming it: crossed on the board, said in the move list, and play resumes, black to move."""
    page = new_page()
    errors = watch_errors(page)
    signup(page, site, unique_name("dispute"), PASSWORD)
    page.goto(f"{site}/play/")
    page.select_option("select[name=opponent]", "computer")
    page.select_option("select[name=level]", index=0)
    page.select_option("select[name=variant]", "Go (9x9)")
    page.select_option("select[name=seat_wanted]", "1")
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(GAME_URL)
    expect(page.locator("#status")).to_have_text("Your turn")
    click(page, "E5")
    expect(page.locator("#status")).to_have_text("Your turn", timeout=30_000)
    white = page.locator('#board circle.stone[data-colour="2"]')
    expect(white).to_have_count(1)
    theirs = white.get_attribute("data-point")
    page.click("#controls [data-action=pass]")
    expect(page.locator("#status")).to_have_text(
        "Mark the dead stones, then propose", timeout=30_000
    )
    click(page, theirs)
    page.click("#controls [data-action=propose]")
    expect(page.locator("#status")).to_have_text(
        "Marking rejected: play resumes, black to move", timeout=30_000
    )
    expect(page.locator("#moves li").last).to_have_text(
        f"Marking rejected: the computer disputes {theirs}"
    )
    expect(page.locator(f'#board .disputed-mark[data-point="{theirs}"]')).to_have_count(1)
    shot(page, "go-disputed")
    # Play resumes: black plays on, and the dispute stays shown until the next marking.
    click(page, "A1")
    expect(page.locator("#status")).to_have_text(re.compile("Your turn|to move"), timeout=30_000)
    assert errors == []


def test_a_player_rejecting_names_the_stones_they_click(new_page, site):
    """Black proposes both invaders dead (one click); white clicks B7, squaring its group, and
    rejects: both pages say white disputes B5 and B7, and play resumes, black to move."""
    black, white, errors = go_with_two_invaders(new_page, site)
    click(black, "B5")
    black.click("#controls [data-action=propose]")
    expect(white.locator("#status")).to_have_text("Accept or reject the dead stones marked")
    expect(white.locator("#decision-help")).to_contain_text("your rejection names them")
    click(white, "B7")
    for point in ("B5", "B7"):
        expect(white.locator(f'#board .disputed-mark[data-point="{point}"]')).to_have_count(1)
    white.click("#controls [data-action=reject]")
    name = white.locator('#players [data-seat="2"] .name').inner_text()
    for page in (black, white):
        expect(page.locator("#status")).to_have_text(
            "Marking rejected: play resumes, black to move"
        )
        expect(page.locator("#moves li").last).to_have_text(
            f"Marking rejected: {name} disputes B7, B5"  # in the order of the board, top first
        )
        expect(page.locator("#board .disputed-mark")).to_have_count(2)
    assert errors == [[], []]
