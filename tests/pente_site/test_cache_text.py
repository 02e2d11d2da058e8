"""Cache entries with a text that grows by appending (``pente_site.cache``), on the configured
cache: Redis when ``REDIS_URL`` is set, else the embedded process cache."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import caches

from pente_site import cache as text_cache
from pente_site.cache import TEXT_SUFFIX, RedisCache


@pytest.fixture
def key() -> str:
    return f"test-text-{uuid.uuid4().hex}"


def test_an_entry_reads_back_its_value_tag_and_text(key):
    assert text_cache.set_with_text(key, {"a": 1}, tag="v1", text="[1", timeout=60)
    assert text_cache.get_with_text(key) == ({"a": 1}, "v1", "[1")


def test_a_missing_entry_reads_as_none(key):
    assert text_cache.get_with_text(key) is None


def test_an_append_on_the_tag_it_read_extends_the_text_and_takes_the_new_tag(key):
    text_cache.set_with_text(key, "one", tag="v1", text="1", timeout=60)
    assert text_cache.set_with_text(key, "two", tag="v2", text=",2", timeout=60, base_tag="v1")
    assert text_cache.get_with_text(key) == ("two", "v2", "1,2")


def test_an_append_on_another_tag_drops_the_entry(key):
    """A late writer whose base is no longer the entry's: its text would follow another
    version's, so nothing is kept (the next reader rebuilds)."""
    text_cache.set_with_text(key, "one", tag="v1", text="1", timeout=60)
    text_cache.set_with_text(key, "two", tag="v2", text=",2", timeout=60, base_tag="v1")
    assert not text_cache.set_with_text(
        key, "late", tag="v2b", text=",x", timeout=60, base_tag="v1"
    )
    assert text_cache.get_with_text(key) is None


def test_an_append_to_a_missing_entry_stores_nothing(key):
    assert not text_cache.set_with_text(key, "two", tag="v2", text=",2", timeout=60, base_tag="v1")
    assert text_cache.get_with_text(key) is None


def test_a_whole_write_replaces_the_text(key):
    text_cache.set_with_text(key, "one", tag="v1", text="1,2,3", timeout=60)
    text_cache.set_with_text(key, "two", tag="v9", text="7", timeout=60)
    assert text_cache.get_with_text(key) == ("two", "v9", "7")


def test_a_deleted_entry_is_gone(key):
    text_cache.set_with_text(key, "one", tag="v1", text="1", timeout=60)
    text_cache.delete_with_text(key)
    assert text_cache.get_with_text(key) is None


@pytest.mark.redis
def test_on_redis_an_entry_whose_text_was_evicted_reads_as_none_and_takes_no_append(key):
    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    text_cache.set_with_text(key, "one", tag="v1", text="1", timeout=60)
    client = cache._cache.get_client(key, write=True)
    client.delete(cache.make_and_validate_key(key) + TEXT_SUFFIX)
    assert text_cache.get_with_text(key) is None
    assert not text_cache.set_with_text(key, "two", tag="v2", text=",2", timeout=60, base_tag="v1")
    assert text_cache.get_with_text(key) is None


@pytest.mark.redis
def test_on_redis_both_keys_expire_with_the_timeout(key):
    cache = caches["default"]
    text_cache.set_with_text(key, "one", tag="v1", text="1", timeout=30)
    text_cache.set_with_text(key, "two", tag="v2", text=",2", timeout=40, base_tag="v1")
    client = cache._cache.get_client(key, write=True)
    full = cache.make_and_validate_key(key)
    assert 30 < client.ttl(full) <= 40
    assert 30 < client.ttl(full + TEXT_SUFFIX) <= 40
