"""The sweepers of the live app: the embedded event log (beat entry ``"live-events-trim"``) and
the presence rows of web processes that died (``"live-presence-sweep"``)."""

from __future__ import annotations

from celery import shared_task

from live.bus import DatabaseBackend, backend
from live.services import presence_sweep


@shared_task(name="live.events_trim", ignore_result=True)
def events_trim() -> int:
    """Delete the database's events older than ``LIVE_EVENTS_KEEP_SECONDS`` (Redis expires its
    own)."""
    found = backend()
    return found.trim() if isinstance(found, DatabaseBackend) else 0


@shared_task(name="live.presence_sweep", ignore_result=True)
def presence_sweep_task() -> int:
    """Remove the presence rows nobody refreshes (their web process died) and tell the rooms."""
    return presence_sweep()
