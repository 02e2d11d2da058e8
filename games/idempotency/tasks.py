"""The idempotency keys' sweeper (beat)."""

from __future__ import annotations

from celery import shared_task

from games.idempotency import services

SWEEP_TASK = "games.idempotency.keys_sweep"


@shared_task(name=SWEEP_TASK, acks_late=True, ignore_result=True)
def idempotency_keys_sweep() -> int:
    """Delete the expired idempotency keys."""
    return services.idempotency_keys_sweep()
