"""Periodic sweeper of challenges whose invitation has run out (its beat entry is
``"challenges-expire"`` in ``settings.CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from games.challenges.services import challenges_expire_due


@shared_task(name="games.challenges.tasks.challenges_expire", ignore_result=True)
def challenges_expire() -> int:
    """Mark every open challenge past its ``expires_at`` as expired; returns how many."""
    return challenges_expire_due()
