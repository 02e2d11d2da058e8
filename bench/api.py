"""API benchmark: moves against ``GET me`` on the production stack, at ply 10 and at ply 200.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pente REDIS_URL=redis://127.0.0.1:6379/5 \\
    .venv/bin/python bench/api.py [--clients 50] [--rounds 3] [--seconds 4] [--web-workers 2]

Creates a throwaway PostgreSQL database (``pente_bench_api``, dropped at the end unless
``--keep``), migrates it, starts the production stack as docs/operations.md does
(gunicorn with ``pente_site/gunicorn.conf.py`` and ``--web-workers`` workers, a Celery worker,
Redis) with the rate limits lifted, and drives it from this process over loopback with
``--clients`` threads, each on a keep-alive connection of its own, ``--rounds`` times in turn
(the machine is shared: alternating the kinds of request puts each beside the others in time),
``--seconds`` each:

1. ``GET me``: each client with its own token;
2. moves in live games that start at ply 10, one client a game at a time (playing both sides
   with their tokens; when a game's prepared moves run out, the client goes on in its next);
3. the same in games that start at ply 200 (each game goes on from round to round).

The figures compared are each kind's requests over all its rounds; each round's ratios are
printed too, to show the spread.

The games are Pente with a 60-minute clock; their moves were checked with the engine before the
run so that none ends the game. Each game is read once before the run, as a client reads a game
before it moves: its position is then in the cache, as it is for any game being played (the
games are written straight to the database, and the one replay of a game whose cache entry is
missing, once per game, is not the cost of a move). Prints requests/s, p50 and p99 of each
phase, the queries one move costs at ply 10 and at ply 200 (counted in this process through
Django's test client on the same database), the CPU time a request costs each part of the stack
(web, worker, PostgreSQL, Redis, this client; on Linux), and the targets: moves at least 0.5x
the throughput of ``GET me``; at most 2 queries a move; the cost of a move flat from ply 10 to
ply 200 (throughput at ply 200 at least 0.85x that at ply 10, and the same number of queries).
Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import traceback
import zlib

from _support import (
    ROOT,
    bench_url,
    cpu_seconds,
    recreate_database,
    setup_django,
    start_stack,
    stop_stack,
)

DB_NAME = "pente_bench_api"
EXTRA_MOVES = 120  # moves each game has ready beyond its start
GAMES_PER_CLIENT = 3  # a client moves on to its next game when one runs out of moves


# --- the games: legal move lists that never end the game ------------------------------------


def quiet_moves(total: int, seed: int) -> list[int]:
    """``total`` moves of a Pente game after the centre stone that neither captures five pairs
    nor makes five in a row (random, re-drawn when one would end the game)."""
    from games.engine import Game

    rnd = random.Random(seed)
    game = Game("Pente")
    moves: list[int] = []
    refused = 0
    while len(moves) < total:
        if refused > 100:  # a crowded board where nearly every stone ends the game: start over
            return quiet_moves(total, seed + 1_000_003)
        point = rnd.choice(game.legal_points())
        game.play(point)
        if game.outcome is not None:
            game.pop()
            refused += 1
            continue
        refused = 0
        moves.append(point)
    return moves


def make_games(*, count: int, start_ply: int, tag: str) -> list[dict]:
    """``count`` live games whose first ``start_ply`` plies are stored, each with the tokens of
    its two players and the moves that follow."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import ApiToken, User
    from accounts.tokens import hash_key
    from games.clocks.timecontrol import TimeControl
    from games.play.create import game_create
    from games.play.models import Game, Move

    tables = []
    for i in range(count):
        players = User.objects.bulk_create(
            User(username=f"{tag}{i}s{seat}", password="!") for seat in (1, 2)
        )
        keys = {seat: f"{tag}{i}s{seat}".ljust(40, "k") for seat in (1, 2)}
        ApiToken.objects.bulk_create(
            ApiToken(user=u, name="bench", prefix=keys[s][:8], key_hash=hash_key(keys[s]))
            for s, u in zip((1, 2), players, strict=True)
        )
        game = game_create(variant="Pente", players=players, time_control=TimeControl.live(60, 0))
        moves = quiet_moves(start_ply - 1 + EXTRA_MOVES, seed=zlib.crc32(f"{tag}{i}".encode()))
        stored = moves[: start_ply - 1]
        base = timezone.now() - timedelta(seconds=len(stored))
        Move.objects.bulk_create(
            Move(game=game, ply=2 + k, seat=2 - k % 2, kind="stone", point=p, created_at=base)
            for k, p in enumerate(stored)
        )
        Game.objects.filter(pk=game.pk).update(ply=start_ply, turn_started_at=timezone.now())
        tables.append(
            {"game": game.pk, "ply": start_ply, "keys": keys, "moves": moves[start_ply - 1 :]}
        )
    return tables


