"""The event streams: ``GET /api/games/{id}/events``, ``GET /api/me/events`` and
``GET /api/rooms/{name}/events``, as Server-Sent Events or NDJSON, resumed with
``Last-Event-ID``; their format, limits and refusals are in docs/api.md.

Every open stream is a presence row (``live.models.Presence``: who is in a room, a game's
spectators). Streams are asynchronous views served by the ASGI application; under a WSGI server
a stream would hold a worker for its whole life, so there they answer 503 ``streams_need_asgi``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from accounts.authentication import KEYWORDS, ApiTokenAuthentication
from accounts.models import User
from games.play.models import Game
from games.play.selectors import game_get
from live import selectors, services
from live.bus import LiveEvent, backend
from live.channels import (
    delayed_channel,
    game_channel,
    game_of_channel,
    room_channel,
    user_channel,
)
from pente_site.api import domain_error_response, read_only
from pente_site.errors import DomainError, Invalid, TooMany, Unauthenticated, Unavailable
from pente_site.lists import refuse_unknown_parameters

NDJSON = "application/x-ndjson"
#: How long a stream waits for its feed before it first says something (a heartbeat).
FIRST_WORD_SECONDS = 0.2
#: The first word of a stream whose feed is not there yet (Redis away): a heartbeat, when to
#: try again should the connection close, and (SSE) a ``live_unavailable`` event, on which the
#: site's pages read what changed every few seconds until ``live_available`` (the feed is there).
NOT_YET_SSE = (
    b"retry: 2000\n: heartbeat live_unavailable\n"
    b'event: live_unavailable\ndata: {"type": "live_unavailable"}\n\n'
)
NOT_YET_NDJSON = b'{"type":"heartbeat","detail":"live_unavailable","retry":2000}\n'
#: A stream's word once it follows its channel: a client that reads the state after it misses
#: nothing published from then on. SSE says it as an event (``connected``), which a page sees
#: (EventSource's own ``open`` comes with the headers, before the stream follows anything).
CONNECTED_NDJSON = b'{"type":"heartbeat","detail":"connected"}\n'
CONNECTED_SSE = b'retry: 2000\nevent: connected\ndata: {"type": "connected"}\n\n'
#: Said by a stream that said ``NOT_YET_SSE`` once its feed is there.
BACK_SSE = CONNECTED_SSE + b'event: live_available\ndata: {"type": "live_available"}\n\n'
log = logging.getLogger(__name__)
_open_streams: Counter[str] = Counter()


async def _user(request: HttpRequest) -> User | None:
    """The user of a token header, else of the session, else None; 401 for a bad token."""
    header = get_authorization_header(request).split()
    if header and header[0].lower().decode(errors="replace") in KEYWORDS:
        if len(header) != 2:
            raise Unauthenticated("not_authenticated", "Expected 'Token <key>'.")
        try:
            user, _ = await _db(ApiTokenAuthentication().authenticate_key)(header[1].decode())
        except (exceptions.AuthenticationFailed, UnicodeError) as exc:
            raise Unauthenticated("not_authenticated", str(exc)) from None
        return user
    return await _db(_session_user)(request)


def _session_user(request: HttpRequest) -> User | None:
    user = request.user
    return user if user.is_authenticated else None


def _db(function):
    """``function`` run in the loop's thread pool: a stream's database work never holds a
    connection of its own for the stream's whole life (Django's request thread would), only the
    pool's threads have connections, so they are as many as the pool's threads."""
    return sync_to_async(function, thread_sensitive=False)


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


async def _pump(
    channel: str, last_id: str | None, queue: asyncio.Queue, ready: asyncio.Event
) -> None:
    async for event in backend().follow(channel, last_id, ready):
        await queue.put(event)


class _Keeper:
    """The presence rows of this process's streams, refreshed together every
    ``LIVE_PRESENCE_SECONDS`` (one UPDATE), so that the sweeper removes only those of a process
    that died."""

    _keepers: dict[int, _Keeper] = {}

    def __init__(self) -> None:
        self.ids: set[int] = set()
        #: Games whose spectators came or went since the last count sent.
        self.dirty: set[int] = set()
        loop = asyncio.get_running_loop()
        self.task = loop.create_task(self._run())
        self.counts = loop.create_task(self._count())

    @classmethod
    def of_loop(cls) -> _Keeper:
        key = id(asyncio.get_running_loop())
        keeper = cls._keepers.get(key)
        if keeper is None or keeper.task.done():
            keeper = cls._keepers[key] = cls()
        return keeper

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(settings.LIVE_PRESENCE_SECONDS)
            if self.ids:
                try:
                    await _db(services.presence_refresh)(presence_ids=sorted(self.ids))
                except DatabaseError:
                    log.exception("live: the presence rows could not be refreshed")

    async def _count(self) -> None:
        """Send the spectator counts of the games whose spectators changed, at most once every
        ``LIVE_SPECTATORS_SECONDS`` per game."""
        while True:
            await asyncio.sleep(settings.LIVE_SPECTATORS_SECONDS)
            if self.dirty:
                games, self.dirty = sorted(self.dirty), set()
                try:
                    await _db(services.spectators_announce)(game_ids=games)
                except DatabaseError:
                    log.exception("live: the spectator counts could not be sent")


def _leave_later(presence_id: int, game_id: int | None) -> None:
    """Remove a presence row without waiting (a closing stream may be cancelled again); a
    spectator's game gets its new count with the next ones."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop any more (the process is stopping): the sweeper removes it
        return
    keeper = _Keeper.of_loop()
    keeper.ids.discard(presence_id)

    def leave() -> None:
        try:
            services.presence_leave(presence_id=presence_id)
        except DatabaseError:  # the sweeper removes it later
            log.exception("live: a presence row could not be removed")
            return
        finally:
            close_old_connections()
        if game_id is not None:
            loop.call_soon_threadsafe(keeper.dirty.add, game_id)

    loop.run_in_executor(None, leave)


