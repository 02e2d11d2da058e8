"""Games against every level with a REAL Celery worker on the ``bots`` queue (Redis broker,
PostgreSQL, committed transactions), and a lost move task recovered by the sweeper."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.bots.tasks import bots_sweep
from games.factories import UserFactory
from games.models import Game
from games.play.create import game_create
from pente_site.celery import app
from tests.workers import running_worker

BOT_QUEUES = ["celery", "bots"]

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.BOT_THINK_SCALE = 0.02  # level 8 thinks 0.1 s: a whole game in a few seconds


@pytest.fixture
def bots_worker(not_eager):
    """A worker taking the default and the ``bots`` queues."""
    with running_worker(concurrency=2, queues=BOT_QUEUES) as w:
        yield w


def _wait_turn(client, url: str, timeout: float = 20.0) -> dict:
    """The state once it is the human's turn (seat 1) or the game is over."""
    end = time.monotonic() + timeout
    while True:
        state = client.get(url).json()
        if state["status"] != "in_progress" or state["to_move"]["seat"] == 1:
            return state
        if time.monotonic() > end:
            raise AssertionError(f"the computer did not move: {state['ply']}")
        time.sleep(0.02)


@pytest.mark.parametrize("level", range(1, 9))
def test_a_game_against_each_level_is_played_to_its_end_by_the_worker(bots_worker, level):
    human = UserFactory()
    bot = UserFactory(username=f"computer{level}", is_computer=True, bot_level=level)
    game = game_create(variant="Pente", players=[human, bot])  # the computer moves second
    client = APIClient()
    client.force_authenticate(human)
    url = f"/api/games/{game.pk}/"
    rng = random.Random(level)
    for _ in range(180):
        state = _wait_turn(client, url)
        if state["status"] != "in_progress":
            break
        taken = {s["point"] for s in state["board"]["stones"]}
        free = [p for p in range(361) if p not in taken]
        for point in rng.sample(free, len(free)):
            body = {"ply": state["ply"], "point": point}
            if client.post(f"/api/games/{game.pk}/moves", body, format="json").status_code == 200:
                break
    game.refresh_from_db()
    assert game.status == "finished"


def test_a_lost_move_task_is_played_after_the_sweeper_sends_it_again(not_eager):
    human = UserFactory()
    bot = UserFactory(username="computer1", is_computer=True, bot_level=1)
    game = game_create(variant="Pente", players=[human, bot])  # the computer's turn: task sent
    app.control.purge()  # ... and lost with its worker before anyone ran it
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    with running_worker(concurrency=2, queues=BOT_QUEUES):
        assert bots_sweep.apply().get() == 1  # what beat runs: the move is sent again
        deadline = time.monotonic() + 15
        while Game.objects.get(pk=game.pk).ply < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert Game.objects.get(pk=game.pk).ply == 2
