"""What the browser tests do on a game's board (they import Playwright, as this module does;
``conftest`` does not, so that the page tests run without it): ``stone(page, point)``,
``click(page, point)``, ``game_id(page)``, ``against_the_computer(new_page, site)`` (a new
player's game against computer1), ``players_at_a_game(new_page, site)`` (two new players in a
game, from a challenge), ``white_and_black(a, b)`` and ``go_black_and_white(a,
b)`` (a game's two pages, the first mover's last or first as each game has it), and
``play_to_five(white, black)``."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web import conftest as web

PASSWORD = "correct-horse-battery-1"


def click(page, point: str) -> None:
    page.click(f'#board rect.pt[data-point="{point}"]')


def stone(page, point: str):
    return page.locator(f'#board circle.stone[data-point="{point}"]')


def game_id(page) -> int:
    return int(web.GAME_URL.match(page.url).group(1))


def against_the_computer(new_page, site, *, variant: str = "Pente", name: str = "solo"):
    """A new player (a username starting with ``name``) at a new game of ``variant`` against
    the weakest computer: the page, and its console errors."""
    page = new_page()
    errors = web.watch_errors(page)
    web.signup(page, site, web.unique_name(name), PASSWORD)
    web.challenge(page, site, variant=variant)
    page.wait_for_url(web.GAME_URL)
    return page, errors


def players_at_a_game(new_page, site, *, variant: str = "Pente", names=("ann", "bob")):
    """Two new players (usernames starting with ``names``) at a game of ``variant``: the first
    challenges the second from the play page, the second accepts on their home page. Their
    pages, and the console errors of each."""
    pages = [new_page(), new_page()]
    errors = [web.watch_errors(page) for page in pages]
    usernames = [web.unique_name(prefix) for prefix in names]
    for page, username in zip(pages, usernames, strict=True):
        web.signup(page, site, username, PASSWORD)
    web.challenge(pages[0], site, variant=variant, opponent="player", invitee=usernames[1])
    expect(pages[0].locator("#outgoing li[data-challenge]")).to_have_count(1)
    web.accepted_from_home(site, *pages)
    return pages, errors


def white_and_black(a, b):
    """The two players' pages of the game both show, as (player 1, player 2): player 2 moves
    first (player 1's first stone is the centre)."""
    for page in (a, b):
        expect(page.locator("#status")).to_have_text(re.compile("Your turn|to move"))
    return (b, a) if "Your turn" in a.locator("#status").inner_text() else (a, b)


def go_black_and_white(a, b):
    """The two players' pages of a game of Go as (black, white): either may have been given
    black, who moves first."""
    if "Your turn" in a.locator("#status").inner_text():
        return a, b
    expect(b.locator("#status")).to_have_text("Your turn")
    return b, a


def play_to_five(white, black, watchers=()) -> None:
    """Player 1 makes K10-K14 (the tournament rule: its second stone 3 away from the centre),
    player 2 plays along the edge (missing the block of the three); every stone must reach the
    other pages by their stream."""
    turns = [
        (black, "A1"),
        (white, "K13"),
        (black, "A3"),
        (white, "K12"),
        (black, "A5"),
        (white, "K11"),
        (black, "A7"),
        (white, "K14"),
    ]
    for mover, point in turns:
        click(mover, point)
        for page in (white, black, *watchers):
            expect(stone(page, point)).to_have_count(1)
