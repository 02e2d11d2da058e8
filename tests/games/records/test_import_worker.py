"""A large record import with a REAL Celery worker (Redis broker, PostgreSQL, committed
transactions): the request answers 202 at once, before anything is imported, and the worker
imports every record in the background while the job is polled.

Run with e.g. ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/pente_imports
REDIS_URL=redis://127.0.0.1:6379/14``; without them the test is skipped (``tests/conftest.py``).
"""

from __future__ import annotations

import time

import pytest

from games.play.models import Game
from games.records import tasks
from games.records.models import ImportJob
from pente_site.celery import app
from tests.clients import client_for
from tests.factories import UserFactory
from tests.games.records.importing import records

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

RECORDS = 8000


@pytest.mark.usefixtures("worker")
def test_a_large_import_answers_at_once_and_a_real_worker_completes_it():
    assert tasks.import_job_run.name in app.tasks  # the worker knows the task it is sent
    text = records(RECORDS)
    client = client_for(UserFactory())
    response = client.post("/api/games/import", text, content_type="text/plain")
    assert response.status_code == 202, response.json()
    # "At once" is shown by what the answer holds (nothing imported yet), not by a stopwatch:
    # speed is measured in bench/, and a wall-clock bound fails on a loaded machine.
    accepted = response.json()
    assert accepted["status"] == "queued" and accepted["imported"] == 0  # not done in the answer
    assert accepted["progress"] == {"processed": 0, "total": RECORDS}

    seen: list[int] = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        job = client.get(response["Location"]).json()
        seen.append(job["progress"]["processed"])
        if job["status"] in ("done", "failed"):
            break
        time.sleep(0.2)
    assert job["status"] == "done", job
    assert (job["imported"], job["refused"], len(job["games"])) == (RECORDS, 0, RECORDS)
    assert seen == sorted(seen)  # progress only moves on
    assert Game.objects.filter(imported=True).count() == RECORDS
    stored = ImportJob.objects.get(pk=accepted["id"])
    assert (stored.attempt, stored.text) == (1, "")
