"""``python manage.py serve``: the embedded default, ready to play.

Applies migrations, then runs a Celery worker with beat embedded (``-B``) as a child process
(started again within seconds if it stops while the server runs: the computers' moves, the
timeouts and the pairings depend on it) and the web server (uvicorn, with ``pente_site.asgi``: the API and the event streams) in this one. With no ``REDIS_URL`` the broker is a folder under ``var/``, so
nothing else needs to be running; with ``REDIS_URL`` set the same command uses Redis (production
deployments run ``celery -A pente_site worker`` and ``celery -A pente_site beat`` separately).
Errors are answered with the site's own pages and the API's JSON, not Django's debugging pages,
unless ``--debug`` is given (or ``DEBUG=1`` is set in the environment).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import uvicorn
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from games.bots.accounts import bots_ensure
from games.bots.warmup import warm


def celery_worker_argv(*options: str) -> list[str]:
    """The command line of a Celery worker of this project (thread pool, warnings only)."""
    return [
        sys.executable,
        *("-m", "celery", "-A", "pente_site", "worker", "--pool", "threads"),
        *("--loglevel", "WARNING"),
        *options,
    ]


def _address_for_links(addrport: str) -> None:
    """Without ``PUBLIC_URL``, the address served is the one e-mails link to, also from the
    worker (a turn a computer's move or a pairing starts has no request to take it from); an
    address of every interface (``0.0.0.0``) names no one place, so links then follow the
    requests as before."""
    host = addrport.rpartition(":")[0] or "127.0.0.1"
    if settings.PUBLIC_URL or host in ("0.0.0.0", "[::]", "::"):
        return
    settings.PUBLIC_URL = f"http://{host}:{addrport.rpartition(':')[2]}"
    os.environ["PUBLIC_URL"] = settings.PUBLIC_URL  # for the worker started below


#: Seconds between a worker's unexpected exit and its restart.
RESTART_DELAY_S = 1.0


class _Worker:
    """The Celery worker of ``serve``: started, watched, started again whenever it fails
    before ``stop()`` (a crash, a kill; not when it was asked to stop: SIGTERM or Ctrl+C, as
    when the whole process group is stopped), and stopped with the server."""

    def __init__(self, argv: list[str], *, say) -> None:
        self.argv, self.say = argv, say
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.proc = subprocess.Popen(argv)
        threading.Thread(target=self._watch, name="worker-watch", daemon=True).start()

    def _watch(self) -> None:
        while True:
            code = self.proc.wait()
            if code in (0, -signal.SIGTERM, -signal.SIGINT) or self.stopping.wait(RESTART_DELAY_S):
                return
            with self.lock:
                if self.stopping.is_set():
                    return
                self.proc = subprocess.Popen(self.argv)
            self.say(
                f"The Celery worker stopped (exit code {code}); started again (pid {self.proc.pid})."
            )

    def stop(self) -> None:
        with self.lock:
            self.stopping.set()
            proc = self.proc
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


class Command(BaseCommand):
    help = "Migrate, start a Celery worker with beat, and serve the API (embedded default)."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--no-worker", action="store_true", help="Do not start Celery.")
        parser.add_argument(
            "--debug",
            action="store_true",
            help="Answer errors with Django's debugging pages (a traceback, the list of "
            "addresses on a 404) instead of the site's own pages.",
        )

    def handle(self, *args, addrport: str, no_worker: bool, debug: bool, **options):
        if not debug and os.environ.get("DEBUG") != "1":
            # The settings' development default (DEBUG on) is for the test client and the
            # shell; a person at the served site gets its own "Not found" page and the API's
            # JSON errors, not Django's debugging pages (which list every address).
            settings.DEBUG = False
        call_command("migrate", interactive=False, verbosity=0)
        bots_ensure()  # the computer opponents, computer1 .. computer8
        warm()  # the compiled search loaded (numba's cache) before the workers start
        _address_for_links(addrport)
        worker = None
        if not no_worker:
            schedule = settings.VAR_DIR / "celerybeat-schedule"
            worker = _Worker(
                celery_worker_argv(
                    "-B", "--schedule", str(schedule), "--concurrency", "4", "-Q", "celery,bots"
                ),
                say=lambda line: self.stderr.write(line),
            )
            self.stdout.write(f"Celery worker and beat started (pid {worker.proc.pid}).")
        self.stdout.write(f"API on http://{addrport}/api/  (docs: http://{addrport}/api/docs/)")
        # A SIGTERM (kill, a process manager) must stop the worker too, as Ctrl+C does.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        host, _, port = addrport.rpartition(":")
        try:
            # The ASGI application: the API, and the event streams (pente_site/asgi.py).
            uvicorn.run(
                "pente_site.asgi:application",
                host=host or "127.0.0.1",
                port=int(port),
                log_level="warning",
                timeout_graceful_shutdown=3,  # open streams end with the server
            )
        finally:
            if worker is not None:
                worker.stop()
