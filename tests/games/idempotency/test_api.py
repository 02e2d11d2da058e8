"""``Idempotency-Key`` on the API's creating operations: the same key sent again gets the first
answer and creates nothing more; another key creates again; a key sent with another request is
refused; an expired key counts no more; a refusal keeps no answer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.challenges.models import Challenge
from games.idempotency.models import IdempotencyKey
from games.idempotency.services import idempotency_keys_sweep
from games.play.models import Game
from tests.clients import client_for
from tests.factories import UserFactory
from tests.tournaments.support import create_body
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def computer():
    return UserFactory(username="computer3", is_computer=True, bot_level=3)


def post(user, path, body, key=None):
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client_for(user).post(path, body, format="json", headers=headers)


def challenge(user, key=None, **body):
    return post(user, "/api/challenges/", {"variant": "Pente", **body}, key)


def test_the_same_key_twice_gets_the_first_answer_and_creates_one_challenge(alice):
    first = challenge(alice, "k-1")
    second = challenge(alice, "k-1")
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Challenge.objects.count() == 1


def test_two_keys_create_two_challenges(alice):
    assert challenge(alice, "k-1").status_code == 201
    assert challenge(alice, "k-2").status_code == 201
    assert Challenge.objects.count() == 2


def test_without_a_key_each_request_creates(alice):
    challenge(alice)
    challenge(alice)
    assert Challenge.objects.count() == 2
    assert not IdempotencyKey.objects.exists()


def test_a_key_sent_with_another_body_is_refused(alice):
    assert challenge(alice, "k-1", rated=False).status_code == 201
    again = challenge(alice, "k-1", rated=True)
    assert again.status_code == 409
    assert again.json()["code"] == "idempotency_key_reused"
    assert Challenge.objects.count() == 1


def test_a_key_sent_to_another_operation_is_refused(alice):
    assert challenge(alice, "k-1").status_code == 201
    again = post(alice, "/api/tournaments/", {"name": "x"}, "k-1")
    assert again.status_code == 409 and again.json()["code"] == "idempotency_key_reused"


def test_the_same_key_from_two_users_is_two_requests(alice):
    bob = UserFactory(username="bob")
    challenge(alice, "k-1")
    challenge(bob, "k-1")
    assert Challenge.objects.count() == 2


def test_the_same_json_in_another_key_order_is_the_same_request(alice):
    first = challenge(alice, "k-1", rated=False, time_control="turn", days_per_move=3)
    body = {"days_per_move": 3, "time_control": "turn", "rated": False, "variant": "Pente"}
    again = post(alice, "/api/challenges/", body, "k-1")
    assert again.status_code == 201 and again.json() == first.json()
    assert Challenge.objects.count() == 1


def test_a_refused_request_keeps_no_answer_and_its_key_may_be_sent_again(alice):
    refused = challenge(alice, "k-1", variant="Chess")
    assert refused.status_code == 400
    assert not IdempotencyKey.objects.exists()
    assert challenge(alice, "k-1").status_code == 201
    assert Challenge.objects.count() == 1


def test_a_bad_key_is_refused(alice):
    response = challenge(alice, "x" * 256)
    assert response.status_code == 400 and response.json()["code"] == "bad_idempotency_key"
    assert not Challenge.objects.exists()


def test_an_expired_key_counts_no_more(alice, settings):
    settings.IDEMPOTENCY_KEY_TTL = timedelta(hours=1)
    challenge(alice, "k-1")
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert challenge(alice, "k-1").status_code == 201
    assert Challenge.objects.count() == 2


def test_the_sweeper_deletes_expired_keys_only(alice, settings):
    settings.IDEMPOTENCY_KEY_TTL = timedelta(hours=1)
    challenge(alice, "old")
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=2))
    challenge(alice, "new")
    assert idempotency_keys_sweep() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]


def test_a_game_against_the_computer_is_started_once(alice, computer):
    first = challenge(alice, "k-1", invitee="computer3")
    second = challenge(alice, "k-1", invitee="computer3")
    assert first.status_code == second.status_code == 201
    assert second.json()["game"] == first.json()["game"]
    assert Game.objects.count() == 1


def test_an_open_challenge_is_posted_once(alice):
    first = challenge(alice, "k-1", seats=3)
    second = challenge(alice, "k-1", seats=3)
    assert second.json() == first.json()
    assert Challenge.objects.count() == 1


def test_a_tournament_is_created_once(alice):
    body = create_body()
    first = post(alice, "/api/tournaments/", body, "t-1")
    second = post(alice, "/api/tournaments/", body, "t-1")
    assert first.status_code == second.status_code == 201
    assert second.json()["id"] == first.json()["id"]
    assert Tournament.objects.count() == 1


def test_the_schema_declares_the_header(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/challenges/", "/api/tournaments/"):
        names = [p["name"] for p in schema["paths"][path]["post"].get("parameters", [])]
        assert "Idempotency-Key" in names, path
