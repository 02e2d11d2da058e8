"""What the PostgreSQL benchmarks share: a throwaway database on the server DATABASE_URL points
at, and Django set up (and migrated) on it. Imported by the scripts of this folder as
``_support`` (a script's own folder is first on ``sys.path``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


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
    os.environ["DEBUG"] = "0"
    # Production settings refuse the default key and redirect plain HTTP; a bench needs neither.
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pente_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


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
