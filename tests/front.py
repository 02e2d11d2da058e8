"""The front server under load, for ``tests/pente_site/test_front.py`` and ``bench/slowloris.py``:
the stack behind nginx started on free ports, slow clients that never finish their request, and
the latency of ``GET /api/`` meanwhile."""

from __future__ import annotations

import http.client
import os
import pwd
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings as django_settings

from pente_site.front import Front, prepare
from tests.servers import ROOT, free_port, start_server, stop_server

GUNICORN = Path(sys.executable).with_name("gunicorn")
#: A slow client's request: a body of 100 bytes announced, 4 of them sent (then one more now and
#: then, so that it stays within nginx's ``client_body_timeout``).
SLOW_HEAD = (
    b"POST /api/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n"
)
SLOW_START = b'{"us'
#: Seconds between two bytes of a slow client (nginx drops one silent for 10 s).
DRIP_SECONDS = 4.0
#: The settings of the stack: production (``DEBUG=0``) on the embedded default.
STACK_SETTINGS = {
    "DEBUG": "0",
    "SECRET_KEY": "a-test-only-secret-key-that-is-long-enough-0123456789",
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "WEB_CONCURRENCY": "2",
}


def ports(count: int) -> list[int]:
    """``count`` ports to listen on: consecutive from ``TEST_PORTS_FROM`` when it is set (a
    shared machine's own range; ``front_stack`` takes the first three), else free ones."""
    first = os.environ.get("TEST_PORTS_FROM")
    if first:
        return [int(first) + i for i in range(count)]
    return [free_port() for _ in range(count)]


@dataclass(frozen=True)
class Stack:
    """The ports the stack listens on, nginx (``front``), gunicorn (``web``) and uvicorn
    (``streams``), on 127.0.0.1; nginx's prefix and the folder it serves ``/static/`` from."""

    front: int
    web: int
    streams: int
    prefix: Path
    static_root: Path


@contextmanager
def front_stack(
    folder: Path, *, nginx: str, settings: dict[str, str] | None = None
) -> Iterator[Stack]:
    """gunicorn (as ``pente_site/gunicorn.conf.py`` makes it) and uvicorn on the embedded
    database in ``folder``, behind nginx run on ``deploy/nginx.conf`` rendered into
    ``folder/front``, every rate limit lifted (a slow client's request must reach the view that
    reads its body); ``settings`` are added to the servers' environment. Everything started is
    stopped on leaving."""
    front_port, web_port, streams_port = ports(3)
    var_dir = folder / "var"
    var_dir.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(STACK_SETTINGS, PENTE_VAR_DIR=str(var_dir), BIND=f"127.0.0.1:{web_port}")
    env.update(
        {
            f"THROTTLE_{scope.upper()}_RATE": "1000000/min"
            for scope in django_settings.THROTTLE_RATES
        }
    )
    env.update(settings or {})
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0", "--skip-checks"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    front = Front(
        listen=f"127.0.0.1:{front_port}",
        web=f"127.0.0.1:{web_port}",
        streams=f"127.0.0.1:{streams_port}",
        static_root=var_dir / "static",
        user=nginx_user(),
        workers="1",
    )
    argv = prepare(folder / "front", front=front)
    argv[0] = nginx
    with ExitStack() as stack:
        for command, url, log in (
            (
                [str(GUNICORN), "-c", "pente_site/gunicorn.conf.py", "pente_site.wsgi"],
                f"http://127.0.0.1:{web_port}/api/",
                "gunicorn.log",
            ),
            (
                [sys.executable, "-m", "uvicorn", "pente_site.asgi:application"]
                + ["--port", str(streams_port), "--log-level", "warning"],
                f"http://127.0.0.1:{streams_port}/api/",
                "uvicorn.log",
            ),
            ([*argv, "-g", "daemon off;"], f"http://127.0.0.1:{front_port}/api/", "nginx.log"),
        ):
            proc = start_server(command, env=env, ready_url=url, log=folder / log)
            stack.callback(stop_server, proc, timeout=30)
        yield Stack(
            front=front_port,
            web=web_port,
            streams=streams_port,
            prefix=folder / "front",
            static_root=front.static_root,
        )


def nginx_user() -> str:
    """The user nginx's workers run as: this one (nginx ignores the setting unless run as
    root, and then the test's folders are root's alone)."""
    return pwd.getpwuid(os.getuid()).pw_name


class SlowClients:
    """``count`` connections to ``port`` that each announce a body of 100 bytes, send 4 and
    then one byte every ``DRIP_SECONDS``: clients that take minutes to send one request."""

    def __init__(self, port: int, count: int) -> None:
        self.sockets: list[socket.socket] = []
        self._stop = threading.Event()
        for _ in range(count):
            conn = socket.create_connection(("127.0.0.1", port), timeout=10)
            conn.sendall(SLOW_HEAD + SLOW_START)
            self.sockets.append(conn)
        self._dripper = threading.Thread(target=self._drip, daemon=True)
        self._dripper.start()

    def _drip(self) -> None:
        while not self._stop.wait(DRIP_SECONDS):
            for conn in self.sockets:
                try:
                    conn.sendall(b" ")
                except OSError:
                    pass  # closed by the server: ``still_waiting`` counts it out

    def still_waiting(self) -> int:
        """How many of the connections are open with no answer yet."""
        waiting = 0
        for conn in self.sockets:
            conn.setblocking(False)
            try:
                conn.recv(1)  # b"" (closed) or the start of an answer
            except BlockingIOError:
                waiting += 1
            except OSError:
                pass
            finally:
                conn.setblocking(True)
        return waiting

    def close(self) -> None:
        self._stop.set()
        self._dripper.join()
        for conn in self.sockets:
            conn.close()

    def __enter__(self) -> SlowClients:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def api_root_latencies(port: int, *, requests: int, timeout: float) -> list[float | None]:
    """The time of ``requests`` successive ``GET /api/`` on ``port`` (ms), each on a new
    connection as a new visitor's; None for one that failed or took over ``timeout`` s. After
    three in a row fail, the rest are counted as failed without being sent."""
    times: list[float | None] = []
    while len(times) < requests:
        if times[-3:] == [None, None, None]:
            times.append(None)
            continue
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        started = time.perf_counter()
        try:
            conn.request("GET", "/api/")
            response = conn.getresponse()
            response.read()
            ok = response.status == 200
        except OSError:
            ok = False
        finally:
            conn.close()
        times.append((time.perf_counter() - started) * 1000 if ok else None)
    return times
