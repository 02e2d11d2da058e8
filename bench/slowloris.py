"""Slow clients against the production front: ``GET /api/`` while connections that never finish
their request are held open, through nginx and, for contrast, straight to gunicorn.

    .venv/bin/python bench/slowloris.py [--slow 0,50,200] [--requests 200] [--timeout 2]

Starts the stack as docs/operations.md does, on the embedded default (SQLite and the database
event log; nothing else is needed but Debian's nginx): gunicorn with
``pente_site/gunicorn.conf.py`` (2 workers of 4 threads), uvicorn for the streams, and nginx on
``deploy/nginx.conf`` in front, rendered by ``pente_site.front`` (``tests/front.py``), with the
rate limits lifted; ``TEST_PORTS_FROM`` names the first of the three ports it listens on
(default: free ones). For each number of ``--slow`` clients, first through nginx and then
straight to gunicorn, it opens that many connections that each announce a JSON body of 100
bytes to ``POST /api/auth/token``, send 4 of them and then one byte every 4 s, and times
``--requests`` successive ``GET /api/``, each on a new connection, given ``--timeout`` seconds
(after three in a row time out, the rest of the level is counted as timed out unsent). Prints
the answered requests, p50 and p99 of each level; the logs are in ``var/bench-slowloris/``.

Target: through nginx, every request answered and p99 under 100 ms at every level. Exit status
1 when it is missed. Straight to gunicorn the figures are for contrast: as many slow clients as
gunicorn has threads stall it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys

from _support import ROOT, quantile, raise_open_files_limit

sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pente_site.settings")  # read, not set up

from pente_site.front import nginx_binary  # noqa: E402
from tests.front import SlowClients, api_root_latencies, front_stack  # noqa: E402

TARGET_P99_MS = 100.0
WARM_UP = 5  # requests before each level is timed (a new process's first answers are slow)


def parse_levels(text: str) -> list[int]:
    try:
        levels = [int(part) for part in text.split(",")]
    except ValueError:
        sys.exit(f"--slow takes numbers separated by commas, not {text!r}")
    if any(n < 0 for n in levels):
        sys.exit("--slow takes numbers of at least 0")
    return levels


def measure(port: int, slow: int, *, requests: int, timeout: float) -> list[float | None]:
    """The ``GET /api/`` times (ms; None: no answer) on ``port`` with ``slow`` slow clients
    open; waits first until ``port`` answers again (gunicorn after a stalling level)."""
    for _ in range(60):  # up to a minute for the slow clients of the last level to be let go
        if None not in api_root_latencies(port, requests=1, timeout=timeout):
            break
    else:
        sys.exit(f"127.0.0.1:{port} does not answer GET /api/ even with no slow client")
    with SlowClients(port, slow):
        api_root_latencies(port, requests=WARM_UP, timeout=timeout)
        return api_root_latencies(port, requests=requests, timeout=timeout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", default="0,50,200", help="slow clients at each level")
    parser.add_argument("--requests", type=int, default=200, help="GET /api/ timed a level")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds a request may take")
    args = parser.parse_args()
    levels = parse_levels(args.slow)
    raise_open_files_limit()
    nginx = nginx_binary()
    if nginx is None:
        sys.exit("nginx is not installed (Debian: apt-get install nginx)")
    folder = ROOT / "var" / "bench-slowloris"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    print(f"starting gunicorn, uvicorn and nginx (logs in {folder.relative_to(ROOT)}/) ...")
    rows = []
    with front_stack(folder, nginx=nginx) as stack:
        for name, port in (("nginx", stack.front), ("gunicorn", stack.web)):
            for slow in levels:
                times = measure(port, slow, requests=args.requests, timeout=args.timeout)
                rows.append((name, slow, times))
    print(
        f"\nGET /api/ with slow clients open ({args.requests} requests a level, "
        f"{args.timeout:g} s each at most)"
    )
    print(f"{'through':<10}{'slow':>6}{'answered':>12}{'p50 ms':>10}{'p99 ms':>10}  target")
    missed = False
    for name, slow, times in rows:
        answered = sorted(t for t in times if t is not None)
        full = len(answered) == len(times)
        p50, p99 = (
            (f"{quantile(answered, 0.5):.1f}", f"{quantile(answered, 0.99):.1f}")
            if full
            else ("-", "-")
        )
        if name == "nginx":
            ok = full and quantile(answered, 0.99) < TARGET_P99_MS
            missed = missed or not ok
            target = f"p99 < {TARGET_P99_MS:.0f} ms, all answered  {'ok' if ok else 'MISSED'}"
        else:
            target = "(contrast: no front)"
        print(f"{name:<10}{slow:>6}{len(answered):>7}/{len(times):<4}{p50:>10}{p99:>10}  {target}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
