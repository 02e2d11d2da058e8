"""The computer's moves in the embedded default (``manage.py serve``: SQLite, one Celery worker
with beat embedded on the filesystem broker): the worker killed while the computer thinks on its
answer to a human's move (the task is gone with it: the folder broker keeps no message a worker
took) is started again, and its resend sweeper has the computer answer within seconds."""

from __future__ import annotations

import os
import signal
import sqlite3
import time

import pytest

from tests.servers import api_call, child_pids, start_embedded, stop_server

pytestmark = pytest.mark.slow

#: The first line of the banner a Celery worker prints as it starts.
BANNER = " -------------- celery@"


def _wait(condition, within: float, what: str):
    end = time.monotonic() + within
    while not (found := condition()):
        assert time.monotonic() < end, what
        time.sleep(0.01)
    return found


def _claimed(db, game: int, ply: int) -> bool:
    """Whether a move task holds the computer's turn (its think has begun)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        row = conn.execute(
            "SELECT claimed_at FROM games_botturn WHERE game_id = ? AND ply = ?", (game, ply)
        ).fetchone()
    return row is not None and row[0] is not None


def test_the_computer_answers_soon_after_its_worker_is_killed_mid_think(tmp_path):
    proc, base = start_embedded(tmp_path)
    try:
        account = {"username": "ann", "password": "correct-horse-battery-1"}
        api_call(base, "auth/register", account)
        token = api_call(base, "auth/token", account)["key"]
        body = {"variant": "Pente", "invitee": "computer3", "seat_wanted": 1}
        game = api_call(base, "challenges/", body, token)["game"]
        state = _wait(
            lambda: (s := api_call(base, f"games/{game}/"))["ply"] >= 2 and s,
            60,
            "the computer never answered the centre stone",
        )
        taken = {s["point"] for s in state["board"]["stones"]}
        point = next(p for p in (160, 162, 198, 200) if p not in taken)
        (worker,) = child_pids(proc.pid)
        api_call(base, f"games/{game}/moves", {"ply": 2, "point": point}, token)
        # level 3 thinks 0.25 s: the worker is killed once it has taken the task, mid-think
        _wait(lambda: _claimed(tmp_path / "db.sqlite3", game, 3), 30, "no worker took the task")
        os.kill(worker, signal.SIGKILL)
        assert api_call(base, f"games/{game}/")["ply"] == 3, "killed before the computer moved"
        # a new worker starting prints its banner (on a loaded machine, seconds after its
        # process began): the time is counted from there
        log = tmp_path / "serve.log"
        _wait(lambda: log.read_text().count(BANNER) >= 2, 120, "no worker was started again")
        started = time.monotonic()
        _wait(lambda: api_call(base, f"games/{game}/")["ply"] >= 4, 60, "the computer never moved")
        answered_in = time.monotonic() - started
        assert answered_in < 5, f"the computer moved {answered_in:.1f} s after the new worker"
    finally:
        stop_server(proc)
    assert "computer moves sent again" in (tmp_path / "serve.log").read_text()
