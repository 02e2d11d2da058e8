"""The job that tells a player of their turns by e-mail, and its sweeper."""

from __future__ import annotations

from celery import shared_task

from games.notifications import services


@shared_task(name=services.TURN_EMAILS_TASK, acks_late=True, ignore_result=True)
def turn_emails_send(user_id: int) -> int:
    """Tell the player of their turns still untold, in one message, once one is due."""
    return services.turn_emails_send(user_id=user_id)


@shared_task(name=services.TURN_EMAILS_SWEEP_TASK, acks_late=True, ignore_result=True)
def turn_emails_sweep() -> int:
    """Run the job again for the players whose turns' job was lost (beat)."""
    return services.turn_emails_sweep()
