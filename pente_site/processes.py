"""Work on many items shared among processes, for the bulk commands (``import_records``,
``explorer_rebuild``) on PostgreSQL, where Python's work on one batch (reading, replaying)
overlaps the database's on another."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from django.db import connections

T = TypeVar("T")
R = TypeVar("R")


def side_by_side(
    work: Callable[[T], R], items: Iterable[T], *, jobs: int, on_result: Callable[[R], None]
) -> None:
    """``on_result(work(item))`` for every item, ``work`` run in ``jobs`` forked processes
    (each opens its own database connections; ``work`` must be a module-level function), the
    items read at most ``2 * jobs`` ahead of the results; results come in any order. One job:
    everything here, in order."""
    if jobs <= 1:
        for item in items:
            on_result(work(item))
        return
    ahead = threading.BoundedSemaphore(2 * jobs)

    def fed() -> Iterator[T]:
        for item in items:
            ahead.acquire()
            yield item

    connections.close_all()  # the children must not share this process's connections
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for result in pool.imap_unordered(work, fed()):
            ahead.release()
            on_result(result)
