"""Leaderboard benchmark: 100,000 rated players in PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pente .venv/bin/python bench/leaderboard.py

Creates a throwaway database (``pente_bench`` on the server DATABASE_URL points at; dropped at
the end unless ``--keep``), fills it, then times requests through the full Django stack (test
client, every middleware, DRF): a bare ``SELECT 1`` view as the baseline, the first leaderboard
page, a deep leaderboard page (keyset cursor), and the rank of a top, a middle and a bottom
player. Prints the median and 95th percentile of each and its ratio to the baseline (target:
within 3x). Exit status 1 when a median is over the target. The cases run in interleaved
rounds, so that the load of a shared machine falls on all of them alike.

The leaderboard and rank reads prepare their statements on the server by themselves
(``pente_site.db.prepared_cursor``; ``PREPARED_STATEMENTS = False`` turns that off).
Other Django database OPTIONS go in the URL's query string, e.g. prepared statements for every
query: ``DATABASE_URL='postgres://postgres@127.0.0.1:5432/x?server_side_binding=true&prepare_threshold=2'``.
``--keep`` then ``--reuse`` skip the fill on later runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import types

from _support import bench_url, recreate_database, setup_django

TARGET_RATIO = 3.0


def _install_urls() -> None:
    """The project's URLs plus ``/bench/select1``, a trivial DRF view doing ``SELECT 1``."""
    from django.conf import settings
    from django.db import connection
    from django.urls import clear_url_caches, include, path
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class SelectOne(APIView):
        permission_classes = [AllowAny]

        def get(self, request):
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                (one,) = cursor.fetchone()
            return Response({"one": one})

    module = types.ModuleType("bench_urls")
    module.urlpatterns = [
        path("bench/select1", SelectOne.as_view()),
        path("", include("pente_site.urls")),
    ]
    sys.modules["bench_urls"] = module
    settings.ROOT_URLCONF = "bench_urls"
    clear_url_caches()


