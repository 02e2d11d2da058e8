"""The Redis cache backend, with one Redis client per connection pool, and entries with a text
that grows by appending (a game's moves). Why, and how the append stays safe:
docs/operations.md, "The web server".

The entries with a text are a pure cache: when Redis cannot be reached, a read is a miss and a
write is not kept (logged at most once a minute), and Redis is left alone for
``UNREACHABLE_SECONDS`` before it is tried again (docs/architecture.md, "When Redis is away").
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from redis.exceptions import RedisError

from pente_site.outage import LOG_SECONDS, Outage

log = logging.getLogger(__name__)

#: How long the entries with a text skip Redis after it could not be reached.
UNREACHABLE_SECONDS = 5.0
#: At most one warning per this many seconds while Redis cannot be reached.
UNREACHABLE_LOG_SECONDS = LOG_SECONDS


class _Outage(Outage):
    """``Outage`` of the entries with a text, counting the reads and writes given up."""

    def __init__(self) -> None:
        super().__init__(retry_seconds=UNREACHABLE_SECONDS, log_seconds=UNREACHABLE_LOG_SECONDS)

    def reset(self) -> None:
        super().reset()
        #: Reads and writes given up (a miss, not kept) since the process started.
        self.skipped = 0

    def reachable(self) -> bool:
        if self.away():
            with self.lock:
                self.skipped += 1
            return False
        return True

    def note(self, exc: BaseException) -> None:
        with self.lock:
            self.skipped += 1
        if self.failed():
            log.warning("cache: Redis cannot be reached (%s); game positions are rebuilt", exc)


outage = _Outage()


class SharedClientRedisCacheClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(index)
        if client is None:
            client = clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` sharing its clients, with an atomic
    counter that expires (``incr_with_expiry``) for the rate limits."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient

    def incr_with_expiry(self, key: str, timeout: int) -> int:
        """Add one to the counter ``key`` (created at 1, expiring after ``timeout`` seconds) in
        one round trip; returns the new count."""
        return self.incr_many_within([(key, timeout, None)])[0]

    def incr_many_within(self, counters: list[tuple[str, int, int | None]]) -> list[int]:
        """Add one to each ``(key, timeout, limit)`` counter (created at 1, expiring after its
        ``timeout`` seconds), all or none: when one would pass its ``limit`` (None: no limit),
        none is counted and each count returned is the one it would have had. One atomic
        round trip."""
        keys = [self.make_and_validate_key(key) for key, _timeout, _limit in counters]
        client = self._cache.get_client(keys[0], write=True)
        script = self._script("_incr_many_script", _INCR_MANY_WITHIN, client)
        args = [
            value
            for _key, timeout, limit in counters
            for value in (timeout, -1 if limit is None else limit)
        ]
        return [int(n) for n in script(keys=keys, args=args, client=client)]

    def _script(self, name: str, source: str, client):
        """The Lua script ``source``, registered once (then called by its SHA)."""
        script = self.__dict__.get(name)
        if script is None:
            script = self.__dict__[name] = client.register_script(source)
        return script

    def get_with_text(self, key: str) -> tuple[Any, str, str] | None:
        """The value, tag and text of an entry written by ``set_with_text``, or None (one
        round trip)."""
        key = self.make_and_validate_key(key)
        client = self._cache.get_client(key)
        script = self._script("_get_with_text_script", _GET_WITH_TEXT, client)
        hit = script(keys=[key, key + TEXT_SUFFIX], client=client)
        if not hit:
            return None
        value, tag, text = hit
        return self._cache._serializer.loads(value), tag.decode(), text.decode()

    def set_with_text(
        self, key: str, value: Any, *, tag: str, text: str, timeout: int, base_tag: str | None
    ) -> bool:
        """Store ``value`` and ``text`` under ``tag``; with ``base_tag``, ``text`` is appended
        to the entry's text provided the entry holds ``base_tag`` (else the entry is dropped
        and False returned). One atomic round trip."""
        key = self.make_and_validate_key(key)
        client = self._cache.get_client(key, write=True)
        script = self._script("_set_with_text_script", _SET_WITH_TEXT, client)
        args = [self._cache._serializer.dumps(value), tag, text, timeout, base_tag or ""]
        return bool(script(keys=[key, key + TEXT_SUFFIX], args=args, client=client))

    def delete_with_text(self, key: str) -> None:
        key = self.make_and_validate_key(key)
        self._cache.get_client(key, write=True).delete(key, key + TEXT_SUFFIX)


#: The key of an entry's text beside the key of its value and tag.
TEXT_SUFFIX = ":text"

#: KEYS: the entry (a hash: value ``v``, tag ``t``), its text. The three, or nothing when either
#: key is missing (Redis may evict one without the other).
_GET_WITH_TEXT = """
local entry = redis.call('HMGET', KEYS[1], 'v', 't')
if not entry[1] or not entry[2] then return false end
local text = redis.call('GET', KEYS[2])
if not text then return false end
return {entry[1], entry[2], text}
"""

#: KEYS: the entry, its text; ARGV: value, tag, text, timeout, base tag ('' to write the text
#: whole). With a base tag that the entry does not hold, the entry is dropped: the appended text
#: would follow another version's.
_SET_WITH_TEXT = """
if ARGV[5] ~= '' then
  if redis.call('HGET', KEYS[1], 't') ~= ARGV[5] or redis.call('EXISTS', KEYS[2]) == 0 then
    redis.call('DEL', KEYS[1], KEYS[2])
    return 0
  end
  redis.call('APPEND', KEYS[2], ARGV[3])
