"""Celery tasks that drive tournaments without anyone pressing a button: ``tournaments.start`` at
the start time, ``tournaments.set_finished`` when a tournament set ends (on commit),
``tournaments.advance`` (pair the next round, create bracket matches or finish),
``tournaments.withdraw_deactivated`` for a banned or deleted account, and ``tournaments.sweep``
(beat, every ``settings.SWEEP_INTERVAL``), the backstop for all of them.

All are idempotent (conditional updates, unique constraints and row locks in the services).
"""

from __future__ import annotations

from functools import partial

from celery import shared_task
from django.db import transaction

from tournaments import progress, services
from tournaments.models import MatchSet

SWEEP_TASK = "tournaments.sweep"


@shared_task(name=services.START_TASK, acks_late=True, ignore_result=True)
def start(tournament_id: int) -> str:
    t = services.tournament_start(tournament_id=tournament_id)
    return t.status


@shared_task(name="tournaments.set_finished", acks_late=True, ignore_result=True)
def set_finished(game_set_id: int) -> str:
    tournament_id = progress.match_set_finished(game_set_id=game_set_id)
    if tournament_id is None:
        return "not a tournament set"
    return progress.tournament_advance(tournament_id=tournament_id)


@shared_task(name="tournaments.advance", acks_late=True, ignore_result=True)
def advance(tournament_id: int) -> str:
    return progress.tournament_advance(tournament_id=tournament_id)


@shared_task(name=services.WITHDRAW_DEACTIVATED_TASK, acks_late=True, ignore_result=True)
def withdraw_deactivated(user_id: int) -> int:
    return services.deactivated_account_tidy(user_id=user_id)


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def sweep() -> dict[str, int]:
    return services.sweep()


def on_sets_finished(sender, game_sets, **kwargs) -> None:
    """``games.play.signals.sets_finished`` receiver (inside the finishing transaction): one
    query finds which of the sets are tournament sets, each is recorded by a task on commit."""
    ids = MatchSet.objects.filter(game_set_id__in=[s.pk for s in game_sets]).values_list(
        "game_set_id", flat=True
    )
    for game_set_id in sorted(set(ids)):
        transaction.on_commit(partial(set_finished.delay, game_set_id))
