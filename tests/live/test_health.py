"""``GET /api/health``: whether the database and Redis answer, and what this process did
without Redis, for an operator or a load balancer (200 while the database answers)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from live import views
from live.bus import DatabaseBackend, RedisBackend

pytestmark = pytest.mark.django_db


def health():
    return APIClient().get("/api/health")


def test_without_redis_the_health_is_ok_and_says_there_is_no_redis(monkeypatch):
    monkeypatch.setattr(views, "backend", lambda: DatabaseBackend())
    answer = health()
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ok" and body["database"] is True
    assert body["redis"] is None and body["events"] is None
    assert set(body["rate_limits_in_process"]) == {"requests", "failures", "active"}


def test_with_redis_away_the_health_is_degraded_but_still_200(monkeypatch):
    dead = RedisBackend("redis://127.0.0.1:1/0")
    monkeypatch.setattr(views, "backend", lambda: dead)
    answer = health()
    assert answer.status_code == 200
    body = answer.json()
    assert (body["status"], body["redis"]) == ("degraded", False)
    assert body["events"] == {"outbox": 0, "delivered": 0, "dropped": 0}


def test_without_the_database_the_health_is_a_503(monkeypatch):
    monkeypatch.setattr(views, "backend", lambda: DatabaseBackend())
    monkeypatch.setattr(views, "_database_answers", lambda: False)
    answer = health()
    assert answer.status_code == 503
    assert answer.json()["status"] == "down"
