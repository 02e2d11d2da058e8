"""Loss on time with a REAL Celery worker (Redis broker, PostgreSQL, committed transactions).

Run with e.g. ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/pente_clocks
REDIS_URL=redis://127.0.0.1:6379/4``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.clocks.tasks import game_timeout, sweep_timeouts
from games.clocks.timecontrol import TimeControl
from games.management.commands.serve import celery_worker_argv
from games.play.actions import move_play
from games.play.create import game_create
from games.play.models import Game
from pente_site.celery import app
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

K9 = 199


def live_game(*, increment: int) -> Game:
    """A live game whose clocks run from the start (no start window), so seat 2 loses on time."""
    return game_create(
        variant="Pente",
        players=[UserFactory(), UserFactory()],
        time_control=TimeControl.from_fields(
            time_control="live", initial_minutes=0, increment_seconds=increment
        ),
        on_absence="none",
    )


def wait_finished(game: Game, timeout: float = 10.0) -> Game:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            return game
        time.sleep(0.05)
    return game


def test_the_task_closes_a_live_game_whose_clock_runs_out(worker):
    game = live_game(increment=1)  # seat 2 has 1 s
    deadline = game.deadline
    game = wait_finished(game)
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1])
    assert game.finished_at == deadline
    assert game.updated_at - deadline < timedelta(seconds=2)  # when the task closed it


def test_with_the_worker_stopped_the_sweeper_closes_the_game(not_eager):
    game = live_game(increment=1)
    time.sleep(max(0.0, (game.deadline - timezone.now()).total_seconds()) + 0.2)
    game.refresh_from_db()
    assert game.status == "in_progress"  # nobody ran the task
    result = sweep_timeouts.apply().get()  # what beat runs
    game.refresh_from_db()
    assert result["timed_out"] == 1
    assert (game.status, game.end_reason) == ("finished", "timeout")


def test_a_move_just_before_the_deadline_wins_the_race(worker):
    game = live_game(increment=3)
    seat2 = game.seat_rows.get(seat=2).user
    first_deadline = game.deadline
    time.sleep(max(0.0, (first_deadline - timezone.now()).total_seconds() - 0.4))
    move_play(game_id=game.pk, user=seat2, ply=1, points=[K9])
    time.sleep(max(0.0, (first_deadline - timezone.now()).total_seconds()) + 0.8)
    game.refresh_from_db()
    assert (game.status, game.ply) == ("in_progress", 2)  # the first task found a stale ply
    game = wait_finished(game)
    assert (game.end_reason, game.winner_seats) == ("timeout", [2])  # seat 1 ran out later


def test_running_the_task_twice_changes_nothing(worker):
    game = live_game(increment=1)
    game = wait_finished(game)
    assert game.status == "finished"
    before = (game.status, game.winner_seats, game.finished_at, game.updated_at)
    for _ in range(2):
        game_timeout.delay(game.pk, game.ply)
        game_timeout.delay(game.pk, game.ply - 1)
    time.sleep(1.0)
    game.refresh_from_db()
    assert (game.status, game.winner_seats, game.finished_at, game.updated_at) == before


def _worker_process(tmp_path, name: str, *options: str, **env_extra: str):
    """A real worker process on the test database and the Redis broker (killable)."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "PENTE_VAR_DIR": str(tmp_path / name),
        **env_extra,
    }
    argv = celery_worker_argv(
        "--concurrency", "2", "--without-gossip", "--without-mingle", *options
    )
    log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


def _wait_for_a_worker(timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if app.control.ping(timeout=0.5):
            return
    pytest.fail("no worker answered")


def test_a_killed_workers_timeout_is_closed_within_seconds_by_the_next_workers_sweeper(
    not_eager, tmp_path
):
    first = _worker_process(tmp_path, "first")
    second = None
    try:
        _wait_for_a_worker()
        game = live_game(increment=4)  # seat 2 has 4 s; the first worker holds the eta task
        deadline = game.deadline
        time.sleep(1.5)
        os.killpg(first.pid, signal.SIGKILL)  # its task now waits out Redis' visibility timeout
        first.wait(timeout=10)
        started = timezone.now()
        second = _worker_process(
            tmp_path,
            "second",
            "-B",
            "--schedule",
            str(tmp_path / "beat-schedule"),
            SWEEP_INTERVAL_SECONDS="600",  # the other sweepers: not in this test's time
            TIMEOUT_SWEEP_SECONDS="1",
        )
        game = wait_finished(game, timeout=30)
        assert (game.status, game.end_reason) == ("finished", "timeout")
        assert game.finished_at == deadline  # closed late, finished at the deadline
        assert game.updated_at - max(deadline, started) < timedelta(seconds=15)
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
