"""Celery tasks of game clocks: the timeout task and the sweeper behind it (``docs/timeouts.md``)."""

from __future__ import annotations

from celery import shared_task

from games.clocks import sweeper
from games.clocks.services import TIMEOUT_TASK

SWEEP_TASK = "games.sweep_timeouts"


@shared_task(name=TIMEOUT_TASK, acks_late=True, ignore_result=True)
def game_timeout(game_id: int, ply: int) -> str:
    """Finish game ``game_id`` on time if it is still at ``ply`` and past its deadline."""
    return sweeper.timeout_fire(game_id=game_id, ply=ply)


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def sweep_timeouts() -> dict[str, int]:
    """Close every game past its deadline that no task closed (beat: ``TIMEOUT_SWEEP_SECONDS``)."""
    report = sweeper.close_due()
    return {"timed_out": report.timed_out, "vacation": report.vacation, "skipped": report.skipped}
