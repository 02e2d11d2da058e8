"""Work gathered during a transaction and done once when it commits.

``transaction.on_commit`` runs one callback per call: a transaction that finishes thousands of
games (the timeout sweeper) would send thousands of event batches and index jobs, one round
trip each. ``on_commit_gather(kind, items, flush)`` adds ``items`` to the transaction's batch of
that ``kind`` instead, and ``flush(items)`` runs once, on commit, with all of them in the order
they were added.

A batch belongs to the savepoints open when it was started, as Django's callbacks do: items
added inside a savepoint go to a batch of that savepoint, dropped with it if it rolls back.
Outside a transaction (autocommit), ``flush`` runs at once, as ``on_commit`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction

Flush = Callable[[list[Any]], None]


class _Batch:
    """The on-commit callback of one batch: its items, flushed together."""

    def __init__(self, flush: Flush, name: str) -> None:
        self.flush = flush
        self.items: list[Any] = []
        self.__qualname__ = name  # Django names a failing robust callback by this

    def __call__(self) -> None:
        self.flush(self.items)


def on_commit_gather(kind: str, items: Iterable[Any], flush: Flush, *, robust: bool = True) -> None:
    """Add ``items`` to this transaction's batch of ``kind`` (flushed by ``flush`` on commit;
    the ``flush`` of the batch's first call is the one used). ``robust``: an error in ``flush``
    is logged and does not stop the other callbacks."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        flush(list(items))
        return
    # The batches are kept beside the list of callbacks they are in: Django replaces that list
    # when the transaction ends and when a savepoint rolls back, and the batches go with it.
    registry = getattr(connection, "_gathered", None)
    if registry is None or registry[0] is not connection.run_on_commit:
        registry = connection._gathered = (connection.run_on_commit, {})
    key = (kind, tuple(connection.savepoint_ids))
    batch = registry[1].get(key)
    if batch is None:
        batch = registry[1][key] = _Batch(flush, kind)
        transaction.on_commit(batch, robust=robust)
    batch.items.extend(items)
