"""Celery tasks of record imports.

``fingerprint_games`` is enqueued (on commit) for the games a transaction ended
(``games.records.fingerprints``); imports fingerprint any game it missed first.
``import_job_run`` is enqueued (on commit) by ``games.records.jobs.import_job_create`` with the
job's id and the attempt it expects; ``import_jobs_sweep`` runs every ``IMPORT_SWEEP_SECONDS``
(beat) and enqueues it again for jobs no worker moves on. Both are idempotent: a run claims a
job with a conditional UPDATE and commits each batch only while its claim holds, so
``acks_late`` redeliveries and duplicates import nothing twice.
"""

from __future__ import annotations

from celery import shared_task

from games.records import fingerprints, jobs

SWEEP_TASK = "games.records.import_jobs_sweep"


@shared_task(name=jobs.IMPORT_TASK, acks_late=True, ignore_result=True)
def import_job_run(job_id: int, attempt: int) -> str:
    """Import job ``job_id`` if it is still at ``attempt``, from where its last run stopped."""
    return jobs.import_job_run(job_id=job_id, attempt=attempt)


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def import_jobs_sweep() -> dict[str, int]:
    """Hand stale import jobs to a worker again (beat: every ``IMPORT_SWEEP_SECONDS``)."""
    report = jobs.import_jobs_sweep()
    return {"requeued": report.requeued, "failed": report.failed}


@shared_task(name=fingerprints.FINGERPRINT_TASK, acks_late=True, ignore_result=True)
def fingerprint_games(game_ids: list[int]) -> int:
    """Fingerprint these games if they are over and have no fingerprint yet."""
    return fingerprints.games_fingerprint(game_ids=game_ids)
