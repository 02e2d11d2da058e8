"""The event streams: ``GET /api/games/{id}/events`` and ``GET /api/me/events``.

Server-Sent Events (``text/event-stream``): each event is ``id:``, ``event:`` (its kind) and
``data:`` (one JSON object: ``{"id", "channel", "type", "data"}``); a comment line
(``: heartbeat``) every ``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing an idle stream.
With ``Accept: application/x-ndjson`` the same events come as one JSON object per line, and the
heartbeat is ``{"type": "heartbeat"}``. A client that reconnects with ``Last-Event-ID`` (the
header, or ``?last_event_id=``) first gets the events it missed, or a ``reset`` event when they
are no longer kept (reload the state, then read on).

A game's stream is open to anyone who may see the game (players and spectators); ``me/events``
needs a token (``Authorization: Token <key>``) or a session. Each user (or, without one, each
address) may hold ``LIVE_MAX_STREAMS`` streams at once per web process; one more is 429
``too_many_streams``. Streams count against no rate limit.

The streams are asynchronous views: they are served by the ASGI application
(``pente_site.asgi``: ``manage.py serve``, or uvicorn in production). Under a WSGI server a
stream would hold a worker for its whole life, so there they answer 503 ``streams_need_asgi``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from games.accounts.authentication import KEYWORDS, ApiTokenAuthentication
from games.models import User
from games.play.selectors import game_get
from live.bus import LiveEvent, backend
from live.publishers import game_channel, user_channel
from pente_site.api import domain_error_response
from pente_site.errors import DomainError, Invalid, TooMany, Unauthenticated, Unavailable

NDJSON = "application/x-ndjson"
_open_streams: Counter[str] = Counter()


async def _user(request: HttpRequest) -> User | None:
    """The user of a token header, else of the session, else None; 401 for a bad token."""
    header = get_authorization_header(request).split()
    if header and header[0].lower().decode(errors="replace") in KEYWORDS:
        if len(header) != 2:
            raise Unauthenticated("not_authenticated", "Expected 'Token <key>'.")
        try:
            user, _ = await sync_to_async(ApiTokenAuthentication().authenticate_key)(
                header[1].decode()
            )
        except (exceptions.AuthenticationFailed, UnicodeError) as exc:
            raise Unauthenticated("not_authenticated", str(exc)) from None
        return user
    user = await request.auser()
    return user if user.is_authenticated else None


def _last_id(request: HttpRequest) -> str | None:
    text = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id") or ""
    text = text.strip()
    if not text:
        return None
    if len(text) > 40 or not backend().valid_id(text):
        raise Invalid("bad_last_event_id", "Last-Event-ID is not an id this server gave out.")
    return text


def _format(event: LiveEvent, ndjson: bool) -> bytes:
    body = event.as_json()
    if ndjson:
        return (body + "\n").encode()
    head = f"id: {event.id}\n" if event.id else ""
    return f"{head}event: {event.kind}\ndata: {body}\n\n".encode()


async def _pump(channel: str, last_id: str | None, queue: asyncio.Queue) -> None:
    async for event in backend().follow(channel, last_id):
        await queue.put(event)


async def _events(
    channel: str, last_id: str | None, ndjson: bool, holder: str
) -> AsyncIterator[bytes]:
    queue: asyncio.Queue[LiveEvent] = asyncio.Queue(maxsize=settings.LIVE_QUEUE_SIZE)
    pump = asyncio.create_task(_pump(channel, last_id, queue))
    heartbeat = b'{"type":"heartbeat"}\n' if ndjson else b": heartbeat\n\n"
    try:
        yield b"" if ndjson else b"retry: 2000\n: connected\n\n"
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), settings.LIVE_HEARTBEAT_SECONDS)
            except TimeoutError:
                if pump.done():
                    pump.result()  # the feed broke: end the stream (the client reconnects)
                yield heartbeat
                continue
            yield _format(event, ndjson)
    finally:
        pump.cancel()
        _open_streams[holder] -= 1
        if _open_streams[holder] <= 0:
            del _open_streams[holder]


async def _stream(request: HttpRequest, channel: str, user: User | None) -> HttpResponse:
    if not isinstance(request, ASGIRequest):
        raise Unavailable(
            "streams_need_asgi",
            "Event streams are served by the ASGI server (manage.py serve, or uvicorn "
            "pente_site.asgi:application); this server speaks WSGI.",
        )
    last_id = _last_id(request)
    holder = f"user:{user.pk}" if user is not None else f"ip:{request.META.get('REMOTE_ADDR')}"
    if _open_streams[holder] >= settings.LIVE_MAX_STREAMS:
        raise TooMany(
            "too_many_streams",
            f"At most {settings.LIVE_MAX_STREAMS} streams at once: close one first.",
            extra={"limit": settings.LIVE_MAX_STREAMS},
        )
    _open_streams[holder] += 1
    ndjson = NDJSON in request.headers.get("Accept", "")
    response = StreamingHttpResponse(
        _events(channel, last_id, ndjson, holder),
        content_type=NDJSON if ndjson else "text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # no buffering in nginx-like proxies
    return response


async def game_events(request: HttpRequest, game_id: str) -> HttpResponse:
    """A game's live events (players and spectators)."""
    try:
        user = await _user(request)
        game = await sync_to_async(game_get)(game_id=game_id)
        return await _stream(request, game_channel(game.pk), user)
    except DomainError as exc:
        return domain_error_response(exc)


async def my_events(request: HttpRequest) -> HttpResponse:
    """The events of the logged-in player."""
    try:
        user = await _user(request)
        if user is None:
            raise Unauthenticated(
                "not_authenticated", "Log in (a token or a session) to follow your events."
            )
        return await _stream(request, user_channel(user.pk), user)
    except DomainError as exc:
        return domain_error_response(exc)
