"""Events when Redis cannot be reached: written to the database outbox in their order, never an
error to the writer; delivered to Redis in that order once it answers, before the next events.
And a whole game played in process against a dead Redis port (cache and bus): every write
answers as with Redis."""

from __future__ import annotations

import os

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from live import bus
from live.bus import RedisBackend, backend, publish
from live.models import Event
from pente_site import counters

pytestmark = pytest.mark.django_db


def test_events_that_cannot_reach_redis_wait_in_the_outbox_in_order(dead_redis):
    with TestCase.captureOnCommitCallbacks(execute=True):
        publish(channel="game:1", kind="move", data={"ply": 1})
        publish(channel="game:1", kind="move", data={"ply": 2})
        publish(channel="game:2", kind="end", data={})
    rows = list(Event.objects.order_by("id").values_list("channel", "kind", "data"))
    assert rows == [
        ("game:1", "move", {"ply": 1}),
        ("game:1", "move", {"ply": 2}),
        ("game:2", "end", {}),
    ]
    found = backend()
    assert isinstance(found, RedisBackend)
    assert found.stats["outbox"] == 3 and found.outbox_pending


def test_delivering_while_redis_is_still_away_keeps_the_outbox(dead_redis):
    with TestCase.captureOnCommitCallbacks(execute=True):
        publish(channel="game:1", kind="move", data={"ply": 1})
    with pytest.raises(bus.UNREACHABLE):
        backend().deliver_outbox()
    assert Event.objects.count() == 1


@pytest.mark.redis
def test_the_outbox_is_delivered_in_order_before_the_next_event(settings):
    """Written while Redis was away, sent first once it answers: a stream resumed from before the
    outage reads them all, in order."""
    settings.REDIS_URL = os.environ["REDIS_URL"]
    found = backend()
    channel = f"game:outbox-{os.getpid()}"
    before = found.append(channel, "move", '{"ply":0}')
    found._keep([(channel, "move", '{"ply":1}'), (channel, "move", '{"ply":2}')])
    with TestCase.captureOnCommitCallbacks(execute=True):
        publish(channel=channel, kind="move", data={"ply": 3})
    assert not Event.objects.exists()
    assert [e.data["ply"] for e in found.since(channel, before)] == [1, 2, 3]
    assert found.stats["delivered"] >= 2 and not found.outbox_pending


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_is_played_against_a_dead_redis(dead_redis):
    client = APIClient()
    tokens = {}
    for name in ("alice", "bob"):
        body = {"username": name, "password": "correct-horse-1"}
        assert client.post("/api/auth/register", body, format="json").status_code == 201
        made = client.post("/api/auth/token", body, format="json")
        assert made.status_code == 201, made.content
        tokens[name] = {"HTTP_AUTHORIZATION": f"Token {made.json()['key']}"}
    challenge = client.post(
        "/api/challenges/",
        {"variant": "Pente", "invitee": "bob", "seat_wanted": 1},
        format="json",
        **tokens["alice"],
    )
    assert challenge.status_code == 201, challenge.content
    accepted = client.post(f"/api/challenges/{challenge.json()['id']}/accept", **tokens["bob"])
    assert accepted.status_code in (200, 201), accepted.content
    game = accepted.json()["game"]
    plays = [("bob", "A1"), ("alice", "K11"), ("bob", "B1"), ("alice", "K12")]
    plays += [("bob", "C1"), ("alice", "K13"), ("bob", "D1"), ("alice", "K14")]
    for ply, (who, point) in enumerate(plays, start=1):
        played = client.post(
            f"/api/games/{game}/moves", {"ply": ply, "point": point}, format="json", **tokens[who]
        )
        assert played.status_code == 200, played.content
    said = client.post(f"/api/games/{game}/chat", {"text": "gg"}, format="json", **tokens["bob"])
    assert said.status_code == 201, said.content
    state = client.get(f"/api/games/{game}/").json()
    assert state["status"] == "finished" and [w["name"] for w in state["winners"]] == ["alice"]
    # Counted in process, and every event kept for Redis's return.
    assert counters.fallback_stats()["requests"] > 0
    kinds = list(Event.objects.filter(channel=f"game:{game}").values_list("kind", flat=True))
    assert kinds.count("move") == 8 and "end" in kinds and "chat" in kinds


@pytest.mark.redis
def test_an_event_kept_just_as_the_feed_finds_redis_again_is_delivered_at_once(
    settings, monkeypatch
):
    """Redis answers again, and the feed has already delivered the outbox, while a write still
    in its pause after a failure puts an event there: that writer delivers it itself, at once,
    rather than leaving it for its next event or the sweep."""
    settings.REDIS_URL = os.environ["REDIS_URL"]
    found = backend()
    channel = f"game:back-{os.getpid()}"
    before = found.append(channel, "move", '{"ply":0}')
    found.outage.failed()  # a write failed a moment ago: the next ones go to the outbox
    keep = found._keep

    def keep_while_the_feed_comes_back(events):
        keep(events)
        found.outage.back()  # the feed subscribed again and delivered the outbox meanwhile

    monkeypatch.setattr(found, "_keep", keep_while_the_feed_comes_back)
    found.send([(channel, "move", '{"ply":1}')])
    assert not Event.objects.exists()
    assert [e.data["ply"] for e in found.since(channel, before)] == [1]
