"""Shared test configuration. Tests that need PostgreSQL or Redis skip themselves unless
``DATABASE_URL`` / ``REDIS_URL`` are set (CI sets both)."""

from __future__ import annotations

import os

import pytest

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
def _auth_throttle_rates_high(settings):
    """Tests register and log in far more often than the production rates allow (and the
    throttle counters outlive a test in the cache): lift the rates. Tests of the throttle set
    their own rates with the ``auth_throttle_rates`` fixture."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100000/min", "auth_username": "100000/min"},
    }


@pytest.fixture
def auth_throttle_rates(settings):
    """Set the auth throttle rates for one test: ``auth_throttle_rates(auth="3/min")``."""

    def set_rates(**rates: str) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **rates,
            },
        }

    return set_rates
