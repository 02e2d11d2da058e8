"""Timeout benchmark: how fast games past their deadline get closed.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pente_clocks \\
    REDIS_URL=redis://127.0.0.1:6379/4 .venv/bin/python bench/timeouts.py

Creates a throwaway PostgreSQL database (``pente_bench_timeouts`` on the server DATABASE_URL
points at; dropped at the end unless ``--keep``), migrates it, then measures:

(a) live deadlines: ``--live`` games (default 300) are created through ``game_create`` with a
    0+``--clock`` clock and no start window, so their deadlines fall within a short window; a
    real Celery worker (a ``celery worker`` child process on REDIS_URL, threads pool) closes them
    through the timeout tasks. Prints the delay between each deadline and the moment the game
    was closed (its ``updated_at``; ``finished_at`` is the deadline itself) (target: median
    < 1 s, worst < 2 s). REDIS_URL's queue is purged first: give the benchmark a Redis database
    of its own.
(b) the sweeper: ``--turn`` (default 10,000) expired turn-based games (bulk inserted, in sets of
    two, players without vacation left) closed by one ``sweeper.close_due()`` call, each through
    ``game_finish`` (sets, signals). Target < 10 s.

Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from datetime import timedelta

from _support import ROOT, bench_url, quantile, recreate_database, setup_django

DB_NAME = "pente_bench_timeouts"


def _users(n: int, prefix: str, **fields):
    from accounts.models import User

    return User.objects.bulk_create(
        User(username=f"{prefix}{i}", password="!", **fields) for i in range(n)
    )


# --- (a) live deadlines with a real worker -------------------------------------------------


def _start_worker(url: str, concurrency: int) -> subprocess.Popen:
    from games.management.commands.serve import celery_worker_argv

    env = {**os.environ, "DATABASE_URL": url, "CELERY_TASK_ALWAYS_EAGER": "0"}
    return subprocess.Popen(
        celery_worker_argv(
            "--concurrency", str(concurrency), "--without-gossip", "--without-mingle"
        ),
        cwd=ROOT,
        env=env,
    )


def bench_live(*, url: str, games: int, clock: int, concurrency: int) -> tuple[float, float]:
    from games.clocks.timecontrol import TimeControl
    from games.play.create import game_create
    from games.play.models import Game
    from pente_site.celery import app

    app.conf.task_always_eager = False
    app.control.purge()
    worker = _start_worker(url, concurrency)
    try:
        time.sleep(3.0)  # let the worker connect
        users = _users(2 * games, "live")
        started = time.perf_counter()
        ids = [
            game_create(
                variant="Pente",
                players=[users[2 * i], users[2 * i + 1]],
                time_control=TimeControl.live(0, clock),
                on_absence="none",  # the clock runs from the start: no start window
            ).pk
            for i in range(games)
        ]
        created = time.perf_counter() - started
        deadline_end = time.monotonic() + clock + 30
        while time.monotonic() < deadline_end:
            if not Game.objects.filter(pk__in=ids, status="in_progress").exists():
                break
            time.sleep(0.2)
        rows = list(
            Game.objects.filter(pk__in=ids).values_list("status", "updated_at", "turn_started_at")
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    open_games = sum(1 for status, _, _ in rows if status == "in_progress")
    delays = [
        (closed - (started_at + timedelta(seconds=clock))).total_seconds()
        for status, closed, started_at in rows
        if status == "finished"
    ]
    print(
        f"(a) {games} live games (0+{clock}) created in {created:.1f} s; "
        f"worker: threads x{concurrency}"
    )
    if open_games:
        print(f"    {open_games} games were NOT closed")
        return float("inf"), float("inf")
    median, worst = statistics.median(delays), max(delays)
    print(
        f"    deadline -> closed: median {median * 1000:.0f} ms, "
        f"p95 {quantile(sorted(delays), 0.95) * 1000:.0f} ms, worst {worst * 1000:.0f} ms "
        f"(target median < 1000 ms, worst < 2000 ms)"
    )
    return median, worst


# --- (b) the sweeper over expired turn-based games -----------------------------------------


def _bulk_expired_turn_games(count: int, *, in_sets: bool) -> None:
    from django.utils import timezone

    from games.play.models import Game, GameSet, Move, Seat

    now = timezone.now()
    players = _users(200, f"turn{int(in_sets)}-", vacation_hours_left=0, vacation_year=now.year)
    sets = GameSet.objects.bulk_create(
        GameSet(
            player1=players[i % 200],
            player2=players[(i + 1) % 200],
            variant="Pente",
            rated=False,
            category="turn",
            games_count=2,
        )
        for i in range(count // 2)
    )
    games = Game.objects.bulk_create(
        Game(
            variant="Pente",
            game_set=sets[i // 2] if in_sets else None,
            set_index=1 + i % 2,
            time_control="turn",
            days_per_move=1,
            category="turn",
            ply=1,
            started_at=now - timedelta(days=3),
            turn_started_at=now - timedelta(days=2),
            deadline=now - timedelta(minutes=1),
            vacation_allowed=i % 4 != 0,  # most allow vacation: none is left, so they lose
        )
        for i in range(2 * len(sets))
    )
    seats = []
    for i, game in enumerate(games):
        game_set = sets[i // 2]
        first, second = (game_set.player1, game_set.player2)
        if game.set_index == 2:
            first, second = second, first
        seats.append(Seat(game=game, seat=1, user=first, name=first.username))
        seats.append(Seat(game=game, seat=2, user=second, name=second.username))
    Seat.objects.bulk_create(seats, batch_size=5000)
    Move.objects.bulk_create(
        (Move(game=g, ply=1, seat=1, kind="stone", point=180) for g in games), batch_size=5000
    )


def bench_sweep(*, games: int, in_sets: bool) -> float:
    from games.clocks import sweeper
    from games.play.models import Game

    Game.objects.all().delete()
    _bulk_expired_turn_games(games, in_sets=in_sets)
    started = time.perf_counter()
    report = sweeper.close_due()
    elapsed = time.perf_counter() - started
    left = Game.objects.filter(status="in_progress").exclude(time_control="live").count()
    print(
        f"(b) sweeper: {report.timed_out} of {games} expired turn-based games "
        f"({'in sets of two' if in_sets else 'not in sets'}) closed in "
        f"{elapsed:.2f} s ({elapsed / max(1, report.timed_out) * 1000:.2f} ms each; "
        f"{left} left open) (target < 10 s)"
    )
    return elapsed if report.timed_out == games and not left else float("inf")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--live", type=int, default=300, help="live games for (a)")
    parser.add_argument("--clock", type=int, default=8, help="seconds on the live clocks")
    parser.add_argument("--concurrency", type=int, default=8, help="worker threads")
    parser.add_argument("--turn", type=int, default=10_000, help="expired games for (b)")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--database", default=DB_NAME, help=f"throwaway database ({DB_NAME})")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL", "")
    if not base or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL.")
    recreate_database(base, args.database)
    url = bench_url(base, args.database)
    ok = True
    try:
        setup_django(url)
        if args.live:  # --live 0: the sweeper only
            median, worst = bench_live(
                url=url, games=args.live, clock=args.clock, concurrency=args.concurrency
            )
            ok &= median < 1.0 and worst < 2.0
        ok &= bench_sweep(games=args.turn, in_sets=True) < 10.0
        bench_sweep(games=args.turn, in_sets=False)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            recreate_database(base, args.database, drop_only=True)
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
