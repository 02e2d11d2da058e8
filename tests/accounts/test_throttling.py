"""Registration, log-in and token requests are throttled per client IP and per username."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def _client() -> APIClient:
    # A fresh address per test: the counters live in the cache (Redis when REDIS_URL is set).
    ip = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    return APIClient(REMOTE_ADDR=ip)


def _fresh_name() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


def test_login_beyond_the_per_ip_rate_gets_429_throttled_with_the_wait(throttle_rates):
    throttle_rates(auth="3/min")
    client = _client()
    body = {"username": _fresh_name(), "password": "wrong-password"}
    statuses = [client.post("/api/auth/login", body).status_code for _ in range(3)]
    assert 429 not in statuses
    response = client.post("/api/auth/login", body)
    assert response.status_code == 429
    data = response.json()
    assert data["code"] == "throttled"
    assert "try again in" in data["detail"] and data["detail"].endswith(("second.", "seconds."))
    assert 1 <= data["retry_after"] <= 60
    assert response["Retry-After"] == str(data["retry_after"])


def test_the_per_ip_count_is_shared_by_register_login_and_token(throttle_rates):
    throttle_rates(auth="2/min")
    client = _client()
    assert (
        client.post(
            "/api/auth/register", {"username": _fresh_name(), "password": "pw-123456"}
        ).status_code
        == 201
    )
    assert (
        client.post("/api/auth/token", {"username": _fresh_name(), "password": "x"}).status_code
        != 429
    )
    assert (
        client.post("/api/auth/login", {"username": _fresh_name(), "password": "x"}).status_code
        == 429
    )
    # Another address is not held back.
    assert (
        _client().post("/api/auth/login", {"username": _fresh_name(), "password": "x"}).status_code
        != 429
    )


def test_one_username_is_throttled_from_any_address_whatever_its_case(throttle_rates):
    throttle_rates(auth_username="2/min")
    user = UserFactory(username=_fresh_name())
    first = _client().post(
        "/api/auth/token", {"username": user.username, "password": TEST_PASSWORD}
    )
    assert first.status_code == 201
    # The same name in other case counts for the same account (whatever the answer).
    second = _client().post("/api/auth/login", {"username": user.username.upper(), "password": "x"})
    assert second.status_code != 429
    response = _client().post(
        "/api/auth/token", {"username": user.username, "password": TEST_PASSWORD}
    )
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    # Other usernames from the same kind of traffic still get through.
    other = UserFactory(username=_fresh_name())
    response = _client().post(
        "/api/auth/token", {"username": other.username, "password": TEST_PASSWORD}
    )
    assert response.status_code == 201


def test_a_spoofed_forwarded_for_header_does_not_reset_the_per_ip_count(throttle_rates):
    throttle_rates(auth="1/min")
    client = _client()
    body = {"username": _fresh_name(), "password": "x"}
    client.post("/api/auth/login", body, HTTP_X_FORWARDED_FOR="1.2.3.4")
    response = client.post("/api/auth/login", body, HTTP_X_FORWARDED_FOR="5.6.7.8")
    assert response.status_code == 429


def test_other_endpoints_are_not_throttled(throttle_rates):
    throttle_rates(auth="1/min", auth_username="1/min")
    client = _client()
    assert all(client.get("/api/games/").status_code == 200 for _ in range(5))
