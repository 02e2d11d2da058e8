"""What the bulk commands (``import_records``, ``explorer_rebuild``) share: their work spread
over processes on PostgreSQL, where Python's work on one batch (reading, replaying) overlaps
the database's on another, how many processes, and their progress bar."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from tqdm import tqdm

T = TypeVar("T")
R = TypeVar("R")

#: Processes of a bulk command on PostgreSQL (SQLite takes one writer at a time: one).
POSTGRESQL_JOBS = 2


def bulk_jobs(*, batch_size: int, jobs: int | None) -> int:
    """The processes a bulk command runs (``--jobs``, or ``POSTGRESQL_JOBS`` on PostgreSQL
    and 1 elsewhere), once its ``--batch-size`` and ``--jobs`` are checked."""
    if batch_size < 1:
        raise CommandError("--batch-size must be at least 1.")
    if jobs is None:
        return POSTGRESQL_JOBS if connection.vendor == "postgresql" else 1
    if jobs < 1:
        raise CommandError("--jobs must be at least 1.")
    return jobs


def progress_bar(command: BaseCommand, *, total: int | None, unit: str, disable: bool) -> tqdm:
    """A progress bar on ``command``'s error stream (the stream under Django's wrapper: tqdm
    writes its own line ends, the wrapper would add one to each write)."""
    return tqdm(
        total=total, unit=unit, disable=disable, file=command.stderr._out, dynamic_ncols=True
    )


def write_above(command: BaseCommand, text: str) -> None:
    """A line on ``command``'s error stream, above its progress bar (which is drawn again)."""
    tqdm.write(text, file=command.stderr._out)


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