class _Reader:
    """What one reader may see of a channel's events: not the chat of the people they ignore
    (reloaded at most every heartbeat), and, for a player of a game in progress, not the
    spectators' lines hidden from the players."""

    def __init__(self, user: User | None, *, player: bool) -> None:
        self.user = user
        self.player = player
        self.ignored: set[int] = set()
        self.loaded = 0.0

    async def load(self) -> None:
        if self.user is not None:
            self.ignored = await _db(selectors.ignored_ids)(user=self.user)
        self.loaded = time.monotonic()

    async def shows(self, event: LiveEvent) -> bool:
        if event.kind != "chat":
            return True
        if self.player and event.data.get("hidden_from_players"):
            return False
        if (
            self.user is not None
            and time.monotonic() - self.loaded > settings.LIVE_HEARTBEAT_SECONDS
        ):
            await self.load()
        author = event.data.get("author") or {}
        return author.get("id") not in self.ignored


async def _events(
    channel: str,
    last_id: str | None,
    ndjson: bool,
    holder: str,
    reader: _Reader,
    presence: int,
    spectating: int | None,
) -> AsyncIterator[bytes]:
    queue: asyncio.Queue[LiveEvent] = asyncio.Queue(maxsize=settings.LIVE_QUEUE_SIZE)
    ready = asyncio.Event()
    pump = asyncio.create_task(_pump(channel, last_id, queue, ready))
    heartbeat = b'{"type":"heartbeat"}\n' if ndjson else b": heartbeat\n\n"
    waiting = asyncio.create_task(ready.wait())
    try:
        # "connected" once the stream follows its channel: a client that loads the state when
        # it reads it misses nothing published after that. Until then (Redis away: the feed
        # retries in the background) the client hears at once, then at every heartbeat, with a
        # retry hint: a stream never stays silent, and the page recovers by itself.
        said = False
        while not ready.is_set():
            patience = settings.LIVE_HEARTBEAT_SECONDS if said else FIRST_WORD_SECONDS
            await asyncio.wait({waiting, pump}, timeout=patience, return_when="FIRST_COMPLETED")
            if pump.done():
                pump.result()  # the feed broke before it began: end the stream
            if not ready.is_set():
                yield heartbeat if said else NOT_YET_NDJSON if ndjson else NOT_YET_SSE
                said = True
        if ndjson:
            yield CONNECTED_NDJSON
        else:
            yield BACK_SSE if said else CONNECTED_SSE
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), settings.LIVE_HEARTBEAT_SECONDS)
            except TimeoutError:
                if pump.done():
                    pump.result()  # the feed broke: end the stream (the client reconnects)
                yield heartbeat
                continue
            if await reader.shows(event):
                yield _format(event, ndjson)
    finally:
        waiting.cancel()
        pump.cancel()
        _leave_later(presence, spectating)
        _open_streams[holder] -= 1
        if _open_streams[holder] <= 0:
            del _open_streams[holder]


