"""Timeouts in the embedded default (``manage.py serve``: SQLite, one Celery worker with beat on
the filesystem broker): the task closes a game at its deadline, and after the worker is killed
(its waiting task lost with it) the restarted worker's sweeper closes the next one, finished at
its deadline."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime

from tests.servers import api_call, child_pids, start_embedded, stop_server

#: Each game's deadline: the start window of player 2 (Pente's clocks wait for its first stone).
WINDOW_SECONDS = 3


def _token(base: str, name: str) -> str:
    account = {"username": name, "password": "correct-horse-battery-1"}
    api_call(base, "auth/register", account)
    return api_call(base, "auth/token", account)["key"]


def _live_game(base: str, ann: str, bob: str) -> int:
    challenge = api_call(
        base,
        "challenges/",
        {
            "variant": "Pente",
            "invitee": "bob",
            "seat_wanted": 1,
            "time_control": "live",
            "initial_minutes": 1,
            "increment_seconds": 0,
        },
        ann,
    )
    return api_call(base, f"challenges/{challenge['id']}/accept/", {}, bob)["game"]


def _over(base: str, game: int, within: float) -> dict:
    end = time.monotonic() + within
    while True:
        state = api_call(base, f"games/{game}/")
        if state["status"] != "in_progress" or time.monotonic() > end:
            return state
        time.sleep(0.1)


def test_the_embedded_worker_closes_games_at_their_deadline_even_after_it_was_killed(tmp_path):
    proc, base = start_embedded(tmp_path, START_WINDOW_SECONDS=str(WINDOW_SECONDS))
    try:
        ann, bob = _token(base, "ann"), _token(base, "bob")
        first = _live_game(base, ann, bob)
        deadline = datetime.fromisoformat(api_call(base, f"games/{first}/")["clock"]["deadline"])
        state = _over(base, first, within=WINDOW_SECONDS + 15)
        assert (state["status"], state["end_reason"]) == ("cancelled", "aborted")
        assert datetime.fromisoformat(state["finished_at"]) == deadline

        (worker,) = child_pids(proc.pid)
        second = _live_game(base, ann, bob)
        deadline = datetime.fromisoformat(api_call(base, f"games/{second}/")["clock"]["deadline"])
        os.kill(worker, signal.SIGKILL)  # with the game's timeout task, if it had taken it
        state = _over(base, second, within=WINDOW_SECONDS + 60)  # serve starts a worker again
        assert (state["status"], state["end_reason"]) == ("cancelled", "aborted")
        assert datetime.fromisoformat(state["finished_at"]) == deadline
    finally:
        stop_server(proc)
