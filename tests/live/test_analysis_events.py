"""The computer's analysis on the game's stream (``live.publishers.on_analysis_changed``): one
``analysis`` event when it is asked for, one per batch committed (``done`` with the last), one
when it fails; each once its transaction commits, none for a worker's claim, none for a run
that lost its claim; on the delayed spectators' channel too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from games.bots import analysis
from games.bots.models import Analysis
from games.play.actions import game_resign, move_play
from games.play.models import Game
from live.models import Event
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

#: Four stones after the centre, then a resignation: five plies to analyse.
POINTS = ["A1", "K12", "B1", "K13"]
PLIES = 5


@pytest.fixture(autouse=True)
def _fast_analysis_in_the_database_log(settings):
    settings.REDIS_URL = ""
    settings.ANALYSIS_SECONDS_PER_MOVE = 0.02
    settings.ANALYSIS_BATCH_SIZE = 2
    settings.ANALYSIS_MAX_ACTIVE = 5


@pytest.fixture
def enqueued(monkeypatch) -> list[tuple[int, int]]:
    """The analysis batches enqueued (run by hand here, one at a time)."""
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(analysis, "enqueue", lambda name, *, args: sent.append(args))
    return sent


def over(**options) -> Game:
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob], **options)
    for ply, point in enumerate(POINTS, start=1):
        move_play(game_id=game.pk, user=bob if ply % 2 else alice, ply=ply, points=[point])
    game_resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert (game.status, game.ply) == ("finished", PLIES)
    return game


def published(game: Game, *, channel: str = "") -> list[dict]:
    channel = channel or f"game:{game.pk}"
    rows = Event.objects.filter(channel=channel, kind="analysis").order_by("id")
    return [row.data for row in rows]


def asked(game: Game, user=None) -> Analysis:
    with TestCase.captureOnCommitCallbacks(execute=True):
        job, _created = analysis.analysis_request(game_id=game.pk, user=user or UserFactory())
    return job


def next_batch(enqueued: list[tuple[int, int]]) -> str:
    analysis_id, attempt = enqueued.pop(0)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return analysis.analysis_run(analysis_id=analysis_id, attempt=attempt)


def test_asking_publishes_one_pending_event_once_the_request_commits(enqueued):
    game = over()
    with TestCase.captureOnCommitCallbacks(execute=True):
        job, created = analysis.analysis_request(game_id=game.pk, user=UserFactory())
        assert created and published(game) == []  # not before the commit
    [event] = published(game)
    assert event == {
        "id": job.pk,
        "game": game.pk,
        "status": "pending",
        "progress": {"processed": 0, "total": PLIES},
        "summary": event["summary"],
        "error": None,
        "new_plies": [],
    }
    assert [(s["seat"], s["blunders"]) for s in event["summary"]] == [(1, 0), (2, 0)]
    # Asked for again (by anyone): the same analysis, nothing new on the stream.
    asked(game)
    assert len(published(game)) == 1


def test_each_batch_committed_publishes_one_event_with_its_plies_and_the_last_says_done(
    enqueued,
):
    game = over()
    job = asked(game)
    analysis_id, attempt = enqueued.pop(0)
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        assert analysis.analysis_run(analysis_id=analysis_id, attempt=attempt) == "batch"
    assert len(published(game)) == 1  # the batch is committed, its event waits for the commit
    for callback in callbacks:
        callback()
    while enqueued:
        next_batch(enqueued)
    events = published(game)
    assert [(e["status"], e["progress"]["processed"]) for e in events] == [
        ("pending", 0),
        ("pending", 2),
        ("pending", 4),
        ("done", 5),
    ]  # one per batch: the claims (pending -> running) are not told
    body = APIClient().get(f"/api/games/{game.pk}/analysis").json()
    assert body["status"] == "done"
    assert [p for e in events for p in e["new_plies"]] == body["plies"]
    assert events[-1]["summary"] == body["summary"]
    assert {e["id"] for e in events} == {job.pk}


def test_a_failure_publishes_one_failed_event_with_its_error(enqueued, settings):
    settings.ANALYSIS_MAX_ATTEMPTS = 1
    game = over()
    job = asked(game)
    next_batch(enqueued)  # two plies committed
    Analysis.objects.filter(pk=job.pk).update(
        status="running", updated_at=timezone.now() - timedelta(hours=1)
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert analysis.analyses_sweep().failed == 1
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert analysis.analyses_sweep().failed == 0  # failed once, told once
    failed = published(game)[-1]
    assert len(published(game)) == 3
    assert (failed["status"], failed["progress"], failed["new_plies"]) == (
        "failed",
        {"processed": 2, "total": PLIES},
        [],
    )
    assert failed["error"]["code"] == "interrupted"
    # Asked for again: pending, after the two plies it kept.
    asked(game)
    again = published(game)[-1]
    assert (again["status"], again["progress"]["processed"], again["error"]) == (
        "pending",
        2,
        None,
    )


def test_a_run_that_lost_its_claim_publishes_nothing(enqueued, monkeypatch):
    game = over()
    job = asked(game)
    real = analysis.pente_search

    def taken_over(position, **kwargs):  # meanwhile the sweeper gave it to another worker
        Analysis.objects.filter(pk=job.pk).update(attempt=5)
        return real(position, **kwargs)

    monkeypatch.setattr(analysis, "pente_search", taken_over)
    assert next_batch(enqueued) == "lost"
    assert [e["status"] for e in published(game)] == ["pending"]


def test_a_game_its_spectators_saw_late_has_the_events_on_their_channel_too(enqueued):
    game = over(spectator_delay=2)
    asked(game)
    while enqueued:
        next_batch(enqueued)
    delayed = published(game, channel=f"game:{game.pk}:delayed")
    assert delayed == published(game)
    assert [e["status"] for e in delayed][-1] == "done"


def test_a_game_without_a_delay_has_no_delayed_channel(enqueued):
    game = over()
    asked(game)
    assert published(game, channel=f"game:{game.pk}:delayed") == []
