"""When a helper (Redis) was last found unreachable: leave it alone for a few seconds, then try
again, and say so at most once a minute. One ``Outage`` per use of Redis (the cached positions,
the rate-limit counters, the live events' writes), each with its own pause and warning."""

from __future__ import annotations

import threading
import time

#: At most one warning per this many seconds while a helper stays unreachable.
LOG_SECONDS = 60.0


class Outage:
    """``away()`` while the pause after the last failure lasts; ``failed()`` starts a pause and
    says whether to warn now (the first failure, then at most once per ``log_seconds``)."""

    def __init__(self, *, retry_seconds: float, log_seconds: float = LOG_SECONDS) -> None:
        self.retry_seconds = retry_seconds
        self.log_seconds = log_seconds
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Forget every failure (as at the start of the process)."""
        self.down_until = 0.0
        self.logged_at: float | None = None
        #: Times the helper was found unreachable since the process started.
        self.failures = 0

    def away(self) -> bool:
        """Whether to leave the helper alone now (a failure's pause is not over)."""
        return time.monotonic() < self.down_until

    def failed(self) -> bool:
        """Note that the helper could not be reached now: it is left alone for
        ``retry_seconds``. True when the caller should log it (quiet for ``log_seconds``
        after the last time it did)."""
        now = time.monotonic()
        with self.lock:
            self.down_until = now + self.retry_seconds
            self.failures += 1
            if self.logged_at is not None and now - self.logged_at < self.log_seconds:
                return False
            self.logged_at = now
            return True

    def back(self) -> None:
        """The helper answered: try it at once from now on."""
        self.down_until = 0.0
