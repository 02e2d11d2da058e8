"""The hills' sweeper: members who played no hill set for too long leave (beat entry
``"hills-sweep"``)."""

from __future__ import annotations

from celery import shared_task

from hills.services import hills_sweep_idle


@shared_task(name="hills.sweep", ignore_result=True)
def sweep() -> int:
    """Remove the idle members of every hill; returns how many."""
    return hills_sweep_idle()
