"""The cached game positions without Redis: a read is a miss and a write is not kept, never an
error; Redis is left alone for a while after it failed; the outage is logged once."""

from __future__ import annotations

import logging

from pente_site import cache as text_cache
from pente_site import outage as outage_module
from pente_site.cache import get_with_text, set_with_text


def test_without_redis_a_cached_position_is_a_miss_and_a_write_is_not_kept(dead_cache, caplog):
    with caplog.at_level(logging.WARNING, logger="pente_site.cache"):
        assert get_with_text("game-played:1") is None
        assert set_with_text("game-played:1", (1,), tag="t", text="K10", timeout=60) is False
        assert get_with_text("game-played:1") is None
    assert len([r for r in caplog.records if "cannot be reached" in r.getMessage()]) == 1
    # One attempt found Redis away; the next calls did not try it again.
    assert text_cache.outage.skipped == 3


def test_redis_is_tried_again_once_the_pause_is_over(dead_cache, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(outage_module.time, "monotonic", lambda: clock[0])
    assert get_with_text("game-played:1") is None
    assert not text_cache.outage.reachable()
    clock[0] += text_cache.UNREACHABLE_SECONDS + 0.1
    assert text_cache.outage.reachable()
