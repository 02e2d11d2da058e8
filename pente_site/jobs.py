"""Enqueueing Celery tasks by name.

Services enqueue jobs whose task modules import those services, so they name the task instead
of importing it. In eager mode (the test suite's default) the registered task runs at once, as
``apply_async`` would; otherwise the message is sent to the broker. A broker that cannot be
reached (Redis away) fails no request: the job is logged and left to the sweeper that backs
every scheduled task (docs/timeouts.md).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import Any

from kombu.exceptions import OperationalError

from pente_site.celery import app

log = logging.getLogger(__name__)

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
        try:
            app.send_task(name, args=args, eta=eta)
        except (OperationalError, OSError) as exc:
            log.warning("job %s%r not sent (%s): left to its sweeper", name, args, exc)
