"""The event log of the embedded default (no Redis): one row per published event.

With ``REDIS_URL`` set, events live in Redis streams instead (``live.bus``) and this table stays
empty. Rows older than ``LIVE_EVENTS_KEEP_SECONDS`` are deleted by the ``live.events_trim`` beat
task; a client asking for events before the oldest kept row gets a ``reset`` event.
"""

from __future__ import annotations

from django.db import models


class Event(models.Model):
    id = models.BigAutoField(primary_key=True)
    channel = models.CharField(max_length=64)
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["channel", "id"], name="live_event_channel")]

    def __str__(self) -> str:
        return f"{self.channel} #{self.id} {self.kind}"
