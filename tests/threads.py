"""Running callables on threads that all start at once (the concurrency tests on PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from django.db import connections


def run_together(jobs: Sequence[Callable[[], object]], *, timeout: float = 120) -> None:
    """Run each callable on its own thread, all starting together; re-raise the first error,
    and fail if a thread is still running after ``timeout`` seconds (a deadlock)."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(jobs))

    def work(job):
        try:
            barrier.wait()
            job()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(t.is_alive() for t in threads), "a thread hung (deadlock?)"
    if errors:
        raise errors[0]
