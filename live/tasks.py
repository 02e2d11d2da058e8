"""The sweepers of the live app: the embedded event log (beat entry ``"live-events-trim"``), the
outbox of events written while Redis could not be reached (``"live-outbox-deliver"``) and the
presence rows of web processes that died (``"live-presence-sweep"``)."""

from __future__ import annotations

from celery import shared_task

from live.bus import DatabaseBackend, RedisBackend, backend
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


@shared_task(name="live.outbox_deliver", ignore_result=True)
def outbox_deliver() -> int:
    """Append to Redis the events kept in the database while it could not be reached."""
    found = backend()
    return found.deliver_outbox() if isinstance(found, RedisBackend) else 0
