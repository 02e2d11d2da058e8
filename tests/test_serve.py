"""``manage.py serve`` (the README's first command) keeps its Celery worker running: a worker
that stops while the server runs is started again within seconds, and the computers go on
answering."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request

import pytest

from games.management.commands.serve import _address_for_links
from tests.servers import api_call, child_pids, start_embedded, stop_server


def _get(base: str, path: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/{path}", timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One ``manage.py serve`` for the module: ``(process, base URL, its folder)``."""
    var_dir = tmp_path_factory.mktemp("serve")
    # Unbuffered: the tests read its log while it runs.
    proc, base = start_embedded(var_dir, PYTHONUNBUFFERED="1")
    yield proc, base, var_dir
    stop_server(proc)


@pytest.mark.slow
def test_a_killed_worker_is_started_again_and_the_computer_still_answers(served):
    proc, base, var_dir = served
    deadline = time.monotonic() + 30
    while not (first := child_pids(proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(first) == 1, "serve runs one Celery worker"
    os.kill(first[0], signal.SIGKILL)
    deadline = time.monotonic() + 30
    again: list[int] = []
    while time.monotonic() < deadline:
        again = [pid for pid in child_pids(proc.pid) if pid != first[0]]
        if again:
            break
        time.sleep(0.2)
    assert again, "the worker was not started again"
    account = {"username": "ann", "password": "correct-horse-battery-1"}
    api_call(base, "auth/register", account)
    token = api_call(base, "auth/token", account)["key"]
    game = api_call(
        base,
        "challenges/",
        {"variant": "Pente", "invitee": "computer1", "seat_wanted": 1},
        token,
    )["game"]
    deadline = time.monotonic() + 60
    while _get(base, f"games/{game}/")["ply"] < 2 and time.monotonic() < deadline:
        time.sleep(0.3)
    assert _get(base, f"games/{game}/")["ply"] >= 2, "the computer did not answer"
    log = (var_dir / "serve.log").read_text()
    assert "The Celery worker stopped" in log
    assert "No hostname was supplied" not in log  # the folder broker names no host


def _status_and_text(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


@pytest.mark.slow
def test_the_served_site_answers_a_wrong_address_with_its_own_pages(served):
    """Not Django's debugging page, which lists every address of the server."""
    _, base, _ = served
    status, page = _status_and_text(f"{base}/no-such-page/")
    assert status == 404
    assert 'id="not-found"' in page and "URLconf" not in page
    status, body = _status_and_text(f"{base}/api/no-such-thing/")
    assert status == 404 and json.loads(body)["code"] == "not_found"


@pytest.mark.parametrize(
    ("addrport", "public_url", "links_to"),
    [
        ("127.0.0.1:8123", "", "http://127.0.0.1:8123"),
        ("8124", "", "http://127.0.0.1:8124"),
        ("0.0.0.0:8000", "", ""),  # every interface: links follow the requests
        ("127.0.0.1:8125", "https://pente.example.org", "https://pente.example.org"),
    ],
)
def test_serve_links_emails_to_the_address_it_serves_unless_public_url_says(
    settings, monkeypatch, addrport, public_url, links_to
):
    """A turn a computer's move starts is e-mailed by the worker, which has no request to take
    the site's address from: ``serve`` gives it the one it serves."""
    settings.PUBLIC_URL = public_url
    monkeypatch.setenv("PUBLIC_URL", public_url)
    _address_for_links(addrport)
    assert settings.PUBLIC_URL == links_to
    assert os.environ["PUBLIC_URL"] == links_to
