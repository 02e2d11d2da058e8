"""One user posts many imports at the same moment (PostgreSQL, committed transactions): no more
jobs are accepted than ``IMPORT_MAX_ACTIVE_JOBS``, the rest are 409 ``import_busy``."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.factories import UserFactory
from games.models import ImportJob
from games.records import jobs
from tests.games.records.importing import client_for, records

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
