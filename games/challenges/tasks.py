"""Periodic sweepers of challenges: invitations that have run out (beat entry
``"challenges-expire"``) and open invitations a computer opponent takes when no human has
(``"challenges-computer-take"``), and the task that takes one made with no wait."""

from __future__ import annotations

from celery import shared_task

from games.challenges import services
from games.challenges.services import challenges_expire_due


@shared_task(name="games.challenges.tasks.challenges_expire", ignore_result=True)
def challenges_expire() -> int:
    """Mark every open challenge past its ``expires_at`` as expired; returns how many."""
    return challenges_expire_due()


@shared_task(name=services.COMPUTER_TAKE_TASK, ignore_result=True)
def computer_take(challenge_id: int) -> bool:
    """The computer named by an open invitation takes it, if it is still open and due."""
    return services.challenge_computer_take(challenge_id=challenge_id)


@shared_task(name="games.challenges.computer_take_due", ignore_result=True)
def computer_take_due() -> int:
    """The computers take every open invitation whose wait for a human is over."""
    return services.challenges_computer_take_due()
