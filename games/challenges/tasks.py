"""Periodic sweeper of challenges whose invitation has run out.

The beat entry (merge into ``CELERY_BEAT_SCHEDULE``)::

    "challenges-expire": {
        "task": "games.challenges.tasks.challenges_expire",
        "schedule": SWEEP_INTERVAL,
    }
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games.challenges.services import challenges_expire_due

BEAT_SCHEDULE = {
    "challenges-expire": {
        "task": "games.challenges.tasks.challenges_expire",
        "schedule": settings.SWEEP_INTERVAL,
    }
}


@shared_task(name="games.challenges.tasks.challenges_expire", ignore_result=True)
def challenges_expire() -> int:
    """Mark every open challenge past its ``expires_at`` as expired; returns how many."""
    return challenges_expire_due()
