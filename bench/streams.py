"""Live event streams benchmark: how fast a move reaches N spectators' streams, and what holding
the streams open costs the move endpoint, on the production stack.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pente REDIS_URL=redis://127.0.0.1:6379/5 \\
    .venv/bin/python bench/streams.py [--clients 100,1000,max] [--games 10] [--seconds 15] \\
        [--rate 10] [--web-workers 2] [--max-clients 5000] [--pg-reserve 30] [--asgi ...] [--keep]

Creates a throwaway PostgreSQL database (``pente_bench_streams``, dropped at the end unless
``--keep``) and ``--games`` live Pente games with a 60-minute clock, whose moves were checked with
the engine beforehand so that none ends the game (``bench/api.py``'s ``make_games``). Starts the
production stack on free ports with the rate limits lifted: gunicorn (``--web-workers`` workers)
and a Celery worker as ``bench/api.py`` does, plus one uvicorn process
(``uvicorn pente_site.asgi:application``) that serves the streams, with the Redis backend of
``live.bus`` and ``LIVE_MAX_STREAMS`` lifted (the spectators are anonymous, all from 127.0.0.1).
Give it a Redis database of its own (``REDIS_URL``): its cache is cleared. The games' ids start
at a random 9-digit number: ``live.bus`` publishes on one pub/sub channel for every database of a
Redis server, so another user of the same server publishing on ``game:3`` would reach our streams
of a game 3. Logs: ``var/bench-streams/``.

After a short warm-up (one stream a game) it runs phases of ``--seconds`` each: without streams,
then for each N of ``--clients`` N streams and again without, so that every phase with streams
lies between two without (the machine is shared: the figure compared is the mean of the phases
without). With ``max`` last it then ramps up from the last N, doubling up to ``--max-clients``
(5,000) and the open-file limit (its soft limit is raised to the hard one first), and stops at
the first N whose streams do not all open and settle within ``--open-timeout`` (60 s), that
loses an event or whose delivery p99 is over ``--give-up-p99`` seconds; it prints the most
streams held. Before each phase the stream server settles: once the streams are opened (or
closed), until none has received anything for a second and uvicorn is idle, because opening
streams causes events of its own (each spectator who arrives is a ``spectators`` event to the
others of the game); the time taken is printed ("open s").

The PostgreSQL server is shared too, and an open stream may hold a connection of its own: the
streams are opened in steps, the stream server's connections counted after each
(``application_name``), and opening stops short of N rather than leave fewer than
``--pg-reserve`` connections free on the server (said as "only K streams opened"; the connections
a stream adds are printed). ``--asgi module:attribute`` serves the streams with another ASGI
application (a variant under trial), all else the same. A default run takes 1.5 to 5 minutes,
depending on how far the ramp gets.

In every phase the moves are paced, not a closed loop: ``--rate`` moves a second over all games
(10: one a second in each of 10 games, a busy blitz pace), one thread a game posting
``POST /api/games/{id}/moves`` on a keep-alive connection to gunicorn, the games offset evenly.
The latency of each POST is recorded (p50, p99). The streams (``GET /api/games/{id}/events``,
``Accept: text/event-stream``) are spread evenly over the games, and the delay of each ``move``
event is taken for each (move, stream): its arrival (the wall clock when the client has read the
chunk, before parsing it) minus ``state.server_time`` (the wall clock of the gunicorn worker that
published it once the move's transaction committed; DjangoJSONEncoder keeps milliseconds, so a
delay may read up to 1 ms long). The events expected (moves posted x the streams of their game)
and received are printed beside the median, p99 and max of the delays.

The stream clients are raw HTTP/1.1 on ``asyncio`` streams (``open_connection``, a ``GET``, then
the chunked SSE body read line by line), all in one event loop, so that one process holds
thousands of streams at a few kilobytes each (an HTTP client library costs far more a connection
and an event); a ``data:`` line is parsed once per event and shared by the clients that get the
same event. That loop runs in a process of its own, apart from the move driver: parsing
thousands of events a second would otherwise hold the driver's interpreter lock and lengthen the
very move latencies being compared (and the driver's threads would delay the clients' time
stamps). The client process stays up, idle, in the phases without streams, and each phase prints
the CPU that uvicorn and the client process used, so that a saturated client shows.

Targets: delivery p99 under 100 ms at 1,000 streams, every event received; the move endpoint's
p99 with streams open (each N of ``--clients``) no worse than 1.5x its p99 without. Exit status
1 when a target is missed. Every process started is stopped on exit, on Ctrl-C and on errors.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import math
import multiprocessing
import os
import random
import signal
import statistics
import sys
import threading
import time
from array import array
from collections import Counter, defaultdict
from datetime import datetime
from urllib.parse import urlsplit, urlunsplit

import api
from _support import (
    ROOT,
    bench_url,
    process_cpu_seconds,
    quantile,
    raise_open_files_limit,
    recreate_database,
    setup_django,
    start_stack,
    stop_stack,
)

DB_NAME = "pente_bench_streams"
TARGET_CLIENTS = 1000
TARGET_P99_MS = 100.0
TARGET_MOVE_RATIO = 1.5
MAX_MOVES_A_GAME = 250  # moves prepared a game (a 19x19 board fills up)
FD_RESERVE = 256  # open files kept for everything but the streams, in each process
OPEN_AT_ONCE = 100  # streams being opened at the same time
GRACE_SECONDS = 5.0  # after the last move, the longest wait for the events still under way
MAX_STEP = 1000  # streams opened in one step (between two looks at PostgreSQL's connections)
STREAMS_APP = "pente-bench-streams"  # application_name of the stream server's connections


# --- the stream clients (a process of their own) --------------------------------------------


class _Client:
    __slots__ = ("game", "reader", "writer", "task")

    def __init__(
        self, game: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.game = game
        self.reader = reader
        self.writer = writer
        self.task: asyncio.Task | None = None


class Streams:
    """The stream clients: one task a stream, the events' delays recorded while ``recording``."""

    def __init__(self, port: int, games: list[int]) -> None:
        self.port = port
        self.games = games
        self.clients: list[_Client] = []
        self.opened = 0  # clients ever opened: picks the game of the next one
        self.recording = False
        self.delays: dict[tuple[int, int], array] = defaultdict(lambda: array("d"))
        self.parsed: dict[bytes, tuple[str, int | None, float | None]] = {}
        self.counts: Counter[str] = Counter()  # resets, other events, dropped streams
        self.last_data = time.monotonic()  # when a stream last received something

    # opening and closing

    async def resize(self, n: int, timeout: float = 300) -> dict:
        """Open or close streams until ``n`` are open (those not started within ``timeout``
        seconds are given up); what failed to open, by reason."""
        began = time.perf_counter()
        deadline = time.monotonic() + timeout
        failed: Counter[str] = Counter()
        if n < len(self.clients):
            closing, self.clients = self.clients[n:], self.clients[:n]
            await self._close(closing)
        elif n > len(self.clients):
            gate = asyncio.Semaphore(OPEN_AT_ONCE)
            games = [
                self.games[(self.opened + i) % len(self.games)]
                for i in range(n - len(self.clients))
            ]
            self.opened += len(games)
            results = await asyncio.gather(*(self._open(g, gate, deadline) for g in games))
            for result in results:
                if isinstance(result, _Client):
                    self.clients.append(result)
                    result.task = asyncio.create_task(self._follow(result))
                else:
                    failed[result] += 1
        return {
            "open": len(self.clients),
            "failed": dict(failed),
            "seconds": time.perf_counter() - began,
            "per_game": dict(Counter(c.game for c in self.clients)),
        }

    async def _open(self, game: int, gate: asyncio.Semaphore, deadline: float) -> _Client | str:
        async with gate:
            if time.monotonic() > deadline:
                return "given up (--open-timeout)"
            writer = None
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port), 30
                )
                writer.write(
                    f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                    "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n".encode()
                )
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
                status = head.split(b" ", 2)[1].decode()
                if status != "200":
                    writer.close()
                    return f"HTTP {status}"
                if b"transfer-encoding: chunked" not in head.lower():
                    writer.close()
                    return "not chunked"
                # The body's first chunk (the event "connected"): the server's stream follows.
                first = await asyncio.wait_for(self._chunk(reader), 30)
                if first is None or b"connected" not in first:
                    writer.close()
                    return "no 'connected' event"
                return _Client(game, reader, writer)
            except TimeoutError:
                if writer is not None:
                    writer.close()
                return "timeout"
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
                if writer is not None:
                    writer.close()
                return type(exc).__name__ + (
                    f" errno {exc.errno}" if isinstance(exc, OSError) else ""
                )

    @staticmethod
    async def _chunk(reader: asyncio.StreamReader) -> bytes | None:
        """The next chunk of a chunked body; None at its end."""
        size = int((await reader.readline()).split(b";", 1)[0], 16)
        if size == 0:
            return None
        return (await reader.readexactly(size + 2))[:-2]

    async def _close(self, clients: list[_Client]) -> None:
        for client in clients:
            if client.task is not None:
                client.task.cancel()
            client.writer.close()
        await asyncio.gather(*(c.task for c in clients if c.task), return_exceptions=True)

    # reading

    async def _follow(self, client: _Client) -> None:
        reader = client.reader
        rest = b""
        try:
            while True:
                data = await self._chunk(reader)
                if data is None:
                    break
                now = time.time()
                self.last_data = time.monotonic()
                *lines, rest = (rest + data).split(b"\n")
                for line in lines:
                    if line.startswith(b"data:"):
                        self._event(client.game, line, now)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        # The server ended the stream (a cancelled task, our own close, never gets here).
        self.counts["dropped"] += 1
        if client in self.clients:
            self.clients.remove(client)

    def _event(self, game: int, line: bytes, now: float) -> None:
        # The same event reaches every client of its game: parse it once, by its id and channel.
        key = line[: line.find(b',"type"')]
        info = self.parsed.get(key)
        if info is None:
            event = json.loads(line[5:])
            data = event["data"]
            if event["type"] == "move" and data.get("moves"):
                sent = datetime.fromisoformat(data["state"]["server_time"]).timestamp()
                info = ("move", data["moves"][-1]["ply"], sent)
            else:
                info = (event["type"], None, None)
            self.parsed[key] = info
        if not self.recording:
            return
        kind, ply, sent = info
        if kind == "move":
            self.delays[(game, ply)].append(now - sent)
        else:
            self.counts[kind if kind == "reset" else "other"] += 1

    # a phase

    async def quiet(self, quiet_for: float, timeout: float) -> tuple[float, bool]:
        """Waits until no stream has received anything for ``quiet_for`` seconds (the events
        that opening the streams caused have all come), at most ``timeout``: (seconds waited,
        whether it went quiet)."""
        began = time.monotonic()
        while time.monotonic() - self.last_data < quiet_for:
            if time.monotonic() - began > timeout:
                return time.monotonic() - began, False
            await asyncio.sleep(0.1)
        return time.monotonic() - began, True

    def start(self) -> None:
        self.delays.clear()
        self.parsed.clear()
        self.counts.clear()
        self.recording = True

    async def collect(self, posted: list[tuple[int, int]], expected: int, timeout: float) -> dict:
        """Waits (at most ``timeout``) for the ``expected`` events of the moves ``posted``; their
        delays, and the events that match no move posted."""
        keys = set(posted)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if sum(len(self.delays[k]) for k in keys if k in self.delays) >= expected:
                break
            await asyncio.sleep(0.05)
        self.recording = False
        matched = array("d")
        unexpected = 0
        for key, delays in self.delays.items():
            if key in keys:
                matched.extend(delays)
            else:
                unexpected += len(delays)
        return {"delays": matched, "unexpected": unexpected, **self.counts}


