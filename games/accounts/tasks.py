"""The Celery tasks of the games of accounts: the resignation of a deleted account's games in
progress (also run by beat, without an id, as its sweeper) and the guests' sweeper. Their
names are kept from when they were the accounts' tasks (queued jobs and beat use them)."""

from __future__ import annotations

from celery import shared_task

from games.accounts import services

GUESTS_SWEEP_TASK = "games.accounts.guests_sweep"


@shared_task(name=services.DELETED_GAMES_TASK, acks_late=True, ignore_result=True)
def deleted_games_resign(user_id: int | None = None) -> int:
    return services.deleted_games_resign(user_id=user_id)


@shared_task(name=GUESTS_SWEEP_TASK, acks_late=True, ignore_result=True)
def guests_sweep() -> int:
    """Delete the idle guests with their games (beat)."""
    return services.guests_sweep()