def warm(tables: list[dict]) -> None:
    """Read each game once, as a client does before its first move: the cache then holds its
    position and row, as it does for every game being played (the games were written straight
    to the database; the replay of a game whose entry is missing is not what is measured)."""
    from games.play.positions import played_of
    from games.play.selectors import game_get

    for table in tables:
        played_of(game_get(game_id=table["game"]))


# --- counting queries in this process ------------------------------------------------------


def queries_per_move(table: dict) -> int:
    """The SQL statements of one move (the next of ``table``) through the test client, without
    transaction markers; the token is used once before so that its last-use write is not
    counted."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    seat = 1 if table["ply"] % 2 == 0 else 2
    auth = {"HTTP_AUTHORIZATION": f"Token {table['keys'][seat]}"}
    client = Client()
    client.get("/api/me", **auth)
    client.get(f"/api/games/{table['game']}/")  # a warm cache, as between two moves
    body = json.dumps({"ply": table["ply"], "point": table["moves"].pop(0)})
    with CaptureQueriesContext(connection) as captured:
        response = client.post(
            f"/api/games/{table['game']}/moves", body, content_type="application/json", **auth
        )
    if response.status_code != 200:
        sys.exit(f"move refused: {response.status_code} {response.content[:300]!r}")
    table["ply"] += 1
    markers = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")
    return sum(1 for q in captured.captured_queries if not q["sql"].startswith(markers))


# --- the stack -----------------------------------------------------------------------------


# --- the clients ---------------------------------------------------------------------------


def run_phase(port: int, jobs: list, seconds: float) -> dict:
    """Each job is ``job(connection) -> None`` called in a loop by its own thread on its own
    keep-alive connection for ``seconds``; returns requests/s, p50 and p99 (ms)."""
    latencies: list[list[float]] = [[] for _ in jobs]
    errors: list[str] = []
    start = threading.Barrier(len(jobs) + 1)
    stop_at = [0.0]

    def loop(i: int, job) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start.wait()
        mine = latencies[i]
        try:
            while time.perf_counter() < stop_at[0]:
                t0 = time.perf_counter()
                job(conn)
                mine.append(time.perf_counter() - t0)
        except Exception:  # reported after the phase
            errors.append(traceback.format_exc())
        finally:
            conn.close()

    threads = [threading.Thread(target=loop, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    stop_at[0] = time.perf_counter() + seconds
    start.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    if errors:
        sys.exit(f"{len(errors)} client(s) failed, e.g.\n{errors[0]}")
    return {"latencies": [x for per in latencies for x in per], "elapsed": elapsed}


def measured_phase(port: int, jobs: list, seconds: float, procs: list) -> dict:
    """``run_phase`` with the CPU seconds each part of the stack spent on it (``cpu``, by
    part; None off Linux)."""
    before = cpu_seconds(procs)
    result = run_phase(port, jobs, seconds)
    after = cpu_seconds(procs)
    result["cpu"] = (
        None
        if before is None or after is None
        else {part: after[part] - before[part] for part in after}
    )
    return result


def combined(phases: list[dict]) -> dict:
    """The rounds of one kind of request taken together: requests/s, p50 and p99 (ms), the
    number of requests, and the CPU time a request cost each part of the stack (ms)."""
    every = sorted(x for phase in phases for x in phase["latencies"])
    elapsed = sum(phase["elapsed"] for phase in phases)
    cpu = None
    if all(phase["cpu"] is not None for phase in phases):
        parts = phases[0]["cpu"]
        cpu = {p: 1000 * sum(ph["cpu"][p] for ph in phases) / len(every) for p in parts}
    return {
        "rps": len(every) / elapsed,
        "p50": 1000 * every[len(every) // 2],
        "p99": 1000 * every[min(len(every) - 1, int(0.99 * len(every)))],
        "n": len(every),
        "cpu": cpu,
    }


def rate(phase: dict) -> float:
    return len(phase["latencies"]) / phase["elapsed"]


def _request(conn, method: str, path: str, *, key: str, body: dict | None = None) -> dict:
    headers = {"Authorization": f"Token {key}", "Content-Type": "application/json"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
    return data


def me_job(key: str):
    def job(conn) -> None:
        _request(conn, "GET", "/api/me", key=key)

    return job


def move_job(tables: list[dict]):
    """Moves in ``tables[0]`` until its prepared moves run out, then in the next game."""

    def job(conn) -> None:
        if not tables[0]["moves"]:
            tables.pop(0)
        table = tables[0]
        seat = 1 if table["ply"] % 2 == 0 else 2  # seat 1 played ply 1, the centre stone
        point = table["moves"].pop(0)
        _request(
            conn,
            "POST",
            f"/api/games/{table['game']}/moves",
            key=table["keys"][seat],
            body={"ply": table["ply"], "point": point},
        )
        table["ply"] += 1

    return job


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds a phase")
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of the three phases, one after the other"
    )
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL", "")
    if not base or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the benchmark runs the real stack")
    url = bench_url(base, DB_NAME)
    recreate_database(base, DB_NAME)
    setup_django(url)
    from django.core.cache import cache

    cache.clear()  # the benchmark's Redis database: positions of an earlier run are stale
    print(f"setting up {args.clients} games at ply 10 and {args.clients} at ply 200 ...")
    per = GAMES_PER_CLIENT
    at10 = make_games(count=args.clients * per + 1, start_ply=10, tag="a")
    at200 = make_games(count=args.clients * per + 1, start_ply=200, tag="b")
    warm(at10 + at200)
    q10 = queries_per_move(at10.pop())
    q200 = queries_per_move(at200.pop())
    me_keys = [t["keys"][1] for t in at10[: args.clients]]

    log_dir = ROOT / "var" / "bench-api"
    log_dir.mkdir(parents=True, exist_ok=True)
    from tests.servers import free_port

    port = free_port()
    procs = start_stack(url=url, port=port, web_workers=args.web_workers, log_dir=log_dir)
    try:
        for key in me_keys[:2]:  # warm both workers' imports and connections
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            _request(conn, "GET", "/api/me", key=key)
            conn.close()
        jobs = {
            "me": [me_job(k) for k in me_keys],
            "m10": [move_job(at10[i * per : (i + 1) * per]) for i in range(args.clients)],
            "m200": [move_job(at200[i * per : (i + 1) * per]) for i in range(args.clients)],
        }
        rounds: dict[str, list[dict]] = {kind: [] for kind in jobs}
        for _ in range(args.rounds):  # alternated: the machine is shared
            for kind, kind_jobs in jobs.items():
                rounds[kind].append(measured_phase(port, kind_jobs, args.seconds, procs))
    finally:
        stop_stack(procs)
        if not args.keep:
            from django.db import connections

            connections.close_all()
            recreate_database(base, DB_NAME, drop_only=True)

    names = {"me": "GET me", "m10": "moves from ply 10", "m200": "moves from ply 200"}
    totals = {kind: combined(phases) for kind, phases in rounds.items()}
    print(
        f"\n{args.clients} clients, {args.rounds} rounds of {args.seconds:g} s a kind, "
        f"{args.web_workers} web workers"
    )
    print(f"{'requests':<22}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'requests':>10}  req/s a round")
    for kind, r in totals.items():
        each = " ".join(f"{rate(phase):.0f}" for phase in rounds[kind])
        print(
            f"{names[kind]:<22}{r['rps']:>9.0f}{r['p50']:>9.1f}{r['p99']:>9.1f}{r['n']:>10}  {each}"
        )
    if all(r["cpu"] is not None for r in totals.values()):
        parts = list(totals["me"]["cpu"])
        print("\nCPU ms a request, by part of the stack (the machine's cores are shared by all)")
        print(f"{'requests':<22}" + "".join(f"{p:>10}" for p in [*parts, "total"]))
        for kind, r in totals.items():
            cells = [r["cpu"][p] for p in parts]
            print(f"{names[kind]:<22}" + "".join(f"{c:>10.2f}" for c in [*cells, sum(cells)]))
    me_rps, moves10, moves200 = totals["me"]["rps"], totals["m10"], totals["m200"]
    per_round = [
        (rate(m10) / rate(me), rate(m200) / rate(me))
        for me, m10, m200 in zip(rounds["me"], rounds["m10"], rounds["m200"], strict=True)
    ]
    print(
        "\nmoves / GET me in each round (ply 10, ply 200): "
        + ", ".join(f"{a:.2f}x {b:.2f}x" for a, b in per_round)
    )
    ratio10 = moves10["rps"] / me_rps
    ratio200 = moves200["rps"] / me_rps
    flat = moves200["rps"] / moves10["rps"]
    print()
    checks = [
        (f"moves (ply 10) / GET me      {ratio10:.2f}x", "target >= 0.50x", ratio10 >= 0.5),
        (f"moves (ply 200) / GET me     {ratio200:.2f}x", "target >= 0.50x", ratio200 >= 0.5),
        (f"queries a move at ply 10     {q10}", "target <= 2", q10 <= 2),
        (
            f"queries a move at ply 200    {q200}",
            "target <= 2, = ply 10",
            q200 <= 2 and q200 == q10,
        ),
        (f"moves/s ply 200 / ply 10     {flat:.2f}x", "target >= 0.85x (flat)", flat >= 0.85),
    ]
    for figure, target, ok in checks:
        print(f"{figure:<40}{target:<26}{'ok' if ok else 'MISSED'}")
    return 0 if all(ok for _f, _t, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
