"""Games against every level with a REAL Celery worker on the ``bots`` queue (Redis broker,
PostgreSQL, committed transactions), a lost move task sent again by the resend sweeper, a worker
process killed in the middle of a think, and one killed just after a human's move while beat
runs on: the next worker answers within seconds."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.bots.models import BotTurn
from games.bots.tasks import bots_resend
from games.play.actions import move_play
from games.play.create import game_create
from games.play.models import Game
from pente_site.celery import app
from tests.factories import UserFactory
from tests.servers import ROOT
from tests.workers import running_worker

BOT_QUEUES = ["celery", "bots"]

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.BOT_THINK_SCALE = 0.02  # level 8 thinks 0.1 s: a whole game in a few seconds


@pytest.fixture
def bots_worker(not_eager):
    """A worker taking the default and the ``bots`` queues."""
    with running_worker(concurrency=2, queues=BOT_QUEUES) as w:
        yield w


def _wait_turn(client, url: str, timeout: float = 20.0) -> dict:
    """The state once it is the human's turn (seat 1) or the game is over."""
    end = time.monotonic() + timeout
    while True:
        state = client.get(url).json()
        if state["status"] != "in_progress" or state["to_move"]["seat"] == 1:
            return state
        if time.monotonic() > end:
            raise AssertionError(f"the computer did not move: {state['ply']}")
        time.sleep(0.02)


@pytest.mark.parametrize("level", range(1, 9))
def test_a_game_against_each_level_is_played_to_its_end_by_the_worker(bots_worker, level):
    human = UserFactory()
    bot = UserFactory(username=f"computer{level}", is_computer=True, bot_level=level)
    game = game_create(variant="Pente", players=[human, bot])  # the computer moves second
    client = APIClient()
    client.force_authenticate(human)
    url = f"/api/games/{game.pk}/"
    rng = random.Random(level)
    for _ in range(180):
        state = _wait_turn(client, url)
        if state["status"] != "in_progress":
            break
        taken = {s["point"] for s in state["board"]["stones"]}
        free = [p for p in range(361) if p not in taken]
        for point in rng.sample(free, len(free)):
            body = {"ply": state["ply"], "point": point}
            if client.post(f"/api/games/{game.pk}/moves", body, format="json").status_code == 200:
                break
    game.refresh_from_db()
    assert game.status == "finished"


def _overdue(game: Game) -> None:
    """Time passes: the computer's move in ``game`` is late."""
    BotTurn.objects.filter(game=game).update(resend_at=timezone.now() - timedelta(seconds=1))


def test_a_lost_move_task_is_played_after_the_sweeper_sends_it_again(not_eager):
    human = UserFactory()
    bot = UserFactory(username="computer1", is_computer=True, bot_level=1)
    game = game_create(variant="Pente", players=[human, bot])  # the computer's turn: task sent
    app.control.purge()  # ... and lost with its worker before anyone ran it
    _overdue(game)
    with running_worker(concurrency=2, queues=BOT_QUEUES):
        assert bots_resend.apply().get()["resent"] == 1  # what beat runs: the move is sent again
        deadline = time.monotonic() + 15
        while Game.objects.get(pk=game.pk).ply < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert Game.objects.get(pk=game.pk).ply == 2


def _test_database_url() -> str:
    """The ``DATABASE_URL`` of the database this test runs on (pytest-django's test copy)."""
    name = connection.settings_dict["NAME"]
    return urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}"))


