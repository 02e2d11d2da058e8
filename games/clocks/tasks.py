"""Celery tasks of game clocks: loss on time.

``game_timeout`` is enqueued by ``games.clocks.services.timeout_schedule`` with ``eta`` = the deadline;
``close_due_timeouts`` runs every second (beat, ``settings.TIMEOUT_POLL_INTERVAL``) and closes the
games past their deadline whose task was lost (a killed worker); ``sweep_timeouts`` runs every
``settings.SWEEP_INTERVAL`` and also enqueues the tasks of far deadlines as they come near.
All are idempotent (they lock the game row and re-check it), so ``acks_late`` redeliveries and
duplicates are harmless.
"""

from __future__ import annotations

from celery import shared_task

from games.clocks import sweeper
from games.clocks.services import TIMEOUT_TASK

SWEEP_TASK = "games.sweep_timeouts"
POLL_TASK = "games.close_due_timeouts"


@shared_task(name=TIMEOUT_TASK, acks_late=True, ignore_result=True)
def game_timeout(game_id: int, ply: int) -> str:
    """Finish game ``game_id`` on time if it is still at ``ply`` and past its deadline."""
    return sweeper.timeout_fire(game_id=game_id, ply=ply)


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def sweep_timeouts() -> dict[str, int]:
    """Close every game past its deadline (spending vacation first) and enqueue upcoming ones."""
    report = sweeper.sweep()
    return {
        "timed_out": report.timed_out,
        "vacation": report.vacation,
        "skipped": report.skipped,
        "scheduled": report.scheduled,
    }


@shared_task(name=POLL_TASK, acks_late=True, ignore_result=True)
def close_due_timeouts() -> dict[str, int]:
    """Close the games past their deadline now (beat: every ``TIMEOUT_POLL_SECONDS``)."""
    report = sweeper.close_due()
    return {"timed_out": report.timed_out, "vacation": report.vacation, "skipped": report.skipped}