async def _serve(conn, port: int, games: list[int]) -> None:
    streams = Streams(port, games)
    loop = asyncio.get_running_loop()
    while True:
        command, *args = await loop.run_in_executor(None, conn.recv)
        if command == "resize":
            conn.send(await streams.resize(*args))
        elif command == "quiet":
            conn.send(await streams.quiet(*args))
        elif command == "start":
            streams.start()
            conn.send(None)
        elif command == "collect":
            conn.send(await streams.collect(*args))
        elif command == "quit":
            await streams.resize(0)
            conn.send(None)
            return


def client_process(conn, port: int, games: list[int]) -> None:
    """The stream clients' process: answers the driver's commands over ``conn``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the driver stops this process
    raise_open_files_limit()
    asyncio.run(_serve(conn, port, games))


class ClientProcess:
    """The driver's handle on the client process (``spawn``: nothing of Django is inherited)."""

    def __init__(self, port: int, games: list[int]) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        self.proc = context.Process(
            target=client_process, args=(theirs, port, games), name="stream-clients", daemon=True
        )
        self.proc.start()
        theirs.close()

    def call(self, *command, timeout: float = 300):
        self.conn.send(command)
        if not self.conn.poll(timeout):
            raise RuntimeError(f"the client process did not answer {command[0]!r}")
        return self.conn.recv()

    def stop(self) -> None:
        if self.proc.is_alive():
            try:
                self.call("quit", timeout=30)
            except (OSError, EOFError, RuntimeError):
                pass
            self.proc.join(5)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(5)


