"""A Swiss of 10 players run by a REAL Celery worker (Redis broker, PostgreSQL): the start task
fires at the start time, every finished set pairs the next round, and the tournament publishes
its final standings -- nobody presses a button; the players only play their games via the API.

Run with ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/pente_tourn
REDIS_URL=redis://127.0.0.1:6379/6``.
"""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import close_old_connections, connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.clocks.timecontrol import TimeControl
from games.play.models import Game
from pente_site.celery import app
from ratings.models import Crown
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Match, Round, Tournament

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _close_connection(**_):
    connection.close()


@pytest.fixture
def worker():
    app.conf.task_always_eager = False
    app.control.purge()
    task_postrun.connect(_close_connection, weak=False)
    try:
        with start_worker(
            app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=10
        ) as w:
            yield w
    finally:
        task_postrun.disconnect(_close_connection)
        app.control.purge()
        app.conf.task_always_eager = True
        close_old_connections()


def _unrated_swiss(organiser, *, name: str, starts_in: timedelta) -> Tournament:
    """An unrated, turn-based Swiss (3 days a move) starting ``starts_in`` from now."""
    return services.tournament_create(
        organiser=organiser,
        name=name,
        format="swiss",
        rated=False,
        time_control=TimeControl.turn(3),
        start_at=timezone.now() + starts_in,
    )


def test_a_swiss_of_10_runs_to_its_final_standings_on_its_own(worker):
    players = [UserFactory() for _ in range(10)]
    t = _unrated_swiss(UserFactory(), name="Celery Swiss", starts_in=timedelta(seconds=2))
    for p in players:
        assert APIClient().post(f"/api/tournaments/{t.pk}/join/").status_code in (401, 403)
        client = APIClient()
        client.force_authenticate(p)
        assert client.post(f"/api/tournaments/{t.pk}/join/").status_code == 201
    rng = random.Random(6)
    clients = {}
    deadline = time.monotonic() + 120
    resigned = 0
    while time.monotonic() < deadline:
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED:
            break
        games = Game.objects.filter(
            game_set__tournament_match_set__match__tournament=t, status="in_progress"
        ).prefetch_related("seat_rows__user")
        for game in games:
            seat = rng.choice(list(game.seat_rows.all()))
            client = clients.setdefault(seat.user_id, APIClient())
            client.force_authenticate(seat.user)
            response = client.post(f"/api/games/{game.pk}/resign/")
            assert response.status_code == 200, response.data
            resigned += 1
        time.sleep(0.2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED, (t.status, t.current_round)
    assert t.rounds == 4 and Round.objects.filter(tournament=t).count() == 4
    assert Match.objects.filter(tournament=t).count() == 20
    assert resigned == 40  # 5 matches of two games a round
    response = APIClient().get(f"/api/tournaments/{t.pk}/standings/")
    assert response.data["final"] is True
    rows = response.data["results"]
    assert response.data["count"] == len(rows) == 10 and sum(r["points"] for r in rows) == 20
    assert rows[0]["user_id"] == t.winner_id
    assert Crown.objects.filter(tournament_id=t.pk, user_id=t.winner_id).exists()


def test_the_organiser_s_start_answers_at_once_and_the_worker_pairs_the_first_round(worker):
    organiser = UserFactory()
    t = _unrated_swiss(organiser, name="Started by hand", starts_in=timedelta(hours=1))
    for _ in range(6):
        services.tournament_join(tournament_id=t.pk, user=UserFactory())
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(f"/api/tournaments/{t.pk}/start/")
    assert response.status_code == 202 and response.data["pairing_pending"] is True
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        shown = APIClient().get(f"/api/tournaments/{t.pk}/").data
        if not shown["pairing_pending"]:
            break
        time.sleep(0.1)
    assert shown["status"] == "running" and shown["current_round"] == 1, shown
    assert Match.objects.filter(tournament=t, round__number=1).count() == 3
