"""Celery tasks of the computer opponents (queue ``bots``): a move, and the sweeper behind it."""

from __future__ import annotations

from celery import shared_task

from games.bots import services


@shared_task(name=services.BOT_MOVE_TASK, acks_late=True, ignore_result=True)
def bot_move(game_id: int, ply: int) -> str:
    return services.bot_play(game_id=game_id, ply=ply)


@shared_task(name="games.bots.sweep", ignore_result=True)
def bots_sweep() -> int:
    return services.bots_sweep()
