"""Celery tasks of sets: the start of a live set's next game.

``set_next_game`` is enqueued (``games.play.sets.next_games_schedule``) with ``eta`` = the end
of the countdown; ``sets_start_due`` (beat, every ``SWEEP_INTERVAL``) starts those whose task
was lost. Both claim the start with a conditional UPDATE, so a repeated or late task does
nothing.
"""

from __future__ import annotations

from celery import shared_task

from games.play import sets

SWEEP_TASK = "games.sets_start_due"


@shared_task(name=sets.NEXT_GAME_TASK, acks_late=True, ignore_result=True)
def set_next_game(game_set_id: int) -> bool:
    """Start the next game of set ``game_set_id`` if its countdown is over and it has not."""
    return sets.set_next_game_start(game_set_id=game_set_id) is not None


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def sets_start_due() -> int:
    """Start every set's next game whose countdown is over."""
    return sets.sets_start_due()
