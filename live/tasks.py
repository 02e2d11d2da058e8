"""The sweeper of the embedded event log (beat entry ``"live-events-trim"``)."""

from __future__ import annotations

from celery import shared_task

from live.bus import DatabaseBackend, backend


@shared_task(name="live.events_trim", ignore_result=True)
def events_trim() -> int:
    """Delete the database's events older than ``LIVE_EVENTS_KEEP_SECONDS`` (Redis expires its
    own)."""
    found = backend()
    return found.trim() if isinstance(found, DatabaseBackend) else 0
