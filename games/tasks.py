"""Celery tasks of the games app: loss on time.

``game_timeout`` is enqueued by ``games.timeouts.timeout_schedule`` with ``eta`` = the deadline;
``sweep_timeouts`` runs periodically (beat, every ``settings.SWEEP_INTERVAL``) as the backstop.
Both are idempotent (they lock the game row and re-check it), so ``acks_late`` redeliveries and
duplicates are harmless.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games import timeouts

SWEEP_TASK = "games.sweep_timeouts"


@shared_task(name="games.game_timeout", acks_late=True, ignore_result=True)
def game_timeout(game_id: int, ply: int) -> str:
    """Finish game ``game_id`` on time if it is still at ``ply`` and past its deadline."""
    return timeouts.timeout_fire(game_id=game_id, ply=ply)


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def sweep_timeouts() -> dict[str, int]:
    """Close every game past its deadline (spending vacation first) and enqueue upcoming ones."""
    report = timeouts.sweep()
    return {
        "timed_out": report.timed_out,
        "vacation": report.vacation,
        "skipped": report.skipped,
        "scheduled": report.scheduled,
    }


#: The beat entry (also registered on the app's schedule here, so the embedded worker's beat
#: runs it without a settings change).
BEAT_ENTRY = {
    "task": SWEEP_TASK,
    "schedule": settings.SWEEP_INTERVAL.total_seconds(),
    "options": {"expires": settings.SWEEP_INTERVAL.total_seconds()},
}
game_timeout.app.conf.beat_schedule.setdefault("games-sweep-timeouts", BEAT_ENTRY)
