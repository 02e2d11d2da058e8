"""A game's page in a real browser goes on showing the game while Redis is away: its stream
says the bus is unavailable, and the page reads the game every few seconds until it is back;
then the stream carries the moves again. The server (uvicorn, its own SQLite database) reaches
Redis through a relay the test switches off and on.

Needs Redis and Chromium (skipped with the reason otherwise)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.live.streams import SERVER_SETTINGS, account, move, new_game
from tests.servers import copy_migrated_database, uvicorn_server
from tests.web.playing import stone

pytestmark = [pytest.mark.redis, pytest.mark.usefixtures("browser")]


@pytest.fixture
def redis_site(tmp_path, switchable_redis):
    relay, db = switchable_redis
    copy_migrated_database(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | SERVER_SETTINGS
    env |= {"PENTE_VAR_DIR": str(tmp_path), "REDIS_URL": relay.url(db)}
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    with uvicorn_server(env, tmp_path / "server.log") as base:
        yield base, relay


def test_a_spectators_page_follows_the_moves_while_redis_is_away_and_after(redis_site, new_page):
    base, relay = redis_site
    alice, bob = account(base), account(base)
    game = new_game(base, alice, bob)

    relay.off()
    page = new_page()
    page.goto(f"{base.removesuffix('/api')}/games/{game}/")
    expect(stone(page, "K10")).to_have_count(1)
    move(base, game, bob[1], 1, "A1")  # no stream can carry it: the page reads it
    expect(stone(page, "A1")).to_have_count(1, timeout=10_000)

    relay.on()
    move(base, game, alice[1], 2, "K13")
    expect(stone(page, "K13")).to_have_count(1, timeout=20_000)
