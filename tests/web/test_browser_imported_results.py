"""An imported record's result on its game page in a real browser: a result its Result header
states after the last stone reads "won (as recorded)", and a Go count made elsewhere (an SGF's
``B+5.5`` after the last stone) shows no count of the board, which is not that count.

Skipped, with the reason, where Playwright or Chromium is missing (``tests/web/conftest.py``).
"""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import unique_name, watch_errors

pytestmark = pytest.mark.usefixtures("browser")

PASSWORD = "correct-horse-battery-1"


def imported(site: str, text: str) -> int:
    """``text`` imported by a new player through the API (the embedded worker runs the job):
    the id of its game."""
    body = {"username": unique_name("i"), "password": PASSWORD}
    assert httpx.post(f"{site}/api/auth/register", json=body).status_code == 201
    key = httpx.post(f"{site}/api/auth/token", json=body).json()["key"]
    client = httpx.Client(base_url=f"{site}/api/", headers={"Authorization": f"Token {key}"})
    posted = client.post("games/import", content=text, headers={"Content-Type": "text/plain"})
    assert posted.status_code == 202, posted.text
    deadline = time.monotonic() + 30
    while (job := client.get(f"games/imports/{posted.json()['id']}").json())["status"] != "done":
        assert time.monotonic() < deadline and job["status"] != "failed", job
        time.sleep(0.2)
    assert job["refusals"] == [], job
    return job["games"][0]


def test_a_result_stated_after_the_last_stone_reads_as_recorded(new_page, site):
    name = unique_name("w")
    record = f'[Game "Pente"]\n[Player 1 Name "ann"]\n[Player 2 Name "{name}"]\n[Result "0-1"]'
    game = imported(site, f"{record}\n\n1. K10 L11 2. N13\n")
    page = new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/games/{game}/")
    expect(page.locator("#status")).to_have_text(f"{name} won (as recorded)")
    assert errors == []


def test_a_go_count_made_elsewhere_shows_no_count_of_the_board(new_page, site):
    name = unique_name("b")
    sgf = f"(;GM[1]FF[4]SZ[9]KM[7.5]PB[{name}]PW[w]RE[B+5.5];B[ee];W[ce])"
    game = imported(site, sgf)
    page = new_page()
    errors = watch_errors(page)
    page.goto(f"{site}/games/{game}/")
    expect(page.locator("#status")).to_have_text(f"{name} won by the count")
    expect(page.locator("#board .territory")).to_have_count(0)
    assert errors == []
