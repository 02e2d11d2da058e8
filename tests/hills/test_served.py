"""The hills on ``manage.py serve`` (the embedded default, with its real Celery worker and
beat): the curl walkthrough of docs/hills.md run as written, printing what the page says it
prints; and a live hill set lost on time, its timeout task run by the worker, moving the hill."""

from __future__ import annotations

import json
import re
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.servers import run_walkthrough, start_embedded, stop_server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "hills.md").read_text()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    if shutil.which("curl") is None:  # pragma: no cover - curl is on every CI machine
        pytest.skip("curl is not installed")
    var_dir = tmp_path_factory.mktemp("var")
    proc, site = start_embedded(var_dir, SWEEP_INTERVAL_SECONDS="2", PYTHONUNBUFFERED="1")
    yield {"base": f"{site}/api", "workdir": var_dir}
    stop_server(proc)


def test_the_hill_walkthrough_prints_what_the_guide_says(served):
    script = re.search(r"<!-- walkthrough:hill -->\n```sh\n(.*?)\n```", GUIDE, re.S).group(1)
    printed = re.search(r"It prints:\n\n```text\n(.*?)\n```", GUIDE, re.S).group(1)
    out = run_walkthrough(script, base=served["base"], workdir=served["workdir"], timeout=120)
    assert out.strip() == printed


def _call(base: str, path: str, *, token: str | None = None, body: dict | None = None) -> dict:
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    method = "GET" if body is None else "POST"
    request = urllib.request.Request(f"{base}/{path}", data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"{method} {path}: {exc.code} {exc.read()[:300]!r}") from None


def _account(base: str, name: str) -> str:
    password = "correct-horse-1"
    _call(base, "auth/register", body={"username": name, "password": password})
    return _call(base, "auth/token", body={"username": name, "password": password})["key"]


#: Points far from each other and from the centre (no capture, no line, the tournament rule
#: kept), played in turn in the second game.
POINTS = ["A1", "T19", "A19", "T1", "A10", "T10"]


def test_a_live_hill_set_lost_on_time_moves_the_hill_by_the_worker(served):
    base = served["base"]
    tokens = {name: _account(base, name) for name in ("erin", "finn")}
    for token in tokens.values():
        _call(base, "hills/pente-live/join", token=token, body={})
    challenge = _call(
        base,
        "hills/pente-live/challenges",
        token=tokens["erin"],
        body={
            "opponent": "finn",
            "time_control": "live",
            "initial_minutes": 0,
            "increment_seconds": 3,
        },
    )
    accepted = _call(base, f"challenges/{challenge['id']}/accept", token=tokens["finn"], body={})
    set_id = accepted["game_set"]
    # Game 1: Finn resigns; both say they are ready, and game 2 starts at once.
    _call(base, f"games/{accepted['game']}/resign", token=tokens["finn"], body={})
    for token in tokens.values():
        _call(base, f"sets/{set_id}/ready", token=token, body={})
    deadline = time.monotonic() + 30
    while True:
        games = _call(base, "hills/pente-live/")["steps"][0]["members"][0]["sets"]
        if games and games[0]["game"] not in (None, accepted["game"]):
            game = games[0]["game"]
            break
        assert time.monotonic() < deadline, "game 2 did not start"
        time.sleep(0.3)
    # Game 2: each plays a stone; then Finn does not move, and his clock runs out.
    played = {"erin": 0, "finn": 0}
    points = iter(POINTS)
    while True:
        state = _call(base, f"games/{game}/")
        mover = state["to_move"]["name"]
        if mover == "finn" and played["erin"] and played["finn"]:
            break
        _call(
            base,
            f"games/{game}/moves",
            token=tokens[mover],
            body={"ply": state["ply"], "point": next(points)},
        )
        played[mover] += 1
    deadline = time.monotonic() + 30
    while _call(base, f"games/{game}/")["status"] == "in_progress":
        assert time.monotonic() < deadline, "the worker did not end the game on time"
        time.sleep(0.5)
    state = _call(base, f"games/{game}/")
    assert state["end_reason"] == "timeout", state
    hill = _call(base, "hills/pente-live/")
    assert hill["king"] == "erin"
    assert [(s["step"], [m["username"] for m in s["members"]]) for s in hill["steps"]] == [
        (2, ["erin"]),
        (1, ["finn"]),
    ]
    history = _call(base, "hills/pente-live/history")["results"]
    assert ("erin", "up", set_id) in [(e["user"], e["kind"], e["game_set"]) for e in history]
