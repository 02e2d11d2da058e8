"""Starting and stopping a real server process for end-to-end tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


#: How long a server may take to answer after it is started (a loaded machine is slow to import
#: Django and start Celery: ``TEST_SERVER_START_SECONDS`` gives it longer).
START_SECONDS = float(os.environ.get("TEST_SERVER_START_SECONDS", "120"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(argv: list[str], *, env: dict[str, str], ready_url: str, log: Path):
    """Start ``argv`` in its own process group (output to ``log``) and wait until
    ``ready_url`` answers; fail the test with the log when it does not within
    ``START_SECONDS``, stopping what was started (a server left running outlives the tests and
    restarts its Celery worker for ever)."""
    out = open(log, "w")  # noqa: SIM115 - closed by stop_server
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    proc.log_file = out
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            urllib.request.urlopen(ready_url, timeout=2)
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop_server(proc, timeout=5)
                pytest.fail(f"{argv[0]} did not start:\n" + log.read_text())
            time.sleep(0.3)


def stop_server(proc, *, timeout: float = 15) -> None:
    """SIGTERM the server's process group (SIGKILL after ``timeout``), close its log."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=timeout)
    except ProcessLookupError:
        pass  # already stopped
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.log_file.close()


def start_embedded(var_dir: Path, **settings: str):
    """``manage.py serve`` as the README's first command runs it (the embedded default: no
    ``DATABASE_URL`` nor ``REDIS_URL``, its files in ``var_dir``), with ``settings`` added to
    its environment, on a free port: ``(process, "http://127.0.0.1:<port>")`` once it answers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(PENTE_VAR_DIR=str(var_dir), **settings)
    base = f"http://127.0.0.1:{port}"
    proc = start_server(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
        env=env,
        ready_url=f"{base}/api/games/",
        log=var_dir / "serve.log",
    )
    return proc, base
