"""Shared test configuration. Tests that need PostgreSQL or Redis skip themselves unless
``DATABASE_URL`` / ``REDIS_URL`` are set (CI sets both).

Markers (``pyproject.toml``): ``postgres``, ``redis``, ``browser`` (given here to every test that
uses the ``browser`` fixture of ``tests/web/``) and ``slow`` (more than about 5 s alone).
``-m "not slow and not browser"`` runs the quick part.

Run in parallel (``-n auto``, pytest-xdist), each worker has its own test database
(pytest-django's ``_gw0``, ``_gw1``... suffixes) and its own Redis database: worker ``gwK`` of a
suite given ``REDIS_URL=redis://.../N`` uses database ``N - K`` (modulo 16), or the K-th of
``REDIS_TEST_DATABASES`` (``15,14,13``) when that is set, so that one worker's purge of the Celery
queues, its workers and its event streams never meet another's. The databases must be free.
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings
from pytest_django.plugin import blocking_manager_key
from xdist.scheduler import WorkStealingScheduling

from games.bots import warmup
from games.play import positions
from pente_site import counters
from pente_site.celery import app as celery_app
from tests import migrations, servers
from tests.resilience.redis_proxy import SwitchableRedis

#: ``not_eager`` and ``worker``: real Celery workers for the end-to-end tests.
pytest_plugins = ["tests.workers"]


def _one_redis_database_per_worker() -> None:
    """Worker ``gwK`` of pytest-xdist moves ``REDIS_URL`` to database ``N - K`` (or the K-th of
    ``REDIS_TEST_DATABASES``) before any cache, broker or event stream connects; servers and
    Celery workers the tests start inherit it through the environment."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL", "")
    if not url or not worker.startswith("gw"):
        return
    k = int(worker[2:])
    parts = urlsplit(url)
    named = os.environ.get("REDIS_TEST_DATABASES", "").split(",")
    if named != [""]:
        db = int(named[k])  # too few named for the workers: an IndexError says so
    else:
        db = (int(parts.path.strip("/") or 0) - k) % 16
    ours = urlunsplit(parts._replace(path=f"/{db}"))
    os.environ["REDIS_URL"] = settings.REDIS_URL = settings.CELERY_BROKER_URL = ours
    settings.CACHES["default"]["LOCATION"] = ours
    celery_app.conf.broker_url = ours


_one_redis_database_per_worker()

# Property tests are seeded: each draws the same examples on every run (``derandomize``), so a
# failure in CI fails again anywhere, with its example and a ``@reproduce_failure`` line
# printed. ``HYPOTHESIS_PROFILE=explore`` draws new examples, and prints the seed of a failure.
hypothesis_settings.register_profile("seeded", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("explore", print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "seeded"))
HAVE_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
HAVE_REDIS = bool(os.environ.get("REDIS_URL"))


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: absent under -p no:xdist
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the machine has cores. Many tests spend their time
    waiting on a server, a browser or a Celery worker they started, so a third worker on two
    cores keeps them busy."""
    return (os.cpu_count() or 1) + 1


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: absent under -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    """Under ``-n``, work stealing: each worker starts with a contiguous half of the tests and an
    idle worker takes half of what another has left. A module's tests stay together (its
    module-scoped fixtures, such as a server, start once, and migration tests follow one another,
    see ``tests/migrations.py``), and no worker idles at the end behind a slow test."""
    return WorkStealingScheduling(config, log)


def pytest_configure(config):
    """The compiled search (numba) built once, in the main process, before any xdist worker
    starts: workers then load it from numba's on-disk cache instead of compiling it at once
    each (``games.bots.warmup``)."""
    if not hasattr(config, "workerinput"):
        warmup.warm()


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
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


@pytest.fixture(autouse=True, scope="session")
def _one_migrated_server_database_per_run(tmp_path_factory):
    """The servers the tests start copy one database, migrated once for the run: in the base
    temp folder that every xdist worker shares (its parent's, under xdist)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    servers.TEMPLATE_DIR = shared / "migrated-server-database"
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
    """Whatever happens in the test (data migrations' tests), the schema is migrated to the
    latest state before the next test that needs it (``tests/migrations.py``)."""
    yield
    migrations.leave_behind()


#: Fixtures through which a test reaches the test database (``item.fixturenames`` holds every
#: fixture a test uses, directly or not).
_DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_setup"}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before a test that uses the database and is not a migration test, bring the schema a
    migration test left behind up to the latest state (before the test's own transaction)."""
    if not migrations.behind or "at_latest_afterwards" in item.fixturenames:
        return
    if item.get_closest_marker("django_db") or _DATABASE_FIXTURES & set(item.fixturenames):
        with item.config.stash[blocking_manager_key].unblock():
            migrations.catch_up()


@pytest.fixture
def switchable_redis():
    """A relay to ``REDIS_URL``'s Redis that a test switches off and on (``relay.off()``), and
    the database number to reach through it (``relay.url(db)``)."""
    real = urlsplit(os.environ["REDIS_URL"])
    relay = SwitchableRedis(target=(real.hostname or "127.0.0.1", real.port or 6379))
    relay.on()
    yield relay, int((real.path or "/0").strip("/") or 0)
    relay.close()