def _fill(players: int) -> None:
    """``players`` users, each with a normal Pente rating (about 80% established) and half of
    them with a speed rating too; then VACUUM ANALYZE so index-only scans are possible."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.42)")
        cursor.execute(
            """
            INSERT INTO games_user (password, is_superuser, username, first_name, last_name,
                email, is_staff, is_active, date_joined, time_zone, weekend_days, is_computer,
                vacation_hours_left, vacation_year)
            SELECT '!', false, 'bench' || n, '', '', '', false, true, now(), 'UTC',
                '[5, 6]'::jsonb, n %% 500 = 0, 240, 0
            FROM generate_series(1, %s) AS n
            """,
            [players],
        )
        for category, share in (("normal", 1), ("speed", 2)):
            cursor.execute(
                """
                INSERT INTO ratings_rating (user_id, variant, category, rating, results, wins,
                    losses, draws, streak, best_streak, is_computer, username, last_played_at,
                    created_at, updated_at)
                SELECT id, 'Pente', %s, r.rating, r.results, r.results / 2,
                    r.results - r.results / 2, 0, 0, 0, is_computer, username,
                    now() - (random() * interval '400 days'), now(), now()
                FROM games_user,
                    LATERAL (SELECT 900 + random() * 1500 + id * 0 AS rating,
                                    (random() * 100)::int + id * 0 AS results) AS r
                WHERE id %% %s = 0
                """,
                [category, share],
            )
    from ratings.services import rating_buckets_rebuild

    rating_buckets_rebuild()
    with connection.cursor() as cursor:
        for table in ("games_user", "ratings_rating", "ratings_ratingbucket"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def _time(client, cases: list[tuple[str, str]], repeat: int, rounds: int) -> list[list[float]]:
    """``repeat`` timed requests of each case, in ``rounds`` rounds of consecutive blocks (one
    block per case, in turn): a noisy neighbour slows every case alike instead of the one that
    happened to be running. Each block starts with untimed requests, so that every case is
    timed warm, as if it ran alone (the switch from one case to the next is not timed)."""
    samples: list[list[float]] = [[] for _ in cases]
    block = max(1, repeat // rounds)
    for _ in range(rounds):
        for (_, url), times in zip(cases, samples, strict=True):
            for _ in range(5):  # warm up
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code, response.content)
            for _ in range(block):
                start = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - start)
                assert response.status_code == 200
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=200, help="timed requests per case")
    parser.add_argument("--rounds", type=int, default=10, help="blocks per case, interleaved")
    parser.add_argument("--database", default="pente_bench")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument(
        "--reuse", action="store_true", help="time a database kept by --keep (implies --keep)"
    )
    args = parser.parse_args()

    base = os.environ.get("DATABASE_URL", "")
    if not base:
        sys.exit(
            "Set DATABASE_URL to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/x"
        )
    url = bench_url(base, args.database)
    if not args.reuse:
        print(f"Creating {args.database} with {args.players:,} rated players ...", flush=True)
        recreate_database(base, args.database)
    try:
        setup_django(url)
        from django.test import Client

        if not args.reuse:
            started = time.perf_counter()
            _fill(args.players)
            print(f"  filled in {time.perf_counter() - started:.1f}s", flush=True)
        _install_urls()
        return _measure(Client(), args.repeat, args.rounds)
    finally:
        from django.db import connections

        connections.close_all()
        if not (args.keep or args.reuse):
            recreate_database(base, args.database, drop_only=True)


def _measure(client, repeat: int, rounds: int) -> int:
    from ratings.models import Rating
    from ratings.selectors import BoardFilter

    board = BoardFilter(variant="Pente", category="normal").queryset().order_by("-rating", "id")
    total = board.count()
    ids = list(board.values_list("user__username", flat=True)[:1]) + [
        board.values_list("user__username", flat=True)[total // 2],
        board.values_list("user__username", flat=True)[total - 1],
    ]
    deep_after = board[total // 2]
    from ratings.cursors import encode_cursor

    deep_cursor = encode_cursor(
        rating=deep_after.rating,
        row_id=deep_after.pk,
        rank=total // 2 + 1,
        position=total // 2 + 1,
    )
    cases = [
        ("SELECT 1 (baseline)", "/bench/select1"),
        ("leaderboard page 1", "/api/leaderboards/?game=Pente&category=normal"),
        (
            f"leaderboard page at #{total // 2 + 1:,}",
            f"/api/leaderboards/?game=Pente&category=normal&cursor={deep_cursor}",
        ),
        (
            "leaderboard, active 30 days",
            "/api/leaderboards/?game=Pente&category=normal&active_days=30",
        ),
        ("rank of #1", f"/api/leaderboards/rank?game=Pente&category=normal&player={ids[0]}"),
        (
            f"rank of #{total // 2 + 1:,}",
            f"/api/leaderboards/rank?game=Pente&category=normal&player={ids[1]}",
        ),
        (
            f"rank of #{total:,} (last)",
            f"/api/leaderboards/rank?game=Pente&category=normal&player={ids[2]}",
        ),
    ]
    from django.db import connection

    options = connection.settings_dict.get("OPTIONS") or {}
    print(
        f"{Rating.objects.count():,} rating rows; {total:,} on the default Pente normal board.\n"
        f"{repeat} requests each through the Django test client (all middleware, DEBUG off),\n"
        f"in {rounds} interleaved rounds; database OPTIONS: {options or 'none'}.\n"
    )
    print(f"{'request':<36}{'median ms':>10}{'p95 ms':>10}{'x SELECT 1':>12}")
    baseline = None
    worst = 0.0
    for (label, _), samples in zip(cases, _time(client, cases, repeat, rounds), strict=True):
        samples.sort()
        median = statistics.median(samples) * 1000
        p95 = samples[int(len(samples) * 0.95) - 1] * 1000
        baseline = baseline or median
        ratio = median / baseline
        worst = max(worst, ratio)
        print(f"{label:<36}{median:>10.2f}{p95:>10.2f}{ratio:>12.2f}")
    verdict = "within" if worst <= TARGET_RATIO else "OVER"
    print(f"\nWorst median ratio {worst:.2f}x: {verdict} the {TARGET_RATIO:.0f}x target.")
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
