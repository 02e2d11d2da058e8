"""Starting and stopping a real server process for end-to-end tests."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
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


def server_port(index: int = 0) -> int:
    """``TEST_PORT`` plus ``index`` when the machine gives the tests ports to use, else any
    free port."""
    base = os.environ.get("TEST_PORT")
    return int(base) + index if base else free_port()


def raw_request(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is to the server on ``port``, read the answer to its end:
    (status, headers with lower-case names, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _answers(ready_url: str | None, port: int | None) -> bool:
    try:
        if ready_url is not None:
            urllib.request.urlopen(ready_url, timeout=2)
        else:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def start_server(
    argv: list[str],
    *,
    env: dict[str, str],
    log: Path,
    ready_url: str | None = None,
    ready_port: int | None = None,
):
    """Start ``argv`` in its own process group (output to ``log``) and wait until
    ``ready_url`` answers (or, given ``ready_port``, until the port takes a connection: a
    server that refuses everything is ready too); fail the test with the log when it does not
    within ``START_SECONDS``, stopping what was started (a server left running outlives the
    tests and restarts its Celery worker for ever)."""
    out = open(log, "w")  # noqa: SIM115 - closed by stop_server
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    proc.log_file = out
    deadline = time.monotonic() + START_SECONDS
    while True:
        if _answers(ready_url, ready_port):
            return proc
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


#: Where the migrated database that servers start from is built, once for the whole run (all
#: xdist workers share it); set by ``tests/conftest.py`` to a folder of pytest's base temp.
TEMPLATE_DIR: Path | None = None


def embedded_env(var_dir: Path, **settings: str) -> dict[str, str]:
    """This process's environment without ``DATABASE_URL`` nor ``REDIS_URL`` (the embedded
    default), its files in ``var_dir``, with ``settings`` added."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(PENTE_VAR_DIR=str(var_dir), **settings)
    return env


def migrated_database() -> Path:
    """An SQLite database the project's migrations have built (``manage.py migrate`` in a fresh
    ``PENTE_VAR_DIR``), made once a run under a lock: migrating costs a server ~20 s of CPU."""
    assert TEMPLATE_DIR is not None, "tests/conftest.py sets TEMPLATE_DIR"
    folder = TEMPLATE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    database, done = folder / "db.sqlite3", folder / "migrated"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be building it
        if not done.exists():
            database.unlink(missing_ok=True)  # what a failed attempt left
            result = subprocess.run(
                [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
                cwd=ROOT,
                env=embedded_env(folder),
                capture_output=True,
                text=True,
            )
            if result.returncode != 0:
                pytest.fail(f"manage.py migrate failed:\n{result.stdout}{result.stderr}")
            done.touch()
    return database


def copy_migrated_database(var_dir: Path) -> None:
    """Put a copy of ``migrated_database()`` in ``var_dir`` (as ``db.sqlite3``, the embedded
    default's database), copied through SQLite's backup (whatever its journal holds)."""
    source, target = sqlite3.connect(migrated_database()), sqlite3.connect(var_dir / "db.sqlite3")
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


def start_embedded(var_dir: Path, *, fresh: bool = False, **settings: str):
    """``manage.py serve`` as the README's first command runs it (the embedded default: no
    ``DATABASE_URL`` nor ``REDIS_URL``, its files in ``var_dir``), with ``settings`` added to
    its environment, on a free port: ``(process, "http://127.0.0.1:<port>")`` once it answers.

    Its database is a copy of one migrated once for the run (``serve`` then finds nothing to
    migrate), unless ``fresh``: then ``serve`` migrates an empty folder, as on a first start."""
    port = free_port()
    env = embedded_env(var_dir, **settings)
    if not fresh and not (var_dir / "db.sqlite3").exists():
        copy_migrated_database(var_dir)
    base = f"http://127.0.0.1:{port}"
    proc = start_server(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
        env=env,
        ready_url=f"{base}/api/games/",
        log=var_dir / "serve.log",
    )
    return proc, base


def run_walkthrough(script: str, *, base: str, workdir: Path, timeout: float) -> str:
    """Run a documented curl walkthrough as written (bash, strict mode) in ``workdir`` with
    ``BASE`` set to the API at ``base``: what it prints. It must succeed."""
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=workdir,
        env={**os.environ, "BASE": base},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result.stdout


@contextmanager
def uvicorn_server(env: dict[str, str], log: Path) -> Iterator[str]:
    """uvicorn serving ``pente_site.asgi`` with ``env`` on a free port: its API's address."""
    port = free_port()
    argv = [sys.executable, "-m", "uvicorn", "pente_site.asgi:application"]
    proc = start_server(
        [*argv, "--port", str(port), "--log-level", "warning"],
        env=env,
        ready_url=f"http://127.0.0.1:{port}/api/games/",
        log=log,
    )
    try:
        yield f"http://127.0.0.1:{port}/api"
    finally:
        stop_server(proc)


def api_call(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """``path`` of the API at ``base`` (POST with ``body`` as JSON, else GET), as ``token``'s
    owner when given: the answer's JSON."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/api/{path}", data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def child_pids(server_pid: int) -> list[int]:
    """The live child processes of ``server_pid`` (its Celery worker, ...), from ``/proc``."""
    pids = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == server_pid and fields[0] != "Z":
            pids.append(int(entry))
    return pids
