"""Imports at the same moment (PostgreSQL, committed transactions): one user posting many has
no more jobs accepted than ``IMPORT_MAX_ACTIVE_JOBS``, the rest are 409 ``import_busy``; two
imports of one game store it once."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from games.play.models import Game
from games.records import imports, jobs
from games.records.models import ImportJob
from tests.clients import client_for
from tests.factories import UserFactory
from tests.games.records.importing import records

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def test_parallel_imports_of_one_user_never_exceed_the_active_limit(settings, monkeypatch):
    settings.IMPORT_MAX_ACTIVE_JOBS = 2
    sent: list[tuple] = []
    monkeypatch.setattr(jobs, "enqueue", lambda name, args: sent.append(args))  # no worker
    user = UserFactory()
    barrier = threading.Barrier(THREADS)
    codes: list[int] = []
    lock = threading.Lock()

    def post() -> None:
        try:
            client = client_for(user)
            barrier.wait()
            response = client.post("/api/games/import", records(2), content_type="text/plain")
            with lock:
                codes.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [202, 202] + [409] * (THREADS - 2), codes
    assert ImportJob.objects.filter(owner=user, status="queued").count() == 2
    assert sorted(args for args in sent) == sorted(
        (pk, 0) for pk in ImportJob.objects.values_list("pk", flat=True)
    )


def test_two_imports_of_one_game_at_once_import_it_once(monkeypatch):
    """Each import looks for the game, then stores it a while later (slowed here): without the
    fingerprint's lock both would look before either stored, and both would import it."""
    store = imports._store

    def slow_store(replays):
        time.sleep(0.5)
        return store(replays)

    monkeypatch.setattr(imports, "_store", slow_store)
    text = records(1)
    barrier = threading.Barrier(2)
    reports: list[imports.ImportReport] = []
    lock = threading.Lock()

    def run() -> None:
        try:
            barrier.wait()
            report = imports.games_import(text=text)
            with lock:
                reports.append(report)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(len(r.game_ids) for r in reports) == [0, 1]
    (game_id,) = Game.objects.values_list("pk", flat=True)
    (refused,) = [r for report in reports for r in report.refusals]
    assert refused.code == imports.DUPLICATE
    assert refused.detail.startswith(f"Game {game_id} is this game already")
