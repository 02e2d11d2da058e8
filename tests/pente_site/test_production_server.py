"""The production web server as the README starts it: gunicorn with ``pente_site/gunicorn.conf.py``
and ``DEBUG=0``, serving JSON (also for unknown URLs) on the embedded database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.servers import ROOT, free_port, start_server, stop_server

GUNICORN = Path(sys.executable).with_name("gunicorn")


@pytest.fixture(scope="module")
def production_server(tmp_path_factory):
    if not GUNICORN.exists():  # pragma: no cover - installed with the project
        pytest.skip("gunicorn is not installed in this environment")
    var_dir = tmp_path_factory.mktemp("var")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        PENTE_VAR_DIR=str(var_dir),
        DEBUG="0",
        SECRET_KEY="a-test-only-secret-key-that-is-long-enough-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="2",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True
    )
    proc = start_server(
        [str(GUNICORN), "-c", "pente_site/gunicorn.conf.py", "pente_site.wsgi"],
        env=env,
        ready_url=f"http://127.0.0.1:{port}/api/",
        log=var_dir / "gunicorn.log",
    )
    yield f"http://127.0.0.1:{port}/api"
    stop_server(proc, timeout=30)


def _get(url: str) -> tuple[int, str, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], json.load(error)


def test_gunicorn_serves_the_api_root(production_server):
    status, content_type, body = _get(f"{production_server}/")
    assert status == 200 and content_type.startswith("application/json")
    assert body["links"]["games"].endswith("/api/games/")


def test_gunicorn_answers_unknown_urls_with_json(production_server):
    status, content_type, body = _get(f"{production_server}/no-such-thing/")
    assert (status, body["code"]) == (404, "not_found")
    assert content_type.startswith("application/json")


def test_the_gunicorn_configuration_checks_out():
    result = subprocess.run(
        [str(GUNICORN), "-c", "pente_site/gunicorn.conf.py", "--check-config", "pente_site.wsgi"],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
