"""What the hills publish: ``hill_changed`` on the hill's room once its change is committed,
and the hill's room among the live rooms."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from live.models import Event, Room
from tests.hills.helpers import SLUG, members, play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _database_log(settings):
    settings.REDIS_URL = ""


def _events() -> list[dict]:
    rows = Event.objects.filter(channel="room:hill-pente-turn", kind="hill_changed")
    return [row.data for row in rows.order_by("id")]


def test_joining_and_a_set_ending_tell_the_hill_room_after_commit():
    alice, bob = members(1, 1)
    assert [e["reason"] for e in _events()] == ["joined", "joined"]
    play(alice, bob)
    reasons = [e["reason"] for e in _events()]
    assert reasons[2:] == ["challenge", "set_started", "set"]
    assert all(e["hill"] == SLUG for e in _events())


def test_the_hill_has_its_room_with_a_stream():
    members(1)
    assert Room.objects.filter(name="hill-pente-turn").exists()
    rooms = APIClient().get("/api/rooms/").json()
    names = [r["name"] for r in (rooms["results"] if isinstance(rooms, dict) else rooms)]
    assert "hill-pente-turn" in names
