"""Production settings: DEBUG=0 refuses the development SECRET_KEY and passes
``check --deploy``; the secure defaults can be turned off through the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "k3y-" + "x7Qp9Lm2Zr5Tv8Wb1Nc4Hd6Jf0Gs3Ya" * 2


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SECURE_", "SESSION_", "CSRF_")) and k not in ("DEBUG", "SECRET_KEY")
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _setting(name: str, **env: str) -> str:
    code = f"import pente_site.settings as s; print(repr(s.{name}))"
    result = _run(["-c", code], **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_debug_off_with_the_development_secret_key_refuses_to_start():
    result = _run(["-c", "import pente_site.settings"], DEBUG="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr


def test_debug_off_with_a_secret_key_passes_check_deploy_without_warnings():
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DEBUG="0",
        SECRET_KEY=GOOD_KEY,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_embedded_default_keeps_plain_http_and_the_secure_settings_follow_the_env():
    assert _setting("SECURE_SSL_REDIRECT") == "False"
    assert _setting("SECURE_HSTS_SECONDS") == "0"
    assert _setting("SECURE_SSL_REDIRECT", DEBUG="0", SECRET_KEY=GOOD_KEY) == "True"
    assert (
        _setting("SECURE_SSL_REDIRECT", DEBUG="0", SECRET_KEY=GOOD_KEY, SECURE_SSL_REDIRECT="0")
        == "False"
    )
    assert _setting("SECURE_HSTS_SECONDS", DEBUG="0", SECRET_KEY=GOOD_KEY) == "31536000"
    assert _setting("SESSION_COOKIE_SECURE", SESSION_COOKIE_SECURE="1") == "True"


def test_debug_off_renders_json_only_and_debug_on_keeps_the_browsable_api():
    renderers = "REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES']"
    production = _setting(renderers, DEBUG="0", SECRET_KEY=GOOD_KEY)
    assert production == "['rest_framework.renderers.JSONRenderer']"
    assert "BrowsableAPIRenderer" in _setting(renderers, DEBUG="1")