async def _stream(
    request: HttpRequest,
    channel: str,
    user: User | None,
    *,
    player: bool = False,
    spectator: bool = False,
    place: str | None = None,
) -> HttpResponse:
    """A stream of ``channel``; its presence row is in ``place`` (default: the channel)."""
    last_id = _last_id(request)
    holder = f"user:{user.pk}" if user is not None else f"ip:{request.META.get('REMOTE_ADDR')}"
    if _open_streams[holder] >= settings.LIVE_MAX_STREAMS:
        raise TooMany(
            "too_many_streams",
            f"At most {settings.LIVE_MAX_STREAMS} streams at once: close one first.",
            extra={"limit": settings.LIVE_MAX_STREAMS},
        )
    if sum(_open_streams.values()) >= settings.LIVE_MAX_STREAMS_PER_PROCESS:
        raise Unavailable(
            "server_busy",
            "This server holds as many streams as it can: try again in a moment.",
            extra={"retry_after": 5},
        )
    _open_streams[holder] += 1
    try:
        reader = _Reader(user, player=player)
        await reader.load()
        presence = await _db(services.presence_enter)(
            place=place or channel, user=user, spectator=spectator
        )
    except BaseException:
        _open_streams[holder] -= 1
        raise
    keeper = _Keeper.of_loop()
    keeper.ids.add(presence)
    spectating = game_of_channel(place or channel) if spectator else None
    if spectating is not None:
        keeper.dirty.add(spectating)
    ndjson = NDJSON in request.headers.get("Accept", "")
    response = StreamingHttpResponse(
        _events(channel, last_id, ndjson, holder, reader, presence, spectating),
        content_type=NDJSON if ndjson else "text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # no buffering in nginx-like proxies
    return response


def _check_request(request: HttpRequest) -> None:
    """A stream takes no query parameter but ``last_event_id`` (400 ``unknown_parameter``) and
    is served by the ASGI server only (503 ``streams_need_asgi``)."""
    refuse_unknown_parameters(request.GET, {"last_event_id"})
    if not isinstance(request, ASGIRequest):
        raise Unavailable(
            "streams_need_asgi",
            "Event streams are served by the ASGI server (manage.py serve, or uvicorn "
            "pente_site.asgi:application); this server speaks WSGI.",
        )


def _game_and_seats(game_id: str) -> tuple[Game, set[int]]:
    game = game_get(game_id=game_id)
    return game, selectors.seated_ids(game)


@read_only
async def game_events(request: HttpRequest, game_id: str) -> HttpResponse:
    """A game's live events (players and spectators)."""
    try:
        _check_request(request)
        user = await _user(request)
        game, seated = await _db(_game_and_seats)(game_id)
        player = user is not None and user.pk in seated
        channel = game_channel(game.pk)
        if game.spectator_delay and game.status == Game.Status.IN_PROGRESS and not player:
            channel = delayed_channel(game.pk)  # its spectators see it late
        return await _stream(
            request,
            channel,
            user,
            player=player,
            spectator=not player,
            place=game_channel(game.pk),
        )
    except DomainError as exc:
        return domain_error_response(exc)


@read_only
async def my_events(request: HttpRequest) -> HttpResponse:
    """The events of the logged-in player."""
    try:
        _check_request(request)
        user = await _user(request)
        if user is None:
            raise Unauthenticated(
                "not_authenticated", "Log in (a token or a session) to follow your events."
            )
        return await _stream(request, user_channel(user.pk), user)
    except DomainError as exc:
        return domain_error_response(exc)


@read_only
async def room_events(request: HttpRequest, name: str) -> HttpResponse:
    """A room's live events: chat, who entered and left, open challenges, live games."""
    try:
        _check_request(request)
        user = await _user(request)
        room = await _db(services.room_open)(name=name)
        return await _stream(request, room_channel(room.name), user)
    except DomainError as exc:
        return domain_error_response(exc)
