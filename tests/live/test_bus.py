"""The event bus and what the games publish on it: after commit only, in order, missed events
for a reconnecting client or a reset when they are gone, and the trim of the embedded log."""

from __future__ import annotations

import json
import os
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from games.challenges import services as challenges
from games.play.actions import game_resign, move_play
from live.bus import DatabaseBackend, RedisBackend, backend, publish
from live.models import Event
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _database_log(request, settings):
    """The embedded default's log (the table) for every test but the Redis one."""
    if "redis" not in request.keywords:
        settings.REDIS_URL = ""


def kinds(channel: str) -> list[str]:
    return list(Event.objects.filter(channel=channel).order_by("id").values_list("kind", flat=True))


def test_an_event_is_published_when_the_transaction_commits_and_not_before():
    with TestCase.captureOnCommitCallbacks(execute=True):
        with transaction.atomic():
            publish(channel="game:1", kind="move", data={"ply": 2})
            assert not Event.objects.exists()
    assert kinds("game:1") == ["move"]


def test_a_rolled_back_transaction_publishes_nothing():
    with TestCase.captureOnCommitCallbacks(execute=True):
        try:
            with transaction.atomic():
                publish(channel="game:1", kind="move", data={"ply": 2})
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert not Event.objects.exists()


def test_a_client_gets_what_it_missed_on_its_own_channel_only():
    log = DatabaseBackend()
    first = log.append("game:1", "move", '{"ply": 2}')
    log.append("game:2", "move", '{"ply": 2}')
    second = log.append("game:1", "end", "{}")
    missed = log.since("game:1", first)
    assert [(e.id, e.kind) for e in missed] == [(second, "end")]
    assert log.since("game:1", second) == []


def test_ids_never_given_out_or_trimmed_away_get_a_reset():
    log = DatabaseBackend()
    old = log.append("game:1", "move", "{}")
    log.append("game:1", "move", "{}")
    newest = log.append("game:1", "move", "{}")
    assert log.since("game:1", str(int(newest) + 10)) is None  # never given out
    assert log.since("game:1", "abc") is None
    Event.objects.filter(pk__lt=newest).update(created_at=timezone.now() - timedelta(days=1))
    assert log.trim() == 2
    assert Event.objects.count() == 1  # the newest stays
    assert log.since("game:1", old) is None  # the events after it are gone


def test_a_move_publishes_the_new_moves_and_the_state_and_the_end_tells_the_players():
    alice, bob, bot = UserFactory(), UserFactory(), UserFactory(is_computer=True, bot_level=1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = make_game(players=[alice, bob])
    with TestCase.captureOnCommitCallbacks(execute=True):
        move_play(game_id=game.pk, user=bob, ply=1, points=["A1"])
    event = Event.objects.filter(channel=f"game:{game.pk}").last()
    assert event.kind == "move"
    assert [m["name"] for m in event.data["moves"]] == ["A1"]
    assert event.data["state"]["ply"] == 2 and event.data["state"]["to_move"]["seat"] == 1
    assert "server_time" in event.data["state"] and "moves" not in event.data["state"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_resign(game_id=game.pk, user=alice)
    assert kinds(f"game:{game.pk}")[-1] == "end"
    assert kinds(f"user:{alice.pk}")[-1] == "game_over"
    assert kinds(f"user:{bob.pk}")[-2:] == ["your_turn", "game_over"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        computer_game = make_game(players=[alice, bot])
        game_resign(game_id=computer_game.pk, user=alice)
    assert not Event.objects.filter(channel=f"user:{bot.pk}").exists()  # computers get none


def test_the_events_of_a_move_go_out_in_one_call_built_after_the_write(monkeypatch):
    """A move's state for the game's channel (built once the write is done) and the next
    player's ``your_turn``: one call to the log, the state first."""
    alice, bob = UserFactory(), UserFactory()
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = make_game(players=[alice, bob])
    with TestCase.captureOnCommitCallbacks(execute=True):
        move_play(game_id=game.pk, user=bob, ply=1, points=["A1"])  # row and position cached
    calls = []
    log = backend()
    real = log.append_many

    def spy(events):
        calls.append([(channel, kind) for channel, kind, _data in events])
        return real(events)

    monkeypatch.setattr(log, "append_many", spy)
    with TestCase.captureOnCommitCallbacks(execute=True):
        move_play(game_id=game.pk, user=alice, ply=2, points=["A3"])
    assert calls == [[(f"game:{game.pk}", "move"), (f"user:{bob.pk}", "your_turn")]]
    event = Event.objects.filter(channel=f"game:{game.pk}").last()
    assert event.data["state"]["ply"] == 3 and [m["name"] for m in event.data["moves"]] == ["A3"]


def test_challenges_reach_the_invitee_and_their_answers_the_creator():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    with TestCase.captureOnCommitCallbacks(execute=True):
        made = challenges.challenge_create(creator=alice, variant="Pente", invitee_username="bob")
        challenges.challenge_decline(challenge_id=made.pk, user=bob)
    assert kinds(f"user:{bob.pk}") == ["challenge_received", "challenge_declined"]
    assert kinds(f"user:{alice.pk}") == ["challenge_declined"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        late = challenges.challenge_create(creator=alice, variant="Pente", invitee_username="bob")
        challenges.challenges_expire_due(now=timezone.now() + timedelta(days=30))
    assert kinds(f"user:{alice.pk}")[-1] == "challenge_expired"
    assert Event.objects.filter(kind="challenge_expired").last().data["id"] == late.pk


def test_a_stream_asked_of_a_wsgi_server_says_it_needs_asgi():
    game = make_game()
    response = APIClient().get(f"/api/games/{game.pk}/events")
    assert response.status_code == 503
    assert response.json()["code"] == "streams_need_asgi"


@pytest.mark.redis
def test_redis_keeps_a_bounded_log_and_resets_a_client_behind_it(settings):
    settings.LIVE_EVENTS_KEEP = 5
    log = RedisBackend(os.environ["REDIS_URL"])
    channel = f"test:{os.getpid()}:{timezone.now().timestamp()}"
    ids = [log.append(channel, "move", json.dumps({"n": n})) for n in range(3)]
    assert [e.data["n"] for e in log.since(channel, ids[0])] == [1, 2]
    assert log.since(channel, ids[2]) == []
    for n in range(3, 300):  # far past the cap: the oldest are trimmed
        log.append(channel, "move", json.dumps({"n": n}))
    assert log.since(channel, ids[0]) is None
    assert log.since(channel, "0-1") is None  # older than anything kept
    assert backend() is not None
