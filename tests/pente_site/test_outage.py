"""``Outage``: a helper found unreachable is left alone for its pause, then tried again, and the
failures are worth a warning at most once per ``log_seconds``."""

from __future__ import annotations

import pytest

from pente_site import outage as outage_module
from pente_site.outage import Outage


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(outage_module.time, "monotonic", lambda: now[0])
    return now


def test_a_new_outage_is_not_away():
    assert not Outage(retry_seconds=5).away()


def test_a_failure_pauses_for_retry_seconds_then_lets_the_helper_be_tried(clock):
    outage = Outage(retry_seconds=5)
    outage.failed()
    assert outage.away()
    clock[0] += 4.9
    assert outage.away()
    clock[0] += 0.2
    assert not outage.away()


def test_the_first_failure_is_logged_then_one_a_log_period(clock):
    outage = Outage(retry_seconds=5, log_seconds=60)
    said = []
    for _ in range(13):  # a failure every 10 s for two minutes
        said.append(outage.failed())
        clock[0] += 10
    assert said == [True, *[False] * 5, True, *[False] * 5, True]
    assert outage.failures == 13


def test_back_ends_the_pause_but_keeps_the_warning_quiet(clock):
    outage = Outage(retry_seconds=5, log_seconds=60)
    assert outage.failed()
    outage.back()
    assert not outage.away()
    assert not outage.failed()  # a second failure within the minute: no new warning


def test_reset_forgets_the_failures_and_the_last_warning(clock):
    outage = Outage(retry_seconds=5, log_seconds=60)
    outage.failed()
    outage.reset()
    assert (outage.away(), outage.failures) == (False, 0)
    assert outage.failed()  # warned again at once


def test_a_pause_of_zero_only_limits_the_warnings(clock):
    outage = Outage(retry_seconds=0, log_seconds=60)
    assert outage.failed()
    assert not outage.away()
    assert not outage.failed()
