"""Rate limits of the API: DRF throttles counted with ``pente_site.counters`` (fixed-window
counters in the cache; all the limits a request meets are incremented all or none in one atomic
step, so parallel requests never overshoot a limit).

Each throttle counts one *scope* whose rate lives in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``;
the scopes, their defaults and the 429 answer are in docs/operations.md. Streams and reads are
never counted.
"""

from __future__ import annotations

import math
from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from pente_site import counters
from pente_site.counters import count_requests, name_key, uncount_requests

#: Scope of a view's writes when it names none.
DEFAULT_WRITE_SCOPE = "writes"

#: What each scope counts, in the 429's sentence ("Too many moves: try again in 3 seconds.").
SCOPE_COUNTS = {
    "writes": "changes",
    "writes_ip": "changes from your address",
    "moves": "moves",
    "messages": "moves with a message",
    "chat": "chat lines",
    "chat_burst": "chat lines in a few seconds",
    "challenges": "challenges made or answered",
    "tournaments": "tournaments created",
    "imports": "imports",
    "tokens": "token changes",
    "account": "attempts",
    "auth": "sign-in attempts from your address",
    "auth_username": "sign-in attempts for this name",
}


class CountedThrottle(BaseThrottle):
    """A throttle of one scope counted with ``count_request``; subclasses say whom to count."""

    scope = DEFAULT_WRITE_SCOPE
    #: What the limit counts, for the sentence of a 429 (None: "requests").
    counts: str | None = None
    #: Whether a request the view then refuses (a 4xx other than 429) is taken back: the
    #: limit counts what was done (challenges sent), not what was tried.
    refunded_when_refused = False

    def scope_for(self, request, view) -> str | None:
        return self.scope

    def ident_for(self, request, view) -> str | None:
        """Whom to count (None: this request is not counted)."""
        raise NotImplementedError

    def limit_for(self, request, view) -> tuple[str, str, str] | None:
        """``(scope, ident, rate)`` of this request, or None: not counted."""
        scope = self.scope_for(request, view)
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope) if scope else None
        ident = self.ident_for(request, view) if rate else None
        return None if ident is None else (scope, ident, rate)

    def allow_request(self, request, view) -> bool:
        counted = _counted_together(request, view).get(type(self), False)
        if counted is False:  # a throttle the view does not list: counted on its own
            mine = self.limit_for(request, view)
            counted = None if mine is None else count_requests([mine])[0]
        if counted is None:
            return True
        allowed, limit, remaining, reset = counted
        self._wait = reset
        _note_limit(request, limit=limit, remaining=remaining, reset=reset)
        if not allowed:
            counts = self.counts or SCOPE_COUNTS.get(self.scope_for(request, view) or "")
            _note_refusal(request, counts=counts, wait=reset)
        return allowed

    def wait(self) -> float | None:
        """Whole seconds to the window's end (at least 1: ``Retry-After`` is an integer)."""
        left = getattr(self, "_wait", None)
        return None if left is None else max(1, math.ceil(left))


def _counted_together(request, view) -> dict[type, tuple[bool, int, int, float] | None]:
    """Every counted limit of the view's throttles for this request, counted at its first
    throttle in one round trip (DRF then asks each throttle in turn), by throttle class (None:
    that throttle does not count this request)."""
    http_request = getattr(request, "_request", request)
    done = getattr(http_request, "_ratelimit_counts", None)
    if done is not None:
        return done
    get_throttles = getattr(view, "get_throttles", None)
    throttles = [
        t for t in (get_throttles() if get_throttles else []) if isinstance(t, CountedThrottle)
    ]
    limits = {type(t): t.limit_for(request, view) for t in throttles}
    wanted = [(kind, limit) for kind, limit in limits.items() if limit is not None]
    now = counters.clock()
    results = count_requests([limit for _kind, limit in wanted], now=now) if wanted else []
    done = dict.fromkeys(limits)
    done.update((kind, result) for (kind, _l), result in zip(wanted, results, strict=True))
    http_request._ratelimit_counts = done
    if all(result[0] for result in results):  # counted (all or none)
        http_request._ratelimit_refundable = (
            [limit for kind, limit in wanted if kind.refunded_when_refused],
            now,
        )
    return done


def _note_refusal(request, *, counts: str | None, wait: float) -> None:
    """Keep what the limit that refused the request counts (the longest wait's), for the 429's
    sentence (``refusal_sentence``)."""
    http_request = getattr(request, "_request", request)
    current = getattr(http_request, "ratelimit_refusal", None)
    if current is None or wait > current[1]:
        http_request.ratelimit_refusal = (counts, wait)


