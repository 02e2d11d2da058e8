"""What the browser tests do on a game's board (they import Playwright, as this module does;
``conftest`` does not, so that the page tests run without it): ``stone(page, point)``,
``click(page, point)``, ``game_id(page)``, ``against_the_computer(new_page, site)`` (a new
player's game against computer1), ``players_at_a_game(new_page, site)`` (two new players in a
game, from a challenge), ``white_and_black(a, b)`` and ``go_black_and_white(a,
b)`` (a game's two pages, the first mover's last or first as each game has it), and
``play_to_five(white, black)``."""

from __future__ import annotations

import re
import time

import httpx
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


#: Black walls off column D, white column F (9x9); white invades at B5, a stone that cannot
#: live; then three passes (tests/games/play/test_go_api.py's game).
WALLS = [p for row in range(1, 10) for p in (f"D{row}", f"F{row}")]


def hold_streams(page, pattern: str) -> list[bool]:
    """Refuse the page's requests for ``pattern`` (an event stream: the browser tries again)
    until the returned flag is cleared: ``held[0] = False``."""
    held = [True]

    def route(route):
        if held[0]:
            route.abort()
        else:
            route.continue_()

    page.route(pattern, route)
    return held


def post(page, path: str, body: dict) -> dict:
    """POST to the API from ``page`` with its session, as the page's script does:
    ``{"status", "data"}``."""
    return page.evaluate(
        """async ([path, body]) => {
            const token = document.querySelector('meta[name="csrf-token"]').content;
            const response = await fetch("/api/" + path, { method: "POST", body: JSON.stringify(body),
                headers: { "Content-Type": "application/json", "X-CSRFToken": token } });
            return { status: response.status, data: await response.json() };
        }""",
        [path, body],
    )


CALL = """async ([method, path, body, type]) => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch('/api/' + path, { method, credentials: 'same-origin',
    headers: { 'Content-Type': type, 'X-CSRFToken': token, Accept: 'application/json' },
    body: body === null ? undefined : body });
  return [response.status, await response.json()];
}"""


def call(page, method: str, path: str, body=None, content_type="application/json"):
    return page.evaluate(CALL, [method, path, body, content_type])


def imported_game(page, player1: str, player2: str, result: str = "*") -> int:
    """A record of ``player1`` against ``player2`` imported through the API, with ``result``
    (``1-0``: player 1 won, by resignation since no one has five): its game's id."""
    record = f'[Game "Pente"]\n[Player 1 Name "{player1}"]\n[Player 2 Name "{player2}"]\n'
    record += f'[Result "{result}"]\n\n1. K10 L11 2. M12 {result}\n'
    status, job = call(page, "POST", "games/import", record, "text/plain")
    assert status == 202, job
    deadline = time.monotonic() + 30
    while job["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
        job = call(page, "GET", f"games/imports/{job['id']}")[1]
    assert job["status"] == "done" and len(job["games"]) == 1, job
    return job["games"][0]


def api_player(site: str) -> tuple[str, httpx.Client]:
    """A player registered through the API, with a client carrying their token."""
    name = web.unique_name("t")
    body = {"username": name, "password": PASSWORD}
    assert httpx.post(f"{site}/api/auth/register", json=body).status_code == 201
    key = httpx.post(f"{site}/api/auth/token", json=body).json()["key"]
    return name, httpx.Client(base_url=f"{site}/api/", headers={"Authorization": f"Token {key}"})
