"""Counting requests against a rate: fixed-window counters kept in the cache, incremented
all or none in one atomic step (a Lua script on Redis, ``pente_site.cache.RedisCache``; a lock
in process). No web framework here: services count too (links e-mailed per address); the API's
throttles (``pente_site.ratelimit``) and the site's forms are built on it.

Redis is a helper, never a single point of failure: when it cannot be reached, the counters
are kept in this process instead (``_Fallback``: the same windows and limits, counted per
process), Redis is left alone for ``FALLBACK_SECONDS``, a warning is logged at most once a
minute, and ``fallback_stats()`` tells how many requests were counted that way.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

from pente_site.outage import LOG_SECONDS, Outage

log = logging.getLogger(__name__)

#: The clock of the windows (a function, so that tests can hold it still).
clock = time.time

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"240/min"`` -> (240, 60), ``"5/10s"`` -> (5, 10): requests and the window in
    seconds."""
    count, period = rate.split("/")
    period = period.strip()
    digits = len(period) - len(period.lstrip("0123456789"))
    units = int(period[:digits]) if digits else 1
    return int(count), units * _PERIODS[period[digits]]


def count_request(
    *, scope: str, ident: str, rate: str, now: float | None = None
) -> tuple[bool, int, int, float]:
    """Count one request of ``ident`` in ``scope``: (allowed, limit, remaining, seconds to the
    window's end). One atomic increment; the key expires with its window."""
    return count_requests([(scope, ident, rate)], now=now)[0]


def count_requests(
    limits: list[tuple[str, str, str]], *, now: float | None = None
) -> list[tuple[bool, int, int, float]]:
    """``count_request`` of several ``(scope, ident, rate)`` at once, in one round trip to
    Redis, all or none: a request refused by one limit is counted by none (so that requests
    refused by a tight limit, such as one sender's challenges to one player, do not use up a
    wider one, such as that player's challenges from anyone)."""
    now = clock() if now is None else now
    windows = _windows(limits, now)
    used = _incr_many([(key, timeout, limit) for key, timeout, limit, _e in windows])
    return [
        (n <= limit, limit, max(0, limit - n), end - now)
        for n, (_k, _t, limit, end) in zip(used, windows, strict=True)
    ]


def uncount_requests(limits: list[tuple[str, str, str]], *, now: float) -> None:
    """Take back requests counted by ``count_requests(limits, now=now)`` (a request that turned
    out not to be what the limit counts, such as a challenge refused as malformed). A window
    ended since is left alone."""
    for key, _timeout, _limit, _end in _windows(limits, now):
        if _fallback.holds(key):  # counted in this process while Redis was away
            _fallback.decr(key)
            continue
        with _counting:
            try:
                if (cache.get(key) or 0) > 0:
                    cache.decr(key)
            except ValueError:  # the window ended meanwhile
                continue
            except _UNREACHABLE as exc:
                _fallback.note_failure(exc)


