"""Live events: written once after the transaction commits, read by any number of streams.

``publish`` sends an event on a channel (``game:<id>``, ``user:<id>``) when the current
transaction commits (at once outside one), so a stream never shows what was rolled back; each
event's id increases within its channel. Two backends behind the same calls: Redis streams plus
one pub/sub feed written by the same script (so log and feed agree on order), or
``live.models.Event`` rows polled by the streams (the embedded default). ``since`` answers the
events after an id, or None when the log no longer reaches back that far (the stream then sends
``reset``).

Redis is a helper, never a single point of failure: when it cannot be reached, ``_send`` writes
the events to the ``Event`` table instead (the outbox, empty otherwise under Redis), and
``RedisBackend.deliver_outbox`` appends them to Redis in their order once it answers again (at
this process's next event, when a web process's feed reconnects, and from the beat task
``live.outbox_deliver``). Streams resume from their last event id as after any reconnection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, close_old_connections, transaction
from django.db.models import Max, Min
from django.utils import timezone

from live.models import Event
from pente_site.commit import on_commit_gather
from pente_site.outage import LOG_SECONDS, Outage

log = logging.getLogger(__name__)

PUBSUB_CHANNEL = "live"

#: The errors of a Redis that cannot be reached (refused, reset, timed out, or down).
UNREACHABLE = (redis.RedisError, OSError)
#: How long events go straight to the outbox after Redis failed, before it is tried again.
OUTBOX_SECONDS = 2.0
#: At most one warning per this many seconds while events go to the outbox.
OUTBOX_LOG_SECONDS = LOG_SECONDS


def pubsub_channel(url: str) -> str:
    """The pub/sub channel of the Redis database of ``url``: pub/sub ignores database numbers,
    so two deployments (or the tests and a server) on one Redis server need a channel each."""
    db = redis.connection.parse_url(url).get("db", 0)
    return f"{PUBSUB_CHANNEL}:{db}"


KEY_PREFIX = "live:"


@dataclass(frozen=True, slots=True)
class LiveEvent:
    id: str
    channel: str
    kind: str
    data: dict[str, Any]
    #: The event as JSON when it came encoded (from Redis): encoded once for all its readers.
    body: str = field(default="", compare=False, repr=False)

    def as_json(self) -> str:
        if self.body:
            return self.body
        return json.dumps(
            {"id": self.id, "channel": self.channel, "type": self.kind, "data": self.data},
            cls=DjangoJSONEncoder,
            separators=(",", ":"),
        )


def _reset(channel: str, reason: str) -> LiveEvent:
    """Tells the client that it may have missed events: reload the state, then read on."""
    return LiveEvent("", channel, "reset", {"reason": reason})


class Encoded(str):
    """An event's data already written as JSON (``encode`` passes it as it is)."""


def encode(data: dict[str, Any] | Encoded) -> str:
    if isinstance(data, Encoded):
        return data
    return json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":"))


def publish(*, channel: str, kind: str, data: dict[str, Any]) -> None:
    """Send an event on ``channel`` once the current transaction commits."""
    publish_many([(channel, kind, data)])


