"""Counting requests against a rate: fixed-window counters kept in the cache, incremented
all or none in one atomic step (a Lua script on Redis, ``pente_site.cache.RedisCache``; a lock
in process). No web framework here: services count too (links e-mailed per address); the API's
throttles (``pente_site.ratelimit``) and the site's forms are built on it."""

from __future__ import annotations

import hashlib
import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

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
        with _counting:
            try:
                if (cache.get(key) or 0) > 0:
                    cache.decr(key)
            except ValueError:  # the window ended meanwhile
                continue


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
        return incr_many(counters)
    with _counting:
        counts = [(cache.get(key) or 0) + 1 for key, _timeout, _limit in counters]
        if any(n > limit for n, (_k, _t, limit) in zip(counts, counters, strict=True)):
            return counts
        return [_incr(key, timeout=timeout) for key, timeout, _limit in counters]


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