def refusal_sentence(request, *, wait: int) -> str:
    """The 429's ``detail``: which limit, and when to try again."""
    unit = "second" if wait == 1 else "seconds"
    noted = getattr(getattr(request, "_request", request), "ratelimit_refusal", None)
    counts = noted[0] if noted is not None and noted[0] else "requests"
    return f"Too many {counts}: try again in {wait} {unit}."


def refund_refused(request, status_code: int) -> None:
    """Take back the counts of limits that count only what was done, when the view refused the
    request (a 4xx other than 429)."""
    refundable = getattr(request, "_ratelimit_refundable", None)
    if refundable is None or not 400 <= status_code < 500 or status_code == 429:
        return
    limits, now = refundable
    if limits:
        uncount_requests(limits, now=now)


def _note_limit(request, *, limit: int, remaining: int, reset: float) -> None:
    """Keep the tightest limit met so far for the response headers."""
    http_request = getattr(request, "_request", request)
    current = getattr(http_request, "ratelimit", None)
    if current is None or remaining < current["remaining"]:
        http_request.ratelimit = {"limit": limit, "remaining": remaining, "reset": reset}


def _user_or_address(throttle: BaseThrottle, request) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{throttle.get_ident(request)}"


class WriteThrottle(CountedThrottle):
    """Writes per user (or address), in the view's ``write_scope``."""

    def scope_for(self, request, view) -> str | None:
        return getattr(view, "write_scope", DEFAULT_WRITE_SCOPE)

    def ident_for(self, request, view) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        return _user_or_address(self, request)


class WriteAddressThrottle(CountedThrottle):
    """Every write from one client address."""

    scope = "writes_ip"

    def ident_for(self, request, view) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        return self.get_ident(request)


def _body_value(request, name: str) -> Any:
    data = request.data  # a malformed body raises ParseError here: a 400 as in the view
    return data.get(name) if hasattr(data, "get") else None


class MessageThrottle(CountedThrottle):
    """Moves that carry a chat message, per user."""

    scope = "messages"

    def ident_for(self, request, view) -> str | None:
        if request.method in SAFE_METHODS or not _body_value(request, "message"):
            return None
        return _user_or_address(self, request)


class ChatBurstThrottle(CountedThrottle):
    """Chat lines per user over a few seconds (``chat_burst``; ``chat`` counts them per
    minute as the view's write scope)."""

    scope = "chat_burst"

    def ident_for(self, request, view) -> str | None:
        if request.method != "POST":
            return None
        return _user_or_address(self, request)


class ChallengeTargetThrottle(CountedThrottle):
    """Direct challenges to one player, whoever sends them (many accounts flooding one)."""

    scope = "challenge_target"
    counts = "challenges to this player"
    refunded_when_refused = True

    def ident_for(self, request, view) -> str | None:
        if request.method != "POST":
            return None
        return name_key(_body_value(request, "invitee"))


class ChallengePairThrottle(CountedThrottle):
    """Direct challenges from one player to another (one sender pestering one player, well
    below ``challenge_target``, so that nobody alone can use up a player's challenges)."""

    scope = "challenge_pair"
    counts = "challenges from you to this player"
    refunded_when_refused = True

    def ident_for(self, request, view) -> str | None:
        if request.method != "POST":
            return None
        target = name_key(_body_value(request, "invitee"))
        return None if target is None else f"{_user_or_address(self, request)}>{target}"


class AuthAddressThrottle(CountedThrottle):
    """Register, log-in and token requests per client address."""

    scope = "auth"

    def ident_for(self, request, view) -> str | None:
        return self.get_ident(request)


class AuthUsernameThrottle(CountedThrottle):
    """Register, log-in and token requests per username named in the body (so that guessing one
    account's password from many addresses is slowed down too)."""

    scope = "auth_username"

    def ident_for(self, request, view) -> str | None:
        return name_key(_body_value(request, "username"))


#: The throttles of the registration, log-in and token views.
AUTH_THROTTLES = [AuthAddressThrottle, AuthUsernameThrottle]


class PasswordResetThrottle(CountedThrottle):
    """Requests for a link to choose a new password, per e-mail address named in the body (so
    that nobody floods one mailbox)."""

    scope = "password_reset"

    def ident_for(self, request, view) -> str | None:
        return name_key(_body_value(request, "email"))


#: The throttles of the forgotten-password views.
PASSWORD_RESET_THROTTLES = [AuthAddressThrottle, PasswordResetThrottle]


class RateLimitHeadersMiddleware:
    """``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` on every answer that
    a limit counted (the tightest one); and the counts a refused request gives back
    (``refund_refused``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        refund_refused(request, response.status_code)
        noted = getattr(request, "ratelimit", None)
        if noted is not None:
            response["RateLimit-Limit"] = str(noted["limit"])
            response["RateLimit-Remaining"] = str(noted["remaining"])
            response["RateLimit-Reset"] = str(max(1, round(noted["reset"])))
        return response
