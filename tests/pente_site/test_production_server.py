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

from tests.servers import (
    ROOT,
    copy_migrated_database,
    embedded_env,
    raw_request,
    server_port,
    start_server,
    stop_server,
)

GUNICORN = Path(sys.executable).with_name("gunicorn")


@pytest.fixture(scope="module")
def production_server(tmp_path_factory):
    if not GUNICORN.exists():  # pragma: no cover - installed with the project
        pytest.skip("gunicorn is not installed in this environment")
    var_dir = tmp_path_factory.mktemp("var")
    port = server_port(10)
    env = embedded_env(
        var_dir,
        DEBUG="0",
        SECRET_KEY="a-test-only-secret-key-that-is-long-enough-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="2",
    )
    # The database as ``manage.py migrate`` leaves it (migrated once for the test run).
    copy_migrated_database(var_dir)
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
    request = urllib.request.Request(f"{production_server}/", headers={"Accept": "text/html"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Type"].startswith("application/json")
        assert "links" in json.load(response)


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


def _raw(url: str, request: bytes) -> tuple[int, str, dict]:
    """Send ``request`` as it is and read the answer (status, content type, JSON body)."""
    port = int(url.split("//", 1)[1].split("/", 1)[0].split(":")[1])
    status, headers, body = raw_request(port, request)
    return status, headers["content-type"], json.loads(body)


def test_a_request_line_too_long_for_gunicorn_is_a_json_414(production_server):
    path = "/api/games/?" + "x" * 9000
    status, content_type, body = _raw(
        production_server, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    )
    assert (status, body["code"]) == (414, "uri_too_long")
    assert content_type == "application/json" and body["detail"]


def test_too_many_headers_for_gunicorn_is_a_json_431(production_server):
    headers = "".join(f"X-Extra-{i}: {i}\r\n" for i in range(150))
    status, content_type, body = _raw(
        production_server, f"GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode()
    )
    assert (status, body["code"]) == (431, "headers_too_large")
    assert content_type == "application/json"


def test_a_malformed_request_is_a_json_400(production_server):
    status, content_type, body = _raw(production_server, b"NOT A REQUEST\r\n\r\n")
    assert (status, body["code"]) == (400, "bad_request")
    assert content_type == "application/json"


def test_with_debug_off_an_api_error_asked_for_as_html_is_json(production_server):
    request = urllib.request.Request(
        f"{production_server}/games/999999/", headers={"Accept": "text/html"}
    )
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as error:
        status, content_type, body = error.code, error.headers["Content-Type"], json.load(error)
    assert (status, body["code"]) == (404, "not_found")
    assert content_type.startswith("application/json")
    request = urllib.request.Request(f"{production_server}/", headers={"Accept": "text/html"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Type"].startswith("application/json")
        assert "links" in json.load(response)


def test_the_static_files_folder_is_there_for_the_web_server_from_the_start(tmp_path):
    """WhiteNoise warns ("No directory at: .../var/static/") when the folder of collected static
    files is missing: the settings make it, so a fresh server starts without the warning."""
    code = (
        "import django; django.setup(); "
        "from whitenoise.middleware import WhiteNoiseMiddleware; "
        "WhiteNoiseMiddleware(lambda request: None)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(PENTE_VAR_DIR=str(tmp_path / "var"), DJANGO_SETTINGS_MODULE="pente_site.settings")
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "var" / "static").is_dir()
