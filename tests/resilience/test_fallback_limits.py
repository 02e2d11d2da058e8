"""The rate limits without Redis: counted in the process with the same windows and limits, all
or none, a warning at most once a minute, and a count of the requests counted that way."""

from __future__ import annotations

import logging

import pytest
import redis
from rest_framework.test import APIClient

from pente_site import counters


class UnreachableCache:
    """A Redis cache whose server is gone: every call fails as redis-py fails."""

    calls = 0

    def incr_many_within(self, counters_):
        UnreachableCache.calls += 1
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    def get(self, key, default=None):
        raise redis.ConnectionError("Connection refused.")

    def decr(self, key):
        raise redis.ConnectionError("Connection refused.")


@pytest.fixture
def redis_gone(monkeypatch):
    counters._fallback.reset()
    UnreachableCache.calls = 0
    monkeypatch.setattr(counters, "cache", UnreachableCache())
    yield
    counters._fallback.reset()


NOW = 1_800_000_000.0 + 1_800  # the middle of an hour: no window ends during a test


def test_without_redis_a_limit_still_refuses_past_its_rate(redis_gone):
    limit = [("moves", "user:1", "3/min")]
    answers = [counters.count_requests(limit, now=NOW)[0] for _ in range(4)]
    assert [allowed for allowed, *_ in answers] == [True, True, True, False]
    assert [remaining for _a, _l, remaining, _r in answers] == [2, 1, 0, 0]
    assert counters.fallback_stats()["requests"] == 4


def test_without_redis_limits_are_counted_all_or_none(redis_gone):
    tight, wide = ("pair", "a>b", "1/min"), ("target", "b", "10/min")
    assert counters.count_requests([tight, wide], now=NOW)[0][0]
    refused = counters.count_requests([tight, wide], now=NOW)
    assert not refused[0][0]
    # The refused request used up nothing of the wide limit: 9 left after the one counted.
    assert counters.count_requests([wide], now=NOW)[0][2] == 8


def test_without_redis_a_window_ends_as_in_redis(redis_gone, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(counters.time, "monotonic", lambda: clock[0])
    counters._fallback.reset()
    limit = [("chat_burst", "user:1", "1/10s")]
    assert counters.count_requests(limit, now=NOW)[0][0]
    assert not counters.count_requests(limit, now=NOW)[0][0]
    clock[0] += 12  # the 10 s window (and its second of grace) is over
    assert counters.count_requests(limit, now=NOW)[0][0]  # the same key, expired here


def test_redis_is_left_alone_for_a_while_then_tried_again(redis_gone, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(counters.time, "monotonic", lambda: clock[0])
    counters._fallback.reset()
    limit = [("writes", "user:1", "100/min")]
    for _ in range(5):
        counters.count_requests(limit, now=NOW)
    assert UnreachableCache.calls == 1  # one failure, then the process counts alone
    assert counters.fallback_stats()["active"]
    clock[0] += counters.FALLBACK_SECONDS + 0.1
    counters.count_requests(limit, now=NOW)
    assert UnreachableCache.calls == 2


def test_the_outage_is_logged_at_most_once_a_minute(redis_gone, monkeypatch, caplog):
    clock = [1000.0]
    monkeypatch.setattr(counters.time, "monotonic", lambda: clock[0])
    counters._fallback.reset()
    limit = [("writes", "user:1", "100/min")]
    with caplog.at_level(logging.WARNING, logger="pente_site.counters"):
        for _ in range(6):  # a failure every 10 s for a minute
            counters._fallback.outage.back()
            counters.count_requests(limit, now=NOW)
            clock[0] += 10
        counters._fallback.outage.back()
        counters.count_requests(limit, now=NOW)
    warnings = [r for r in caplog.records if "counting in this process" in r.getMessage()]
    assert len(warnings) == 2
    assert counters.fallback_stats()["failures"] == 7


def test_a_refused_request_is_taken_back_from_the_process_counters(redis_gone):
    limit = [("challenge_target", "b", "1/min")]
    assert counters.count_requests(limit, now=NOW)[0][0]
    counters.uncount_requests(limit, now=NOW)
    assert counters.count_requests(limit, now=NOW)[0][0]


@pytest.mark.django_db
def test_without_redis_sign_up_and_tokens_answer_and_the_auth_limit_holds(
    redis_gone, throttle_rates
):
    throttle_rates(auth="3/min")
    client = APIClient()
    body = {"username": "carol", "password": "correct-horse-1"}
    assert client.post("/api/auth/register", body, format="json").status_code == 201
    assert client.post("/api/auth/token", body, format="json").status_code == 201
    assert client.post("/api/auth/token", body, format="json").status_code == 201
    refused = client.post("/api/auth/token", body, format="json")
    assert refused.status_code == 429, refused.content
