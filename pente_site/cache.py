"""The Redis cache backend, with one Redis client per connection pool.

Django's ``RedisCache`` builds a new ``redis.Redis`` client for every cache call (about 0.2 ms
each: the client fills its table of response callbacks); a move touches the cache several times
(rate limits, the cached position). A client is thread-safe and cheap to share, since its
connections come from the pool: this backend keeps one per pool.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


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
        return self.incr_many_with_expiry([(key, timeout)])[0]

    def incr_many_with_expiry(self, counters: list[tuple[str, int]]) -> list[int]:
        """Add one to each ``(key, timeout)`` counter (created at 1, expiring after its
        ``timeout`` seconds) in one round trip; returns the new counts."""
        keys = [self.make_and_validate_key(key) for key, _timeout in counters]
        client = self._cache.get_client(keys[0], write=True)
        script = self.__dict__.get("_incr_many_script")
        if script is None:
            script = self.__dict__["_incr_many_script"] = client.register_script(
                _INCR_MANY_WITH_EXPIRY
            )
        args = [timeout for _key, timeout in counters]
        return [int(n) for n in script(keys=keys, args=args, client=client)]


#: INCR each of KEYS and, when this made it, give it its expiry (ARGV, one each): one atomic
#: round trip for them all.
_INCR_MANY_WITH_EXPIRY = """
local counts = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('EXPIRE', key, ARGV[i]) end
  counts[i] = n
end
return counts
"""
