"""Enqueueing Celery tasks by name.

Services enqueue jobs whose task modules import those services, so they name the task instead
of importing it. In eager mode (the test suite's default) the registered task runs at once, as
``apply_async`` would; otherwise the message is sent to the broker.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from pente_site.celery import app

#: Held while the task modules are imported in eager mode: a second thread that found its task
#: missing waits for the first thread's import to finish instead of finding it half done.
_importing = threading.Lock()


def enqueue(name: str, *, args: tuple[Any, ...] = (), eta: datetime | None = None) -> None:
    """Send task ``name`` with ``args``, to run at ``eta`` (now when None)."""
    if app.conf.task_always_eager:
        if name not in app.tasks:  # no worker started: the tasks modules may not be imported yet
            with _importing:
                app.loader.import_default_modules()
        app.tasks[name].apply_async(args=args, eta=eta)
    else:
        app.send_task(name, args=args, eta=eta)
