"""The Redis cache backend: one client per connection pool, and an atomic expiring counter."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache, caches

from pente_site.cache import RedisCache

pytestmark = pytest.mark.redis


def test_the_configured_cache_is_the_shared_client_backend():
    assert isinstance(caches["default"], RedisCache)


def test_the_cache_hands_out_one_client_per_pool():
    first = cache._cache.get_client("a", write=True)
    assert cache._cache.get_client("b", write=True) is first


def test_a_counter_starts_at_one_counts_up_and_expires_with_its_window():
    key = f"test-counter-{uuid.uuid4().hex}"
    assert [cache.incr_with_expiry(key, 30) for _ in range(3)] == [1, 2, 3]
    client = cache._cache.get_client(key, write=True)
    ttl = client.ttl(cache.make_and_validate_key(key))
    assert 0 < ttl <= 30
    assert cache.get(key) == 3  # the plain cache reads the counter as Django stores integers
