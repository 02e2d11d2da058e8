"""Real Celery workers for end-to-end tests (Redis broker, PostgreSQL): tasks sent for real, a
worker in threads of the test process taking them. A plugin of ``tests/conftest.py``: its
fixtures serve every test."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import close_old_connections, connection

from pente_site.celery import app


def _close_connection(**_) -> None:
    connection.close()  # each task's thread leaves no connection open behind it


@pytest.fixture
def not_eager():
    """Tasks go to the broker (the suite runs them eagerly otherwise); the queues start empty."""
    app.conf.task_always_eager = False
    app.control.purge()
    yield
    app.control.purge()
    app.conf.task_always_eager = True


@contextmanager
def running_worker(*, concurrency: int = 4, queues: Sequence[str] | None = None) -> Iterator:
    """A worker in threads of this process, taking ``queues`` (default: Celery's own)."""
    options = {"queues": list(queues)} if queues else {}
    task_postrun.connect(_close_connection, weak=False)
    try:
        with start_worker(
            app,
            pool="threads",
            concurrency=concurrency,
            perform_ping_check=False,
            shutdown_timeout=10,
            **options,
        ) as w:
            yield w
    finally:
        task_postrun.disconnect(_close_connection)
        close_old_connections()
        _wait_for_quiet_database()


def _wait_for_quiet_database(timeout: float = 15.0) -> None:
    """Wait until no other connection to the test database is running a query or holding a
    transaction open (PostgreSQL): a task the stopped worker had begun still finishes, and the
    test's teardown (TRUNCATE) would deadlock with it."""
    if connection.vendor != "postgresql":
        return
    busy = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'"
    )
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(busy)
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


@pytest.fixture
def worker(not_eager):
    """A worker on Celery's default queue for the length of a test."""
    with running_worker() as w:
        yield w
