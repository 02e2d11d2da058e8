"""A Redis that cannot be reached, for the tests of the server without it."""

from __future__ import annotations

import pytest

from live import bus
from pente_site import cache as text_cache
from pente_site import counters

#: A port nothing listens on: connections are refused at once.
DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def dead_cache(settings):
    """The cache pointed at a dead port, each outage this process tracks forgotten before and
    after (the cached positions', the rate limits')."""
    settings.CACHES = {
        "default": {
            "BACKEND": "pente_site.cache.RedisCache",
            "LOCATION": DEAD_REDIS,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    text_cache.outage.reset()
    counters._fallback.reset()
    yield
    text_cache.outage.reset()
    counters._fallback.reset()


@pytest.fixture
def dead_redis(settings, dead_cache):
    """The cache and the bus pointed at a dead port (the broker stays as the tests run it)."""
    settings.REDIS_URL = DEAD_REDIS
    bus._backends.pop(DEAD_REDIS, None)
    yield
    bus._backends.pop(DEAD_REDIS, None)