# --- the move driver -------------------------------------------------------------------------


def drive(tables: list[dict], port: int, rate: float, seconds: float) -> dict:
    """Moves in every game, ``rate`` a second in all, evenly spaced (each game a move every
    ``len(tables) / rate`` s, the games offset), for ``seconds``: the latency of each POST (s)
    and the (game, ply) of each move as its event shows it."""
    interval = len(tables) / rate
    latencies: list[float] = []
    posted: list[tuple[int, int]] = []
    errors: list[str] = []
    start_at = time.perf_counter() + 0.2
    stop_at = start_at + seconds

    def loop(i: int, table: dict) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        job = api.move_job([table])
        due = start_at + i / rate
        try:
            while due < stop_at and table["moves"]:
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                if interval > 4:  # gunicorn keeps an idle connection 5 s: a new one each time
                    conn.close()
                ply = table["ply"]
                began = time.perf_counter()
                job(conn)
                latencies.append(time.perf_counter() - began)
                posted.append((table["game"], ply + 1))  # the move the player saw ``ply`` makes
                due = max(due + interval, time.perf_counter())
        except Exception as exc:  # reported after the phase
            errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            conn.close()

    threads = [
        threading.Thread(target=loop, args=(i, t), daemon=True) for i, t in enumerate(tables)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        sys.exit(f"{len(errors)} move driver(s) failed, e.g. {errors[0]}")
    if any(not t["moves"] for t in tables):
        print("  (a game ran out of prepared moves: raise --games or lower --rate)")
    return {"latencies": latencies, "posted": posted}


# --- figures ---------------------------------------------------------------------------------


def pg_connections() -> tuple[int, int]:
    """(connections the PostgreSQL server can still take, connections of the stream server)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('max_connections')::int"
            " - current_setting('superuser_reserved_connections')::int - count(*),"
            " count(*) FILTER (WHERE application_name = %s)"
            " FROM pg_stat_activity WHERE backend_type = 'client backend'",
            [STREAMS_APP],
        )
        return cursor.fetchone()


# --- the phases ------------------------------------------------------------------------------


class Bench:
    """The phases of a run, against the stack started by ``main``."""

    def __init__(self, *, args, tables, clients: ClientProcess, api_port: int, pids) -> None:
        self.args = args
        self.tables = tables
        self.clients = clients
        self.api_port = api_port
        self.pids = pids
        self.open = 0
        self.per_game: dict[int, int] = {}
        self.pg_cost: float | None = None  # PostgreSQL connections a stream opened adds
        self.pg_step = 1  # the streams opened at once that measured it

    def resize(self, n: int, deadline: float) -> dict:
        """Open or close streams until ``n`` are open, but never leave fewer than
        ``--pg-reserve`` connections free on the PostgreSQL server, which is shared: open streams
        in steps, the connections one adds measured as they open (``limited`` says why fewer
        than ``n`` are open). Streams not opened by ``deadline`` are given up."""
        failed: Counter[str] = Counter()
        began = time.monotonic()
        limited = None
        while True:
            step = n - self.open
            if step > 0:
                free, held = pg_connections()
                room = free - self.args.pg_reserve
                if self.pg_cost is None:
                    step = min(step, room // 2)
                else:
                    step = min(step, MAX_STEP, int(room / max(self.pg_cost, 0.05)))
                if step < 1:
                    limited = f"{free} PostgreSQL connections free, {self.args.pg_reserve} kept"
                    break
            before = self.open
            timeout = max(0.0, deadline - time.monotonic())
            reply = self.clients.call("resize", self.open + step, timeout, timeout=timeout + 60)
            self.open, self.per_game = reply["open"], reply["per_game"]
            failed.update(reply["failed"])
            if step <= 0:
                break
            if self.open - before >= self.pg_step:  # the largest step measures it best
                self.pg_step = self.open - before
                self.pg_cost = (pg_connections()[1] - held) / self.pg_step
            if reply["failed"] or self.open >= n:
                break
        return {"failed": failed, "seconds": time.monotonic() - began, "limited": limited}

    def settle(self, n: int, deadline: float) -> tuple[float, bool]:
        """Waits for the stream server to be done with opening (or closing) streams: with
        ``n`` streams open, until they have received nothing for a second; then until uvicorn
        uses under a tenth of a core (the machine is shared: at most until ``deadline``, then
        10 s more). (Seconds waited, whether the streams went quiet.)"""
        began = time.monotonic()
        quiet = True
        if n:
            timeout = max(1.0, deadline - time.monotonic())
            _waited, quiet = self.clients.call("quiet", 1.0, timeout, timeout=timeout + 60)
        pid = self.pids["uvicorn"]
        give_up = max(deadline, time.monotonic()) + 10
        while time.monotonic() < give_up:
            before = process_cpu_seconds(pid)
            time.sleep(0.5)
            if not (process_cpu_seconds(pid) - before > 0.05):  # NaN (not Linux) ends it too
                break
        return time.monotonic() - began, quiet

    def phase(self, label: str, n: int, seconds: float | None = None) -> dict:
        """One phase: ``n`` streams open (0: none), once the server has settled, then moves
        paced for ``seconds``."""
        deadline = time.monotonic() + self.args.open_timeout
        opened = self.resize(n, deadline)
        if opened["failed"]:
            print(
                f"  {label}: {opened['failed'].total()} stream(s) did not open: {opened['failed']}"
            )
        if opened["limited"]:
            print(f"  {label}: only {self.open} streams opened ({opened['limited']})")
        failed = opened["failed"].total()
        r = {"label": label, "n": n, "open": self.open, "failed": failed, **opened}
        r["failed"] = failed
        if n and not self.open:
            print(f"  {label}: not run, no stream open")
            return r | {
                "skipped": True,
                "ok": False,
                "held": False,
                "expected": 0,
                "received": 0,
                "p99": math.nan,
            }
        r["settle_seconds"], r["quiet"] = self.settle(self.open, deadline)
        if not r["quiet"]:
            print(
                f"  {label}: the streams were still receiving events {r['settle_seconds']:.0f} s on"
            )
        r["pg"] = pg_connections()[1]
        cpu0 = {name: process_cpu_seconds(pid) for name, pid in self.pids.items()}
        wall0 = time.monotonic()
        self.clients.call("start")
        moves = drive(self.tables, self.api_port, self.args.rate, seconds or self.args.seconds)
        expected = sum(self.per_game.get(game, 0) for game, _ply in moves["posted"])
        got = self.clients.call("collect", moves["posted"], expected, GRACE_SECONDS)
        wall = time.monotonic() - wall0
        lat = sorted(moves["latencies"])
        delays = sorted(got["delays"])
        r |= {
            "moves": len(lat),
            "move_p50": 1000 * quantile(lat, 0.5),
            "move_p99": 1000 * quantile(lat, 0.99),
            "expected": expected,
            "received": len(delays),
            "p50": 1000 * quantile(delays, 0.5),
            "p99": 1000 * quantile(delays, 0.99),
            "max": 1000 * delays[-1] if delays else math.nan,
            "unexpected": got["unexpected"],
            "resets": got.get("reset", 0),
            "dropped": got.get("dropped", 0),
            "cpu": {k: (process_cpu_seconds(pid) - cpu0[k]) / wall for k, pid in self.pids.items()},
        }
        # The streams open were served: all settled, every event came, in time. And held: all
        # those asked for were open.
        r["ok"] = (
            r["failed"] == 0
            and r["quiet"]
            and r["received"] >= expected
            and r["resets"] == 0
            and r["dropped"] == 0
            and r["p99"] <= 1000 * self.args.give_up_p99
        )
        r["held"] = r["ok"] and r["open"] == n
        print(f"  {label}: {phase_line(r)}")
        return r


def phase_line(r: dict) -> str:
    line = (
        f"{r['moves']} moves p50 {r['move_p50']:.1f} p99 {r['move_p99']:.1f} ms; "
        f"CPU uvicorn {100 * r['cpu']['uvicorn']:.0f}% clients {100 * r['cpu']['clients']:.0f}%"
    )
    if r["n"]:
        line += (
            f"; {r['open']} streams opened in {r['seconds']:.1f} s, settled in "
            f"{r['settle_seconds']:.1f} s, the stream server "
            f"holding {r['pg']} PostgreSQL connections; events {r['received']}/{r['expected']} "
            f"p50 {r['p50']:.1f} p99 {r['p99']:.1f} max {r['max']:.1f} ms"
        )
        extra = {k: r[k] for k in ("unexpected", "resets", "dropped") if r[k]}
        if extra:
            line += f" {extra}"
    return line


# --- the run ---------------------------------------------------------------------------------


def parse_levels(text: str) -> tuple[list[int], bool]:
    levels, ramp = [], False
    for item in text.split(","):
        item = item.strip().lower()
        if item == "max":
            ramp = True
        elif item:
            levels.append(int(item))
    return [n for n in levels if n > 0], ramp


def ramp_levels(start: int, cap: int) -> list[int]:
    levels, n = [], start
    while n < cap:
        n = min(2 * n, cap)
        levels.append(n)
    return levels


def prepare(args, cap: int, levels: list[int], ramp: bool) -> list[dict]:
    """The games, with enough moves prepared for every phase (their ids far above those of other
    databases: the Redis pub/sub channel of ``live.bus`` is shared by all databases of a server,
    so another user of this Redis publishing on ``game:3`` would reach our streams of game 3)."""
    from django.db import connection

    from games.play.models import Game

    phases = 1 + 2 * len(levels) + (len(ramp_levels(max(levels, default=50), cap)) if ramp else 0)
    per_game = math.ceil(args.rate / args.games * (args.seconds + 1) * (phases + 1)) + 10
    if per_game > MAX_MOVES_A_GAME:
        sys.exit(
            f"{per_game} moves a game needed (over {MAX_MOVES_A_GAME}): raise --games, "
            "lower --rate or --seconds"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)",
            [Game._meta.db_table, random.randrange(10**8, 9 * 10**8)],
        )
    api.EXTRA_MOVES = per_game  # make_games prepares this many moves beyond the start
    print(f"setting up {args.games} games with {per_game} moves each ...")
    return api.make_games(count=args.games, start_ply=1, tag="s")


def run(bench: Bench, levels: list[int], ramp: bool, cap: int) -> tuple[list[dict], str]:
    """The phases; and the most streams held, with what bounded them (when ``ramp``)."""
    print(f"warming up: one stream a game, {bench.args.rate:g} moves/s for 2 s ...")
    warm = bench.phase("warm-up", len(bench.tables), seconds=2)
    if not warm["received"]:
        sys.exit("no move event reached the streams: see the logs in var/bench-streams/")
    results = []
    count = iter(range(1, 1000))
    results.append(bench.phase(f"without ({next(count)})", 0))
    for n in levels:
        results.append(bench.phase(f"{n:,} streams", n))
        results.append(bench.phase(f"without ({next(count)})", 0))
    if not ramp:
        return results, ""
    last = results[-2] if levels else None
    if last is None or last["held"]:
        for n in ramp_levels(max(levels, default=50), cap):
            last = bench.phase(f"ramp {n:,} streams", n)
            results.append(last)
            if not last["held"]:
                break
    most = max((r["open"] for r in results if r["n"] and r["ok"]), default=0)
    if last is None:
        why = ""
    elif last["limited"]:
        why = f"bound: PostgreSQL connections, {max(0.0, bench.pg_cost or 0):.2f} a stream opened"
    elif last["held"] and last["open"] == cap:
        why = "bound: --max-clients and the open-file limit"
    else:
        problems = [f"{last['failed']} did not open"] if last["failed"] else []
        if not last.get("quiet", True):
            problems.append(f"not settled within {bench.args.open_timeout:g} s")
        if last["expected"] > last["received"]:
            problems.append(f"{last['expected'] - last['received']} events not received")
        problems += [f"{last[k]} {k}" for k in ("resets", "dropped") if last.get(k)]
        if last.get("p99", 0) > 1000 * bench.args.give_up_p99:
            problems.append(f"delivery p99 {last['p99'] / 1000:.1f} s")
        why = f"at {last['n']:,}: " + ", ".join(problems)
    return results, f"{most:,} ({why})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="100,1000,max", help="e.g. 100,1000,max")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15.0, help="of each phase")
    parser.add_argument("--rate", type=float, default=10.0, help="moves a second, all games")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--max-clients", type=int, default=5000, help="the ramp's bound")
    parser.add_argument("--give-up-p99", type=float, default=2.0, help="seconds: ends the ramp")
    parser.add_argument(
        "--open-timeout",
        type=float,
        default=60.0,
        help="seconds to open and settle one level's streams (more: the ramp ends)",
    )
    parser.add_argument(
        "--pg-reserve", type=int, default=30, help="PostgreSQL connections always left free"
    )
    parser.add_argument(
        "--asgi",
        default="pente_site.asgi:application",
        help="the ASGI application (module:attribute) uvicorn serves the streams with",
    )
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()
    levels, ramp = parse_levels(args.clients)
    base = os.environ.get("DATABASE_URL", "")
    if not base or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the benchmark runs the real stack")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up as on Ctrl-C
    files = raise_open_files_limit()
    cap = min(args.max_clients, files - FD_RESERVE)
    if any(n > cap for n in levels):
        sys.exit(f"at most {cap} clients (open-file limit {files}, --max-clients)")

    url = bench_url(base, DB_NAME)
    recreate_database(base, DB_NAME)
    procs: list = []
    uvicorn = clients = None
    try:
        setup_django(url)
        from django.core.cache import cache

        from tests.servers import free_port, start_server, stop_server

        cache.clear()  # the benchmark's Redis database: positions of an earlier run are stale
        tables = prepare(args, cap, levels, ramp)
        log_dir = ROOT / "var" / "bench-streams"
        log_dir.mkdir(parents=True, exist_ok=True)
        api_port, stream_port = free_port(), free_port()
        procs = start_stack(url=url, port=api_port, web_workers=args.web_workers, log_dir=log_dir)
        parts = urlsplit(url)
        query = "&".join(q for q in (parts.query, f"application_name={STREAMS_APP}") if q)
        env = {
            **os.environ,  # REDIS_URL, DEBUG=0, SECRET_KEY, ... (setup_django)
            # The stream server's connections named, so that they can be counted.
            "DATABASE_URL": urlunsplit(parts._replace(query=query)),
            "ALLOWED_HOSTS": "127.0.0.1",
            "LIVE_MAX_STREAMS": str(10 * cap),  # every spectator is anonymous, from 127.0.0.1
            "LIVE_MAX_STREAMS_PER_PROCESS": str(10 * cap),
            "CELERY_TASK_ALWAYS_EAGER": "0",
        }
        uvicorn = start_server(
            [
                *(sys.executable, "-m", "uvicorn", args.asgi),
                *("--host", "127.0.0.1", "--port", str(stream_port)),
                *("--log-level", "warning", "--timeout-graceful-shutdown", "5"),
            ],
            env=env,
            ready_url=f"http://127.0.0.1:{stream_port}/api/",
            log=log_dir / "streams.log",
        )
        clients = ClientProcess(stream_port, [t["game"] for t in tables])
        bench = Bench(
            args=args,
            tables=tables,
            clients=clients,
            api_port=api_port,
            pids={"uvicorn": uvicorn.pid, "clients": clients.proc.pid},
        )
        results, most = run(bench, levels, ramp, cap)
    finally:
        if clients is not None:
            clients.stop()
        if uvicorn is not None:
            stop_server(uvicorn)
        stop_stack(procs)
        if not args.keep:
            from django.db import connections  # Django is set up once the database exists

            connections.close_all()
            recreate_database(base, DB_NAME, drop_only=True)
    return report(results, args, most, bench.pg_cost)


def report(results: list[dict], args, most: str, pg_cost: float | None) -> int:
    without = [r for r in results if not r["n"]]
    base_p50 = statistics.mean(r["move_p50"] for r in without)
    base_p99 = statistics.mean(r["move_p99"] for r in without)
    print(
        f"\n{args.games} games, {args.rate:g} moves/s in all (a move every "
        f"{args.games / args.rate:.1f} s in each), {args.seconds:g} s a phase, "
        f"{args.web_workers} gunicorn workers, 1 uvicorn for the streams.\n"
        "open s: opening the streams and settling; moves: POST latency (ms); events: delay "
        "from commit to stream (ms);\nCPU: % of one core (uvicorn, the client process); pg: "
        "the stream server's PostgreSQL connections."
    )
    print(f"{'':<35}{' moves ':-^20}{' events ':-^43}{' CPU ':-^16}")
    print(
        f"{'phase':<20}{'streams':>8}{'open s':>7}{'count':>6}{'p50':>7}{'p99':>7}"
        f"{'expected':>10}{'received':>10}{'p50':>7}{'p99':>8}{'max':>8}"
        f"{'uvicorn':>8}{'clients':>8}{'pg':>5}"
    )
    for r in results:
        if r.get("skipped"):
            why = r["limited"] or f"{r['failed']} failed"
            print(f"{r['label']:<20}{0:>8}  not run: no stream opened ({why})")
            continue
        opening = f"{r['seconds'] + r['settle_seconds']:>7.1f}" if r["n"] else f"{'':>7}"
        events = (
            f"{r['expected']:>10}{r['received']:>10}{r['p50']:>7.1f}{r['p99']:>8.1f}"
            f"{r['max']:>8.1f}"
            if r["n"]
            else " " * 43
        )
        print(
            f"{r['label']:<20}{r['open']:>8}{opening}{r['moves']:>6}{r['move_p50']:>7.1f}"
            f"{r['move_p99']:>7.1f}{events}{100 * r['cpu']['uvicorn']:>7.0f}%"
            f"{100 * r['cpu']['clients']:>7.0f}%{r['pg']:>5}"
        )
    print(f"{'mean without':<41}{base_p50:>7.1f}{base_p99:>7.1f}")
    print()
    checks = []
    at_target = [r for r in results if r["n"] == TARGET_CLIENTS and "ramp" not in r["label"]]
    for r in at_target:
        if r.get("skipped"):
            figure = f"delivery at {TARGET_CLIENTS:,} streams: none opened"
        else:
            figure = (
                f"delivery p99 at {r['open']:,} of {TARGET_CLIENTS:,} streams: {r['p99']:.1f} ms, "
                f"{r['expected'] - r['received']} lost"
            )
        checks.append(
            (
                figure,
                f"< {TARGET_P99_MS:.0f} ms at {TARGET_CLIENTS:,}, none lost",
                r["held"] and r["p99"] < TARGET_P99_MS,
            )
        )
    if not at_target:
        print(f"(no phase of {TARGET_CLIENTS:,} streams: the delivery target is not checked)")
    for r in results:
        if r["n"] and "ramp" not in r["label"] and not r.get("skipped"):
            ratio = r["move_p99"] / base_p99
            checks.append(
                (
                    f"move p99 with {r['open']:,} streams / without: {ratio:.2f}x",
                    f"<= {TARGET_MOVE_RATIO:g}x",
                    ratio <= TARGET_MOVE_RATIO,
                )
            )
    for figure, target, ok in checks:
        print(f"{figure:<58}{target:<30}{'ok' if ok else 'MISSED'}")
    if pg_cost is not None:
        print(f"{'PostgreSQL connections a stream opened adds':<58}{max(0.0, pg_cost):.2f}")
    if most:
        print(f"{'most streams held':<58}{most}")
    return 0 if all(ok for _f, _t, ok in checks) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # everything is stopped by then (main's finally)
        sys.exit(130)
