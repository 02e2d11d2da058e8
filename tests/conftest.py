"""Shared test configuration. Tests that need PostgreSQL or Redis skip themselves unless
``DATABASE_URL`` / ``REDIS_URL`` are set (CI sets both)."""

from __future__ import annotations

import os
import uuid

import pytest

from games.play import positions
from pente_site import counters
from tests.migrations import migrate_to_latest

#: ``not_eager`` and ``worker``: real Celery workers for the end-to-end tests.
pytest_plugins = ["tests.workers"]

HAVE_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
HAVE_REDIS = bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config, items):
    skip_pg = pytest.mark.skip(reason="needs DATABASE_URL pointing at PostgreSQL")
    skip_redis = pytest.mark.skip(reason="needs REDIS_URL")
    for item in items:
        if "postgres" in item.keywords and not HAVE_POSTGRES:
            item.add_marker(skip_pg)
        if "redis" in item.keywords and not HAVE_REDIS:
            item.add_marker(skip_redis)


@pytest.fixture(autouse=True, scope="session")
def _celery_eager():
    """Tasks run inline in tests; tests marked ``redis`` start a real worker and turn this off."""
    from pente_site.celery import app

    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Hashing with the production hasher costs ~0.3 s a user; tests need no such strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _throttle_rates_high(settings):
    """Tests write far more often than the production rates allow: lift every rate, and give
    each test counters of its own (a key prefix), since the cache outlives a test. Tests of the
    limits set their own rates with the ``throttle_rates`` fixture."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict.fromkeys(settings.THROTTLE_RATES, "100000/min"),
    }
    settings.RATELIMIT_KEY_PREFIX = f"rl-test-{uuid.uuid4().hex}"


@pytest.fixture(autouse=True)
def _positions_cached_per_test(monkeypatch):
    """Cached game positions outlive a test, and SQLite gives a rolled-back test's game ids to
    the next test: each test keeps its positions under a key prefix of its own."""
    monkeypatch.setattr(positions, "CACHE_PREFIX", f"position-test-{uuid.uuid4().hex}")


@pytest.fixture
def throttle_rates(settings, monkeypatch):
    """Set rates for one test: ``throttle_rates(auth="3/min", moves="5/min")``. The windows'
    clock stands still in the middle of an hour, so that no window ends during the test."""
    monkeypatch.setattr(counters, "clock", lambda: 1_800_000_000.0 + 1_800)

    def set_rates(**rates: str) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **rates,
            },
        }

    return set_rates


@pytest.fixture
def at_latest_afterwards():
    """Whatever happens in the test (data migrations' tests), leave the schema migrated to the
    latest state."""
    yield
    migrate_to_latest()