else
  redis.call('SET', KEYS[2], ARGV[3])
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 't', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""


def get_with_text(key: str) -> tuple[Any, str, str] | None:
    """``(value, tag, text)`` of an entry of the default cache, or None."""
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        if not outage.reachable():
            return None
        try:
            return cache.get_with_text(key)
        except (RedisError, OSError) as exc:
            outage.note(exc)
            return None
    hit = cache.get(key)
    return hit if isinstance(hit, tuple) and len(hit) == 3 else None


def set_with_text(
    key: str, value: Any, *, tag: str, text: str, timeout: int, base_tag: str | None = None
) -> bool:
    """Store an entry of the default cache (``RedisCache.set_with_text``). Off Redis the entry
    is one value: an append reads it, checks its tag and writes it whole (not atomic: a cache
    of one process)."""
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        if not outage.reachable():
            return False
        try:
            return cache.set_with_text(
                key, value, tag=tag, text=text, timeout=timeout, base_tag=base_tag
            )
        except (RedisError, OSError) as exc:
            outage.note(exc)
            return False
    if base_tag is not None:
        hit = get_with_text(key)
        if hit is None or hit[1] != base_tag:
            cache.delete(key)
            return False
        text = hit[2] + text
    cache.set(key, (value, tag, text), timeout)
    return True


def delete_with_text(key: str) -> None:
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        # Not skipped while Redis seems away: an entry that outlived it must not be read again.
        try:
            cache.delete_with_text(key)
        except (RedisError, OSError) as exc:
            outage.note(exc)
            raise
    else:
        cache.delete(key)


#: INCR each of KEYS and, when this made it, give it its expiry (ARGV, one each): one atomic
#: round trip for them all.
_INCR_MANY_WITHIN = """
local counts, over = {}, false
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('GET', key) or '0') + 1
  local limit = tonumber(ARGV[2 * i])
  if limit >= 0 and counts[i] > limit then over = true end
end
if not over then
  for i, key in ipairs(KEYS) do
    counts[i] = redis.call('INCR', key)
    if counts[i] == 1 then redis.call('EXPIRE', key, ARGV[2 * i - 1]) end
  end
end
return counts
"""
