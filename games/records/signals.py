"""Signals of record imports.

``records_archived`` is sent with ``games=`` (the archived games just stored, with their ids)
and ``replays=`` (each record's ``games.engine.records.Replay``, in the same order) INSIDE the
transaction that stores them: a receiver's writes commit with the games or not at all (the
explorer indexes the records' positions there).
"""

from __future__ import annotations

from django.dispatch import Signal

records_archived = Signal()
