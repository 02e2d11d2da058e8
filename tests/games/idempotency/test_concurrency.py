"""Requests sent at once with one ``Idempotency-Key`` (PostgreSQL, threads): one does the
work, the others wait for it and get its answer."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from games.challenges.models import Challenge
from games.play.models import Game
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 6


def _at_once(job) -> list:
    """Run ``job`` on THREADS threads started together; their results (or errors raised)."""
    results: list = []
    barrier = threading.Barrier(THREADS)

    def run():
        try:
            barrier.wait()
            results.append(job())
        except BaseException as exc:  # noqa: BLE001 - returned to the test
            results.append(exc)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=run) for _ in range(THREADS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(w.is_alive() for w in workers), "a request hung"
    return results


def _post(user, body, key):
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(
        "/api/challenges/", body, format="json", headers={"Idempotency-Key": key}
    )
    return response.status_code, response.json()


def test_concurrent_requests_with_one_key_create_one_challenge():
    assert connection.vendor == "postgresql"
    alice = UserFactory(username="alice")
    results = _at_once(lambda: _post(alice, {"variant": "Pente"}, "same"))
    assert [r[0] for r in results] == [201] * THREADS, results
    assert len({r[1]["id"] for r in results}) == 1
    assert Challenge.objects.count() == 1


def test_concurrent_requests_with_one_key_start_one_game_against_the_computer():
    alice = UserFactory(username="alice")
    UserFactory(username="computer3", is_computer=True, bot_level=3)
    body = {"variant": "Pente", "invitee": "computer3"}
    results = _at_once(lambda: _post(alice, body, "same"))
    assert [r[0] for r in results] == [201] * THREADS, results
    assert Game.objects.count() == 1
