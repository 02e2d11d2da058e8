"""The accounts' Celery tasks: the e-mail job (``mail``), the guests' sweeper, and the
resignation of a deleted account's games in progress (also run by beat, without an id, as its
sweeper)."""

from __future__ import annotations

from celery import shared_task

from accounts import guests, services
from accounts.mail import email_send

__all__ = [
    "deleted_games_resign",
    "email_send",
    "guests_sweep",
]

GUESTS_SWEEP_TASK = "games.accounts.guests_sweep"


@shared_task(name=services.DELETED_GAMES_TASK, acks_late=True, ignore_result=True)
def deleted_games_resign(user_id: int | None = None) -> int:
    return services.deleted_games_resign(user_id=user_id)


@shared_task(name=GUESTS_SWEEP_TASK, acks_late=True, ignore_result=True)
def guests_sweep() -> int:
    """Delete the idle guests with their games (beat)."""
    return guests.guests_sweep()
