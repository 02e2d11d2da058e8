"""What the benchmarks share: a throwaway database on the server DATABASE_URL points at (or the
embedded SQLite default), Django set up (and migrated) on it, and the production stack
(gunicorn, with a Celery worker when asked) started on it and stopped. Imported by the scripts
of this folder as ``_support`` (a script's own folder is first on ``sys.path``)."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
#: Production settings refuse the default key; a bench's own.
BENCH_SECRET_KEY = "bench-only-" + "x" * 50
#: The rate of every throttle scope while a bench drives the server.
SCOPES_LIFTED = "1000000/min"


def quantile(ordered, q: float) -> float:
    """The ``q`` quantile (0..1) of sorted values: the value at rank ``int(q * n)`` (NaN when
    there is none)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else math.nan


def bench_url(base: str, name: str) -> str:
    """``base`` (a PostgreSQL URL) with the database ``name``; exits on any other URL."""
    parts = urlsplit(base)
    if parts.scheme not in ("postgres", "postgresql"):
        sys.exit("DATABASE_URL must point at PostgreSQL (postgres://...)")
    return urlunsplit(parts._replace(path=f"/{name}"))


def recreate_database(base: str, name: str, *, drop_only: bool = False) -> None:
    """Drop the database ``name`` (forcing its connections closed), then create it afresh."""
    import psycopg

    # Without the query string: it carries Django OPTIONS (server_side_binding=...).
    admin_url = urlunsplit(urlsplit(bench_url(base, "postgres"))._replace(query=""))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(url: str) -> None:
    """Django on ``url`` with DEBUG off, the database migrated."""
    os.environ["DATABASE_URL"] = url
    _django_up()


def setup_embedded(var_dir: Path) -> None:
    """Django on the embedded default (SQLite in ``var_dir``, no Redis) with DEBUG off, the
    database migrated."""
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ["PENTE_VAR_DIR"] = str(var_dir)
    _django_up()


def _django_up() -> None:
    os.environ["DEBUG"] = "0"
    # Production settings refuse the default key and redirect plain HTTP; a bench needs neither.
    os.environ.setdefault("SECRET_KEY", BENCH_SECRET_KEY)
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pente_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def start_stack(
    *, url: str | None, port: int, web_workers: int, log_dir: Path, worker: bool = True
) -> list:
    """gunicorn with ``web_workers`` workers on ``port`` (and, with ``worker``, a Celery worker)
    on the database ``url`` (None: the embedded default, without Redis), every throttle
    lifted; returns the processes once the API answers (exits with gunicorn's log if it does
    not within a minute). Call after ``setup_django`` or ``setup_embedded``."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    if url is None:
        env.pop("REDIS_URL", None)
    else:
        env["DATABASE_URL"] = url
    env.update(
        DEBUG="0",
        SECRET_KEY=os.environ.get("SECRET_KEY", BENCH_SECRET_KEY),
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="127.0.0.1",
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY=str(web_workers),
        CELERY_TASK_ALWAYS_EAGER="0",
    )
    from django.conf import settings

    for scope in settings.THROTTLE_RATES:
        env[f"THROTTLE_{scope.upper()}_RATE"] = SCOPES_LIFTED
    procs = [
        _start(
            [str(Path(sys.executable).with_name("gunicorn"))]
            + ["-c", "pente_site/gunicorn.conf.py", "pente_site.wsgi"],
            env=env,
            log=log_dir / "web.log",
        )
    ]
    if worker:
        from games.management.commands.serve import celery_worker_argv

        argv = celery_worker_argv("--concurrency", "2", "--without-gossip", "--without-mingle")
        procs.append(_start(argv, env=env, log=log_dir / "worker.log"))
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/", timeout=2)
            return procs
        except OSError:
            if procs[0].poll() is not None or time.monotonic() > deadline:
                stop_stack(procs)
                sys.exit("gunicorn did not start:\n" + (log_dir / "web.log").read_text())
            time.sleep(0.3)


def _start(argv: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        env=env,
        stdout=open(log, "w"),  # noqa: SIM115 - lives as long as the process
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop_stack(procs: list) -> None:
    """SIGTERM each process group, wait for them (SIGKILL after 30 s)."""
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (the processes it starts
    inherit it), for benchmarks that hold thousands of connections; returns the soft limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):  # e.g. above the kernel's nr_open
            pass
    return soft


def _proc_stat(pid: int | str) -> tuple[str, list[str]] | None:
    """The command name of a process and the fields of ``/proc/<pid>/stat`` after it (the
    state first: ``[3]`` is the session, ``[11]`` and ``[12]`` user and system time in ticks), or
    None (gone, or not Linux)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()


def _ticks_seconds(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux; NaN elsewhere)."""
    stat = _proc_stat(pid)
    return math.nan if stat is None else _ticks_seconds(stat[1])


def cpu_seconds(procs: list) -> dict[str, float] | None:
    """CPU seconds (user + system) used so far, by part of the stack started by ``start_stack``:
    ``web`` (gunicorn's processes), ``worker`` (the Celery worker's), ``postgres`` and ``redis``
    (every process of those servers on this machine), ``client`` (this process). None where
    ``/proc`` cannot be read (not Linux). Differences between two calls say where the time of
    a run went."""
    if _proc_stat("self") is None:
        return None
    # Each process ``start_stack`` starts leads a session of its own.
    sessions = {proc.pid: name for proc, name in zip(procs, ("web", "worker"), strict=False)}
    used = dict.fromkeys(("web", "worker", "postgres", "redis", "client"), 0.0)
    for entry in Path("/proc").glob("[0-9]*"):
        stat = _proc_stat(entry.name)
        if stat is None:  # gone meanwhile
            continue
        command, fields = stat
        if int(entry.name) == os.getpid():
            part = "client"
        elif int(fields[3]) in sessions:
            part = sessions[int(fields[3])]
        elif command == "postgres" or command.startswith("postgres:"):
            part = "postgres"
        elif command.startswith("redis-server"):
            part = "redis"
        else:
            continue
        used[part] += _ticks_seconds(fields)
    return used