def _windows(limits: list[tuple[str, str, str]], now: float) -> list[tuple[str, int, int, int]]:
    """The counter of each ``(scope, ident, rate)`` at ``now``: (key, timeout, limit, end)."""
    prefix = getattr(settings, "RATELIMIT_KEY_PREFIX", "rl")
    windows = []
    for scope, ident, rate in limits:
        limit, window = parse_rate(rate)
        start = int(now // window) * window
        windows.append((f"{prefix}:{scope}:{ident}:{start}", window + 1, limit, start + window))
    return windows


#: The in-process cache's counting (the embedded default: one process counts its own).
_counting = threading.Lock()


def _incr_many(counters: list[tuple[str, int, int]]) -> list[int]:
    """All-or-none increments of ``(key, timeout, limit)`` counters, each expiring ``timeout``
    seconds after its first: one Lua script on Redis (``pente_site.cache.RedisCache``); under a
    lock with the in-process cache."""
    incr_many = getattr(cache, "incr_many_within", None)
    if incr_many is not None:
        if not _fallback.active():
            try:
                return incr_many(counters)
            except _UNREACHABLE as exc:
                _fallback.note_failure(exc)
        return _fallback.incr_many(counters)
    with _counting:
        counts = [(cache.get(key) or 0) + 1 for key, _timeout, _limit in counters]
        if any(n > limit for n, (_k, _t, limit) in zip(counts, counters, strict=True)):
            return counts
        return [_incr(key, timeout=timeout) for key, timeout, _limit in counters]


#: The errors of a cache that cannot be reached (refused, reset, timed out, or down).
_UNREACHABLE = (RedisError, OSError)

#: How long the counters stay in process after Redis failed, before Redis is tried again (a
#: Redis that hangs costs one request a timeout, not every request).
FALLBACK_SECONDS = 5.0
#: At most one warning per this many seconds while the counters are kept in process.
FALLBACK_LOG_SECONDS = LOG_SECONDS


class _Fallback:
    """Counters of this process, used while Redis cannot be reached: the same fixed windows,
    limits and all-or-none rule as the Lua script, each key dropped when its window ends. A
    limit is then kept per process (a deployment of N processes lets up to N times the rate
    through): less exact, but no write fails because a helper is away."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        #: key -> (count, monotonic time it expires)
        self.counts: dict[str, tuple[int, float]] = {}
        self.outage = Outage(retry_seconds=FALLBACK_SECONDS, log_seconds=FALLBACK_LOG_SECONDS)
        #: Requests counted here (not in Redis) since the process started.
        self.requests = 0

    def active(self) -> bool:
        return self.outage.away()

    def note_failure(self, exc: BaseException) -> None:
        if self.outage.failed():
            log.warning(
                "rate limits: the cache cannot be reached (%s); counting in this process "
                "(%d requests so far)",
                exc,
                self.requests,
            )

    def holds(self, key: str) -> bool:
        return key in self.counts

    def _live(self, key: str, now: float) -> int:
        held = self.counts.get(key)
        if held is None or held[1] <= now:
            self.counts.pop(key, None)
            return 0
        return held[0]

    def incr_many(self, counters: list[tuple[str, int, int | None]]) -> list[int]:
        now = time.monotonic()
        with self.lock:
            self.requests += 1
            if len(self.counts) > 10_000:  # drop the windows that ended
                for key in [k for k, (_n, end) in self.counts.items() if end <= now]:
                    del self.counts[key]
            counts = [self._live(key, now) + 1 for key, _timeout, _limit in counters]
            if any(
                limit is not None and n > limit
                for n, (_k, _t, limit) in zip(counts, counters, strict=True)
            ):
                return counts
            for n, (key, timeout, _limit) in zip(counts, counters, strict=True):
                end = self.counts[key][1] if n > 1 else now + timeout
                self.counts[key] = (n, end)
            return counts

    def decr(self, key: str) -> None:
        with self.lock:
            n = self._live(key, time.monotonic())
            if n > 0:
                self.counts[key] = (n - 1, self.counts[key][1])

    def reset(self) -> None:
        with self.lock:
            self.counts.clear()
            self.outage.reset()
            self.requests = 0


_fallback = _Fallback()


def fallback_stats() -> dict[str, Any]:
    """How the rate limits fared without Redis in this process: ``requests`` counted in process,
    ``failures`` (times Redis could not be reached), ``active`` (counting in process now)."""
    return {
        "requests": _fallback.requests,
        "failures": _fallback.outage.failures,
        "active": _fallback.active(),
    }


def _incr(key: str, *, timeout: int) -> int:
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr: a new window
        cache.add(key, 1, timeout=timeout)
        return 1


def name_key(name: Any) -> str | None:
    """Whom a limit per name counts (a username, an e-mail address): the same key for the API's
    throttles and the site's forms, whatever the case and the spaces around it."""
    if not isinstance(name, str) or not name.strip():
        return None
    return hashlib.sha256(name.strip().casefold().encode()).hexdigest()[:32]
