"""Importing records through the API in tests: post the text, run the job the request enqueued
on commit (eagerly, as the suite runs Celery), and read the job back."""

from __future__ import annotations

from django.test import TestCase
from rest_framework.test import APIClient

from games.play.selectors import games_queryset
from games.play.serializers import GameSummarySerializer
from games.records import tasks

#: The task the request enqueues by name (importing ``tasks`` registers it for eager runs).
IMPORT_TASK = tasks.import_job_run.name


def record(n: int, moves: str = "1. K10 L11 2. M12 *") -> str:
    """A small valid record whose player 1 is called ``p{n}``."""
    return f'[Game "Pente"]\n[Player 1 Name "p{n}"]\n[Player 2 Name "q"]\n\n{moves}\n'


def records(count: int, start: int = 1) -> str:
    """``count`` small valid records, players 1 called p{start}, p{start + 1}, ... (about 80
    bytes each): records of different numbers are different records, never duplicates."""
    return "\n".join(record(n) for n in range(start, start + count))


def import_job(client: APIClient, text: str | None = None, **post) -> dict:
    """POST ``text`` (or the ``post`` arguments) to the import, let the job it enqueued run to
    its end, and return the job as its ``Location`` shows it then."""
    if text is not None:
        post = {"data": text, "content_type": "text/plain", **post}
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post("/api/games/import", **post)
    assert response.status_code == 202, response.json()
    assert response.json()["status"] == "queued"
    job = client.get(response["Location"])
    assert job.status_code == 200, job.json()
    return job.json()


def imported_games(client: APIClient, text: str) -> list[dict]:
    """Import ``text`` through the API (every record must be imported) and return the games
    created, as the game list shows them, in the order of their records."""
    job = import_job(client, text)
    assert (job["status"], job["refusals"]) == ("done", []), job
    games = games_queryset().in_bulk(job["games"])
    return GameSummarySerializer([games[pk] for pk in job["games"]], many=True).data
