"""Enqueueing a task by name in eager mode (the tests, a process without a worker): when the
task modules are not imported yet, the first thread imports them and the others wait for it."""

from __future__ import annotations

import threading
import time

from pente_site import jobs
from pente_site.celery import app

PROBE = "tests.pente_site.jobs_probe"


def test_threads_that_find_a_task_not_yet_imported_each_run_it_once_imported(monkeypatch):
    ran: list[int] = []

    def run(n: int) -> None:
        ran.append(n)

    probe = app.task(name=PROBE)(run)
    app.tasks.unregister(PROBE)
    begun: list[bool] = []

    def import_default_modules():
        # As Celery's loader: a second call finds the import begun and returns at once, while
        # the first is still registering the tasks.
        if begun:
            return
        begun.append(True)
        time.sleep(0.2)
        app.tasks.register(probe)

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(app.loader, "import_default_modules", import_default_modules)
    errors: list[Exception] = []

    def enqueue(n: int) -> None:
        try:
            jobs.enqueue(PROBE, args=(n,))
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=enqueue, args=(n,)) for n in (1, 2)]
    try:
        for t in threads:
            t.start()
            time.sleep(0.05)  # the second finds the task missing while the first imports
        for t in threads:
            t.join()
    finally:
        app.tasks.pop(PROBE, None)
    assert errors == []
    assert sorted(ran) == [1, 2]
