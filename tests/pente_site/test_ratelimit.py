"""Rate limits on writes: per user and per address, per scope, counted atomically, with 429,
Retry-After and RateLimit-* headers."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from pente_site import counters
from pente_site.counters import count_request
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


def client_for(user=None, ip: str = "10.0.0.1") -> APIClient:
    client = APIClient(REMOTE_ADDR=ip)
    if user is not None:
        client.force_authenticate(user)
    return client


def _move(client, game, ply, point, **extra):
    return client.post(f"/api/games/{game.pk}/moves", {"ply": ply, "point": point, **extra})


def test_moves_beyond_the_rate_get_429_with_retry_after_and_ratelimit_headers(throttle_rates):
    throttle_rates(moves="2/min")
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    first = _move(client_for(bob), game, 1, "K9")
    assert first.status_code == 200
    assert (first["RateLimit-Limit"], first["RateLimit-Remaining"]) == ("2", "1")
    assert 1 <= int(first["RateLimit-Reset"]) <= 60
    assert _move(client_for(alice), game, 2, "L10").status_code == 200  # alice's own count
    assert _move(client_for(bob), game, 3, "M11").status_code == 200
    refused = _move(client_for(bob), game, 5, "N12")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled" and refused.json()["retry_after"] >= 1
    assert int(refused["Retry-After"]) >= 1 and refused["RateLimit-Remaining"] == "0"


def test_reads_are_never_counted(throttle_rates):
    throttle_rates(moves="1/min", writes="1/min", writes_ip="1/min")
    game = make_game()
    client = client_for(UserFactory())
    assert all(client.get(f"/api/games/{game.pk}/").status_code == 200 for _ in range(5))


def test_every_write_from_one_address_is_counted_whoever_sends_it(throttle_rates):
    throttle_rates(writes_ip="2/min")
    ip = f"10.1.{uuid.uuid4().int % 250}.1"
    answers = [
        client_for(UserFactory(), ip).post("/api/me/tokens", {"name": "x"}).status_code
        for _ in range(3)
    ]
    assert answers == [201, 201, 429]


def test_messages_have_their_own_smaller_rate(throttle_rates):
    throttle_rates(messages="1/min")
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    assert _move(client_for(bob), game, 1, "K9", message="hi").status_code == 200
    assert _move(client_for(alice), game, 2, "L10", message="hello").status_code == 200
    assert _move(client_for(bob), game, 3, "M11", message="again").status_code == 429
    assert _move(client_for(bob), game, 3, "M11").status_code == 200  # no message: not counted


def test_direct_challenges_to_one_player_are_limited_whoever_sends_them(throttle_rates):
    throttle_rates(challenge_target="2/min")
    target = UserFactory(username=f"t{uuid.uuid4().hex[:8]}")
    statuses = [
        client_for(UserFactory())
        .post("/api/challenges/", {"variant": "Pente", "invitee": target.username.upper()})
        .status_code
        for _ in range(3)
    ]
    assert statuses == [201, 201, 429]
    open_challenge = client_for(UserFactory()).post("/api/challenges/", {"variant": "Pente"})
    assert open_challenge.status_code == 201  # open challenges have no target


def test_one_sender_cannot_use_up_a_players_challenges(throttle_rates):
    throttle_rates(challenge_pair="2/min", challenge_target="3/min")
    target = UserFactory(username=f"t{uuid.uuid4().hex[:8]}")
    pest = client_for(UserFactory())

    def challenge(client):
        body = {"variant": "Pente", "invitee": target.username}
        return client.post("/api/challenges/", body).status_code

    assert [challenge(pest) for _ in range(3)] == [201, 201, 429]
    assert challenge(client_for(UserFactory())) == 201  # another player still may


def test_a_challenge_refused_by_the_server_does_not_count_against_the_player(throttle_rates):
    """The limits on direct challenges count challenges sent: a request refused as malformed
    or not allowed gives its count back, so a few mistakes do not lock a player out."""
    throttle_rates(challenge_pair="2/min", challenge_target="2/min")
    target = UserFactory(username=f"t{uuid.uuid4().hex[:8]}")
    sender = client_for(UserFactory())
    mistakes = [
        {"variant": "Chess", "invitee": target.username},
        {"variant": "Pente", "invitee": target.username, "seat_wanted": 7},
        {"variant": "Pente", "invitee": target.username, "seats": 3},
    ]
    for body in mistakes:
        assert sender.post("/api/challenges/", body).status_code == 400
    body = {"variant": "Pente", "invitee": target.username}
    statuses = [sender.post("/api/challenges/", body).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]


def test_a_429_says_which_limit_was_met(throttle_rates):
    throttle_rates(challenge_pair="1/min")
    target = UserFactory(username=f"t{uuid.uuid4().hex[:8]}")
    sender = client_for(UserFactory())
    body = {"variant": "Pente", "invitee": target.username}
    assert sender.post("/api/challenges/", body).status_code == 201
    refused = sender.post("/api/challenges/", body).json()
    assert refused["detail"].startswith("Too many challenges from you to this player: try again")
    throttle_rates(moves="1/min")
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    assert _move(client_for(bob), game, 1, "K9").status_code == 200
    assert _move(client_for(bob), game, 3, "L10").json()["detail"].startswith("Too many moves:")


@pytest.mark.parametrize(
    ("scope", "path", "body", "created"),
    [
        ("tournaments", "/api/tournaments/", "tournament", 201),
        ("imports", "/api/games/import", "record", 202),  # a job, imported in the background
        ("tokens", "/api/me/tokens", {"name": "ci"}, 201),
        ("challenges", "/api/challenges/", {"variant": "Pente"}, 201),
    ],
)
def test_each_write_scope_has_its_own_limit(throttle_rates, scope, path, body, created):
    throttle_rates(**{scope: "1/min"})
    if body == "tournament":
        body = {
            "name": "Cup",
            "format": "swiss",
            "start_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        }
    elif body == "record":
        body = {"text": '[Game "Pente"]\n\n1. K10 L11\n'}
    client = client_for(UserFactory())
    assert client.post(path, body).status_code == created
    second = client.post(path, body)
    assert second.status_code == 429 and second.json()["code"] == "throttled"
    assert client_for(UserFactory()).post(path, body).status_code == created  # per user


@pytest.mark.parametrize("parallel", [40])
def test_parallel_requests_never_overshoot_a_limit(parallel):
    ident = uuid.uuid4().hex
    allowed: list[bool] = []
    lock = threading.Lock()
    start = threading.Barrier(parallel)

    def one() -> None:
        start.wait()
        ok = count_request(scope="test", ident=ident, rate="10/min", now=1_000_000.0)[0]
        with lock:
            allowed.append(ok)

    threads = [threading.Thread(target=one) for _ in range(parallel)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert allowed.count(True) == 10 and len(allowed) == parallel


def test_every_limit_a_request_meets_is_counted_in_one_round_trip(throttle_rates, monkeypatch):
    """A move with a message meets three limits (moves per user, writes per address, messages
    per user): one call counts them all, each in its own counter."""
    throttle_rates(moves="100/min", writes_ip="100/min", messages="100/min")
    calls: list[list[str]] = []
    real = counters._incr_many

    def spy(counters):
        calls.append([key.split(":")[1] for key, _timeout, _limit in counters])
        return real(counters)

    monkeypatch.setattr(counters, "_incr_many", spy)
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    assert _move(client_for(bob), game, 1, "K9", message="hi").status_code == 200
    assert len(calls) == 1 and sorted(calls[0]) == ["messages", "moves", "writes_ip"]
    calls.clear()
    assert _move(client_for(alice), game, 2, "L10").status_code == 200
    assert len(calls) == 1 and sorted(calls[0]) == ["moves", "writes_ip"]