def test_a_worker_killed_while_the_computer_thinks_loses_nothing(not_eager, tmp_path):
    """A separate worker process takes the computer's move, starts a long think and is killed
    (SIGKILL): the move is neither played nor lost; once its think time and the grace have
    passed the sweeper sends it again and another worker plays it once."""
    human = UserFactory()
    bot = UserFactory(username="computer8", is_computer=True, bot_level=8)
    env = os.environ | {
        "DATABASE_URL": _test_database_url(),
        "BOT_THINK_SCALE": "40",  # level 8 thinks 200 s: it is surely killed mid-think
    }
    log = tmp_path / "worker.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pente_site", "worker", "-Q", "bots"]
            + ["--pool", "solo", "--loglevel", "INFO"]
            + ["--without-heartbeat", "--without-gossip", "--without-mingle"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # Connect6: no book move for its two stones, so the computer thinks from its first turn.
        game = game_create(variant="Connect6", players=[human, bot])
        deadline = time.monotonic() + 60
        while "games.bots.move[" not in log.read_text():  # the worker logs the task received
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the worker never took the task\n" + log.read_text()
            time.sleep(0.1)
        time.sleep(0.5)  # well inside its think
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    assert Game.objects.get(pk=game.pk).ply == 1, "killed mid-think: no move"
    _overdue(game)  # its worker's claim ran out (the 200 s think it never finished)
    with running_worker(concurrency=2, queues=BOT_QUEUES):
        assert bots_resend.apply().get()["resent"] == 1
        deadline = time.monotonic() + 20
        while Game.objects.get(pk=game.pk).ply < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
    game = Game.objects.get(pk=game.pk)
    assert game.ply == 3 and game.moves.filter(seat=2).count() == 2  # its two stones, once


def _celery(*args: str, log, env: dict[str, str]) -> subprocess.Popen:
    """A Celery process of this project (a worker or beat) in its own process group."""
    with open(log, "w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pente_site", *args, "--loglevel", "INFO"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _wait_log(proc: subprocess.Popen, log, text: str, *, count: int = 1) -> None:
    deadline = time.monotonic() + 90
    while log.read_text().count(text) < count:
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, f"never logged {text!r}\n" + log.read_text()
        time.sleep(0.05)


def _wait_ply(game: Game, ply: int, within: float) -> float:
    """Seconds until ``game`` reaches ``ply`` (fails after ``within``)."""
    start = time.monotonic()
    while Game.objects.get(pk=game.pk).ply < ply:
        assert time.monotonic() - start < within, f"game {game.pk} never reached ply {ply}"
        time.sleep(0.05)
    return time.monotonic() - start


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


@pytest.mark.slow
def test_a_bots_worker_killed_after_a_humans_move_costs_the_computer_seconds(not_eager, tmp_path):
    """Production's shape: beat runs on while the only ``bots`` worker is killed holding the
    computer's task (received while it thought on another game, so never started: lost until
    Redis's visibility timeout, an hour). The resend sweeper sends the move again a few
    seconds after it was due, and a new worker plays it within 5 s of starting."""
    human = UserFactory()
    bot = UserFactory(username="computer1", is_computer=True, bot_level=1)
    other = UserFactory(username="computer8", is_computer=True, bot_level=8)
    # Thinks four times as long: the busy think below holds the one thread for 20 s, so that
    # the computer's next task is still waiting when the worker is killed, however loaded.
    env = os.environ | {"DATABASE_URL": _test_database_url(), "BOT_THINK_SCALE": "4"}
    beat_log, worker_log = tmp_path / "beat.log", tmp_path / "worker.log"
    beat = _celery("beat", "--schedule", str(tmp_path / "beat-schedule"), log=beat_log, env=env)
    # One thread: a think holds it, and the tasks received meanwhile wait, unacknowledged.
    # Prefetching two makes sure the next task is received while the think goes on (with the
    # production setting of one, Redis's transport only sometimes hands it over early).
    worker = _celery(
        "worker", "-Q", "bots", "--pool", "threads", "--concurrency", "1",
        "--prefetch-multiplier", "2",
        *("--without-heartbeat", "--without-gossip", "--without-mingle"),
        log=worker_log, env=env,
    )  # fmt: skip
    try:
        _wait_log(beat, beat_log, "beat: Starting")
        game = game_create(variant="Pente", players=[human, bot])
        _wait_ply(game, 2, within=90)  # the worker answers the computer's first turn
        busy = game_create(variant="Connect6", players=[UserFactory(), other])  # 20 s of think
        _wait_log(worker, worker_log, "] received", count=2)
        taken = set(game.moves.values_list("point", flat=True))
        point = next(p for p in (160, 162, 198, 200) if p not in taken)
        move_play(game_id=game.pk, user=human, ply=2, points=[point])
        _wait_log(worker, worker_log, "] received", count=3)  # received, not started
        _stop(worker)
        assert Game.objects.get(pk=game.pk).ply == 3, "the computer's task was lost unplayed"
        with running_worker(concurrency=2, queues=BOT_QUEUES):
            answered_in = _wait_ply(game, 4, within=30)
        assert answered_in < 5, f"the computer moved {answered_in:.1f} s after the new worker"
        assert Game.objects.get(pk=game.pk).moves.filter(seat=2).count() == 2  # once each turn
        assert Game.objects.get(pk=busy.pk).ply >= 1
    finally:
        _stop(worker)
        _stop(beat)
