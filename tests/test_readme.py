"""The README, followed as a newcomer would: start the embedded default with ``manage.py serve``
(SQLite and a folder broker, with a real Celery worker and beat), then run the README's curl
walkthroughs as written against it."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def walkthrough(name: str) -> str:
    match = re.search(rf"<!-- walkthrough:{name} -->\n```sh\n(.*?)\n```", README, re.S)
    assert match, f"README has no walkthrough block {name!r}"
    return match.group(1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory):
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    var_dir = tmp_path_factory.mktemp("var")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(PENTE_VAR_DIR=str(var_dir), SWEEP_INTERVAL_SECONDS="2", PYTHONUNBUFFERED="1")
    log = open(var_dir / "serve.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/api"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/games/", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                log.close()
                pytest.fail("server did not start:\n" + (var_dir / "serve.log").read_text())
            time.sleep(0.3)
    yield {"base": base, "workdir": var_dir}
    os.killpg(proc.pid, 15)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
    log.close()


def run_walkthrough(server, name: str, timeout: int = 120) -> str:
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", walkthrough(name)],
        cwd=server["workdir"],
        env={**os.environ, "BASE": server["base"]},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result.stdout


def test_readme_play_walkthrough_plays_a_game_to_five_on_the_embedded_default(embedded_server):
    out = run_walkthrough(embedded_server, "play")
    assert "stale_ply" in out
    assert "A7 is already taken" in out
    assert "finished five ['alice']" in out
    assert '[Game "Pente"]' in out and "O10" in out and '[Result "1-0"]' in out
    svg = (embedded_server["workdir"] / "board.svg").read_text()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
