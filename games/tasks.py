"""Celery tasks of the games app: loss on time.

``game_timeout`` is enqueued by ``games.timeouts.timeout_schedule`` with ``eta`` = the deadline;
``sweep_timeouts`` runs periodically (beat, every ``settings.SWEEP_INTERVAL``) as the backstop.
Both are idempotent (they lock the game row and re-check it), so ``acks_late`` redeliveries and
duplicates are harmless.
"""

from __future__ import annotations

from celery import shared_task

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