def publish_many(events: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Send several events (``(channel, kind, data)``, in order) once the current transaction
    commits, in one round trip."""
    if not events:
        return
    _queue([(channel, kind, encode(data)) for channel, kind, data in events])


def publish_built(build: Callable[[], list[tuple[str, str, dict[str, Any]]]]) -> None:
    """Send the events that ``build()`` returns when the current transaction commits, built
    then (from what the transaction left), with the events published around them in the same
    round trip."""
    _queue([build])


def _queue(items: list[tuple[str, str, str] | Callable[[], list]]) -> None:
    """Send ``items`` (events encoded, or ``publish_built`` builders) with every other event of
    the transaction, in one round trip when it commits (a transaction finishing many games, the
    timeout sweeper's, sends one script call, not one per event)."""
    on_commit_gather("live.bus.publish", items, _send)


def _send(items: list[tuple[str, str, str] | Callable[[], list]]) -> None:
    encoded: list[tuple[str, str, str]] = []
    for item in items:
        if callable(item):
            encoded.extend((channel, kind, encode(data)) for channel, kind, data in item())
        else:
            encoded.append(item)
    if encoded:
        found = backend()
        if isinstance(found, RedisBackend):
            found.send(encoded)
        else:
            found.append_many(encoded)


# --- Redis ---------------------------------------------------------------------------------

# KEYS: the channels' streams, one per event; ARGV: keep, ttl seconds, the pub/sub channel, then
# channel, kind and data of each event. One call appends (and publishes) a whole batch.
_APPEND = """
local ids = {}
for i, key in ipairs(KEYS) do
  local channel, kind, data = ARGV[3 * i + 1], ARGV[3 * i + 2], ARGV[3 * i + 3]
  local id = redis.call('XADD', key, 'MAXLEN', '~', ARGV[1], '*', 'k', kind, 'd', data)
  redis.call('EXPIRE', key, ARGV[2])
  redis.call('PUBLISH', ARGV[3], channel .. '\\n' .. id .. '\\n' .. kind .. '\\n' .. data)
  ids[i] = id
end
return ids
"""


def _redis_order(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq or 0)


class RedisBackend:
    def __init__(self, url: str) -> None:
        self.url = url
        # Bounded waits: a Redis that does not answer costs a write a second, not the request.
        self.client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
        self.script = self.client.register_script(_APPEND)
        self.pubsub_channel = pubsub_channel(url)
        self.lock = threading.Lock()
        #: This process left events in the outbox: they are delivered before its next ones.
        self.outbox_pending = False
        self.outage = Outage(retry_seconds=OUTBOX_SECONDS, log_seconds=OUTBOX_LOG_SECONDS)
        #: Events written to the outbox, delivered from it, and lost (the database failed too).
        self.stats = {"outbox": 0, "delivered": 0, "dropped": 0}

    def send(self, events: list[tuple[str, str, str]]) -> None:
        """Append ``events``, after those this process left in the outbox; to the outbox
        when Redis cannot be reached."""
        if not self.outage.away():
            try:
                if self.outbox_pending:
                    self.deliver_outbox()
                self.append_many(events)
                return
            except UNREACHABLE as exc:
                self._note_failure(exc)
                return self._keep(events)
        self._keep(events)
        if not self.outage.away():
            # Redis came back (the feed said so) while they were written: a delivery the feed
            # started may have missed them, so deliver them now, not at the next event or sweep.
            try:
                self.deliver_outbox()
            except UNREACHABLE as exc:
                self._note_failure(exc)

    def _note_failure(self, exc: BaseException) -> None:
        if self.outage.failed():
            log.warning(
                "live: Redis cannot be reached (%s); events go to the database outbox (%d so far)",
                exc,
                self.stats["outbox"],
            )

    def _keep(self, events: list[tuple[str, str, str]]) -> None:
        """Write ``events`` to the outbox (in order), or count them lost when the database
        fails too."""
        rows = [Event(channel=c, kind=k, data=json.loads(payload)) for c, k, payload in events]
        try:
            with transaction.atomic():
                Event.objects.bulk_create(rows)
        except DatabaseError:
            with self.lock:
                self.stats["dropped"] += len(rows)
            log.exception("live: %d events lost (neither Redis nor the database)", len(rows))
            return
        with self.lock:
            self.outbox_pending = True
            self.stats["outbox"] += len(rows)

    def deliver_outbox(self) -> int:
        """Append the outbox's events to Redis in their order, deleting each batch once sent
        (a batch sent again after a failure between the two comes twice: the streams show
        what they already showed only when resumed from before it). Returns how many were
        delivered; raises when Redis cannot be reached (what is left stays)."""
        delivered = 0
        while True:
            with transaction.atomic():
                # Locked: two processes delivering at once send each batch once, in order.
                rows = list(Event.objects.select_for_update().order_by("id")[:500])
                if rows:
                    self.append_many([(r.channel, r.kind, encode(r.data)) for r in rows])
                    Event.objects.filter(pk__in=[r.pk for r in rows]).delete()
            delivered += len(rows)
            if len(rows) < 500:
                break
        with self.lock:
            self.outbox_pending = False
            self.outage.back()
            self.stats["delivered"] += delivered
        if delivered:
            log.warning("live: %d events delivered from the database outbox", delivered)
        return delivered

    def append(self, channel: str, kind: str, payload: str) -> str:
        return self.append_many([(channel, kind, payload)])[-1]

    def append_many(self, events: list[tuple[str, str, str]]) -> list[str]:
        keep, ttl = settings.LIVE_EVENTS_KEEP, settings.LIVE_EVENTS_KEEP_SECONDS
        ids: list[str] = []
        for start in range(0, len(events), 1000):  # a bounded script call per thousand events
            chunk = events[start : start + 1000]
            args: list[object] = [keep, ttl, self.pubsub_channel]
            for event in chunk:
                args.extend(event)
            keys = [KEY_PREFIX + channel for channel, _kind, _payload in chunk]
            ids.extend(event_id.decode() for event_id in self.script(keys=keys, args=args))
        return ids

    def valid_id(self, text: str) -> bool:
        try:
            _redis_order(text)
        except ValueError:
            return False
        return True

    def since(self, channel: str, last_id: str) -> list[LiveEvent] | None:
        if not self.valid_id(last_id):
            return None
        key = KEY_PREFIX + channel
        oldest_kept_ms = (time.time() - settings.LIVE_EVENTS_KEEP_SECONDS) * 1000
        if _redis_order(last_id)[0] < oldest_kept_ms:
            return None  # older than anything kept
        try:
            info = self.client.xinfo_stream(key)
        except redis.ResponseError:  # no such stream: nothing published since it expired
            info = None
        if info is not None and info["entries-added"] > info["length"]:  # trimmed by the cap
            first = info["first-entry"][0].decode() if info.get("first-entry") else None
            if first is None or _redis_order(last_id) < _redis_order(first):
                return None  # some events after last_id were trimmed away
        rows = self.client.xrange(key, min=f"({last_id}", max="+")
        return [self._event(channel, entry_id, fields) for entry_id, fields in rows]

    @staticmethod
    def _event(channel: str, entry_id: bytes, fields: dict[bytes, bytes]) -> LiveEvent:
        return LiveEvent(
            entry_id.decode(), channel, fields[b"k"].decode(), json.loads(fields[b"d"])
        )

    def order(self, event_id: str) -> tuple[int, int]:
        return _redis_order(event_id)

    async def follow(
        self, channel: str, last_id: str | None, ready: asyncio.Event | None = None
    ) -> AsyncIterator[LiveEvent]:
        """The events of ``channel`` after ``last_id`` (or from now), then as they come;
        ``ready`` is set once nothing published from then on can be missed."""
        queue: asyncio.Queue[LiveEvent] = asyncio.Queue(maxsize=settings.LIVE_QUEUE_SIZE)
        hub = await _Hub.of(self.url)
        hub.add(channel, queue)
        if ready is not None:
            ready.set()
        try:
            seen = self.order(last_id) if last_id is not None else None
            if last_id is not None:
                missed = await sync_to_async(self.since, thread_sensitive=False)(channel, last_id)
                if missed is None:
                    seen = None
                    yield _reset(channel, "too_old")
                for event in missed or []:
                    seen = self.order(event.id)
                    yield event
            while True:
                event = await queue.get()
                if event.kind == "reset" or seen is None or self.order(event.id) > seen:
                    seen = None if event.kind == "reset" else self.order(event.id)
                    yield event
        finally:
            hub.remove(channel, queue)


class _Hub:
    """One pub/sub subscription per web process and event loop, fanned out to its streams."""

    _hubs: dict[tuple[str, int], _Hub] = {}

    def __init__(self, url: str) -> None:
        self.url = url
        self.queues: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self.ready = asyncio.Event()
        self._delivering: asyncio.Future | None = None
        #: Subscribed once already (a later subscription is a reconnection).
        self.connected = False
        self.task = asyncio.get_running_loop().create_task(self._run())

    @classmethod
    async def of(cls, url: str) -> _Hub:
        key = (url, id(asyncio.get_running_loop()))
        hub = cls._hubs.get(key)
        if hub is None or hub.task.done():
            hub = cls._hubs[key] = cls(url)
        await hub.ready.wait()
        return hub

    def add(self, channel: str, queue: asyncio.Queue) -> None:
        self.queues[channel].add(queue)

    def remove(self, channel: str, queue: asyncio.Queue) -> None:
        queues = self.queues.get(channel)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.queues[channel]

    def _deliver(self, event: LiveEvent) -> None:
        for queue in list(self.queues.get(event.channel, ())):
            try:
                queue.put_nowait(event)
            except asyncio.QueueFull:  # a stream that does not keep up is told to reload
                self._overflow(queue, event.channel)

    def _overflow(self, queue: asyncio.Queue, channel: str) -> None:
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(_reset(channel, "too_slow"))

    async def _run(self) -> None:
        # Only its warnings: the feed retries every half second.
        outage = Outage(retry_seconds=0, log_seconds=OUTBOX_LOG_SECONDS)
        while True:
            client = aioredis.Redis.from_url(self.url, socket_connect_timeout=1)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(pubsub_channel(self.url))
                if self.connected:  # a reconnection: the streams may have missed events
                    for channel in list(self.queues):
                        for queue in list(self.queues.get(channel, ())):
                            self._overflow(queue, channel)
                self.connected = True
                self.ready.set()
                # Subscribed: what the outbox holds is delivered now, and reaches the streams.
                self._delivering = asyncio.ensure_future(_deliver_outbox(self.url))
                outage.reset()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    channel, event_id, kind, payload = message["data"].decode().split("\n", 3)
                    head = encode({"id": event_id, "channel": channel, "type": kind})
                    body = f'{head[:-1]},"data":{payload}}}'
                    self._deliver(LiveEvent(event_id, channel, kind, json.loads(payload), body))
            except UNREACHABLE as exc:
                self.ready.clear()  # new streams wait (with heartbeats) until it is back
                if outage.failed():
                    log.warning("live: the event feed cannot reach Redis (%s); retrying", exc)
                await asyncio.sleep(0.5)
            finally:
                await client.aclose()


async def _deliver_outbox(url: str) -> None:
    """Deliver the outbox from a web process whose feed (re)connected."""
    found = _backends.get(url)
    if found is None:
        found = _backends[url] = RedisBackend(url)
    try:
        await sync_to_async(_deliver_and_close, thread_sensitive=False)(found)
    except (*UNREACHABLE, DatabaseError):
        log.warning("live: the outbox could not be delivered yet", exc_info=True)


def _deliver_and_close(found: RedisBackend) -> int:
    # The feed is subscribed, so Redis answers: this process's writes go to it again from now
    # (before the outbox is read, so that none written meanwhile is left behind; see ``send``).
    found.outage.back()
    try:
        return found.deliver_outbox()
    finally:
        close_old_connections()


# --- the database (embedded default) -------------------------------------------------------


def _live_events(rows: Iterable[Event]) -> list[LiveEvent]:
    return [LiveEvent(str(r.pk), r.channel, r.kind, r.data) for r in rows]


class DatabaseBackend:
    def append(self, channel: str, kind: str, payload: str) -> str:
        return self.append_many([(channel, kind, payload)])[-1]

    def append_many(self, events: list[tuple[str, str, str]]) -> list[str]:
        rows = [Event(channel=c, kind=k, data=json.loads(payload)) for c, k, payload in events]
        if len(rows) == 1:
            rows[0].save()  # bulk_create does not give ids back on every database
        else:
            with transaction.atomic():
                for row in rows:
                    row.save()
        return [str(row.pk) for row in rows]

    def valid_id(self, text: str) -> bool:
        return text.isdigit()

    def since(self, channel: str, last_id: str) -> list[LiveEvent] | None:
        if not self.valid_id(last_id):
            return None
        last = int(last_id)
        bounds = Event.objects.aggregate(low=Min("id"), high=Max("id"))
        if bounds["low"] is not None and last < bounds["low"] - 1:
            return None  # the rows after last_id may have been trimmed
        if bounds["high"] is not None and last > bounds["high"]:
            return None  # an id this log never gave out
        return _live_events(Event.objects.filter(channel=channel, id__gt=last).order_by("id"))

    def _after(self, channel: str, last: int) -> list[LiveEvent]:
        return _live_events(Event.objects.filter(channel=channel, id__gt=last).order_by("id")[:100])

    async def follow(
        self, channel: str, last_id: str | None, ready: asyncio.Event | None = None
    ) -> AsyncIterator[LiveEvent]:
        """As ``RedisBackend.follow``, by polling the table."""
        if last_id is None:
            start = await sync_to_async(self._high, thread_sensitive=False)()
            if ready is not None:
                ready.set()
        else:
            if ready is not None:
                ready.set()  # what comes after last_id is read from the table: nothing is missed
            missed = await sync_to_async(self.since, thread_sensitive=False)(channel, last_id)
            if missed is None:
                yield _reset(channel, "too_old")
                start = await sync_to_async(self._high, thread_sensitive=False)()
            else:
                for event in missed:
                    yield event
                start = int(missed[-1].id) if missed else int(last_id)
        last = start
        while True:
            events = await sync_to_async(self._after, thread_sensitive=False)(channel, last)
            for event in events:
                last = int(event.id)
                yield event
            if not events:
                await asyncio.sleep(settings.LIVE_POLL_SECONDS)

    def _high(self) -> int:
        return Event.objects.aggregate(high=Max("id"))["high"] or 0

    def trim(self) -> int:
        """Delete the rows older than ``LIVE_EVENTS_KEEP_SECONDS`` (the newest row stays, so that
        the ids a client holds can still be told apart from ids never given out)."""
        cutoff = timezone.now() - timedelta(seconds=settings.LIVE_EVENTS_KEEP_SECONDS)
        newest = self._high()
        deleted, _ = Event.objects.filter(created_at__lt=cutoff, id__lt=newest).delete()
        return deleted


_backends: dict[str, RedisBackend | DatabaseBackend] = {}


def backend() -> RedisBackend | DatabaseBackend:
    """The backend of the current settings (Redis when ``REDIS_URL`` is set)."""
    url = settings.REDIS_URL
    found = _backends.get(url)
    if found is None:
        found = _backends[url] = RedisBackend(url) if url else DatabaseBackend()
    return found
