"""Celery tasks that drive tournaments without anyone pressing a button.

- ``tournaments.start`` runs at the start time (``apply_async(eta=start_at)``);
- ``tournaments.set_finished`` is enqueued (on commit) when a tournament set ends: it records
  the match result and advances the tournament;
- ``tournaments.advance`` pairs the next round / creates bracket matches / finishes;
- ``tournaments.sweep`` runs periodically (beat, every ``settings.SWEEP_INTERVAL``) as the
  backstop for all of the above.

All are idempotent (conditional updates, unique constraints and row locks in the services).
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from tournaments import services

SWEEP_TASK = "tournaments.sweep"


@shared_task(name="tournaments.start", acks_late=True, ignore_result=True)
def start(tournament_id: int) -> str:
    t = services.tournament_start(tournament_id=tournament_id)
    return t.status


@shared_task(name="tournaments.set_finished", acks_late=True, ignore_result=True)
def set_finished(game_set_id: int) -> str:
    tournament_id = services.match_set_finished(game_set_id=game_set_id)
    if tournament_id is None:
        return "not a tournament set"
    return services.tournament_advance(tournament_id=tournament_id)


@shared_task(name="tournaments.advance", acks_late=True, ignore_result=True)
def advance(tournament_id: int) -> str:
    return services.tournament_advance(tournament_id=tournament_id)


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def sweep() -> dict[str, int]:
    return services.sweep()


def schedule_start(tournament_id: int, start_at: datetime) -> None:
    """Enqueue the start task for the start time (the sweeper starts it anyway if lost)."""
    start.apply_async((tournament_id,), eta=start_at)


def on_set_finished(sender, game_set, **kwargs) -> None:
    """``games.signals.set_finished`` receiver (inside the finishing transaction)."""
    from django.db import transaction

    from tournaments.models import MatchSet

    if MatchSet.objects.filter(game_set_id=game_set.pk).exists():
        game_set_id = game_set.pk
        transaction.on_commit(lambda: set_finished.delay(game_set_id))
