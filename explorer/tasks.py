"""Celery tasks of the explorer's index.

``index_games`` is enqueued on commit when a game finishes; ``sweep`` (beat, every
``SWEEP_INTERVAL_SECONDS``) indexes every game over that is not in the index yet. Both are
idempotent: ``games_index`` locks the games, skips those indexed, and writes a game's rows with
its flag in one transaction.
"""

from __future__ import annotations

from celery import shared_task

from explorer import indexing

SWEEP_TASK = "explorer.sweep"


@shared_task(name=indexing.INDEX_TASK, acks_late=True, ignore_result=True)
def index_games(game_ids: list[int]) -> int:
    """Index these games if they are over and not indexed yet."""
    return indexing.games_index(game_ids=game_ids)


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def sweep() -> int:
    """Index the games over that the index misses (a lost task, games from before it)."""
    return indexing.index_sweep()
