"""Explorer benchmark: a game database of 200,000 games on PostgreSQL, imported from a file of
Pente.org records, then searched by position.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/explorer.py [--games 200000] [--queries 200] [--keep]

1. **The games.** ``--games`` Pente games (rated, live 10+5, 300 players, one every 17 minutes
   from 2020) played by a quick random player that prefers points near the last stones and
   longer lines of its own (about 25 moves a game, most won by five or captures), written as
   Pente.org records to ``var/bench-explorer/games-<n>.txt`` (kept: the next run reuses it).
2. **Import** into a new database (``pente_bench_explorer``, dropped at the end unless
   ``--keep``) with ``manage.py import_records`` in two halves: the games, seats, moves and the
   positions of the explorer's index, in batches of 500. Prints each half's rate (games/s) and
   the time 100,000 games take at the first half's rate. Target: 100,000 games in under 2
   minutes.
3. **Index build**: ``manage.py explorer_rebuild`` (the whole index again, from the stored
   moves); then ``VACUUM ANALYZE``, as autovacuum does after a large import.
4. **Latency**: gunicorn (one worker, as docs/operations.md starts it) answers
   ``GET /api/games/explorer`` over loopback, one request at a time, for ``--queries``
   positions at each depth: the opening (``moves=K10``), after 5 moves and after 20 (the first
   moves of games drawn at random from the database, so that common positions come up as often
   as they are played), without and with a player filter (a player of the game drawn). Prints
   the median and p99 of each. Target: p99 under 100 ms everywhere.

Exit status 1 when a target is missed. The server's log: ``var/bench-explorer/web.log``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

from _support import (
    ROOT,
    bench_url,
    quantile,
    recreate_database,
    setup_django,
    start_stack,
    stop_stack,
)

DB_NAME = "pente_bench_explorer"
OUT = ROOT / "var" / "bench-explorer"
PORT = 8765
TARGET_IMPORT_SECONDS = 120.0  # for 100,000 games
TARGET_P99_MS = 100.0
PLAYERS = 300
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


# --- the games ----------------------------------------------------------------------------------


def random_game(rng: random.Random):
    """A Pente game (rated: the tournament rule) played by a quick random player: six tries
    near the last stones (or anywhere near a stone), the one that makes the longest lines of
    its own colour, until the game ends or reaches 80 stones."""
    from games.engine import Game, IllegalMove

    game = Game("Pente", tournament_rule=True, rated=True)
    while game.outcome is None and game.plies < 80:
        board = game.board
        me = game.to_move_colour
        stones = [p for p, c in enumerate(board) if c]
        best, best_score = None, -1.0
        for _ in range(6):
            near = stones[-6:] if rng.random() < 0.7 else stones
            base = rng.choice(near)
            x, y = base % 19 + rng.randint(-2, 2), base // 19 + rng.randint(-2, 2)
            if not (0 <= x < 19 and 0 <= y < 19) or board[x + 19 * y]:
                continue
            score = rng.random()
            for dx, dy in _DIRECTIONS:
                run = 0
                for sign in (1, -1):
                    k = 1
                    while True:
                        xx, yy = x + sign * dx * k, y + sign * dy * k
                        if not (0 <= xx < 19 and 0 <= yy < 19) or board[xx + 19 * yy] != me:
                            break
                        run += 1
                        k += 1
                score += run * run
            if score > best_score:
                best, best_score = x + 19 * y, score
        if best is None:
            continue
        try:
            game.play(best)
        except IllegalMove:
            continue
    return game


def records_file(games: int, seed: int = 1) -> Path:
    """The file of ``games`` records (written once, then reused)."""
    from games.engine import record_from_game, standard_headers, write_record

    path = OUT / f"games-{games}-{seed}.txt"
    if path.exists():
        return path
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    names = [f"player{i}" for i in range(PLAYERS)]
    start = datetime(2020, 1, 1)
    began = time.monotonic()
    part = path.with_suffix(".part")
    with part.open("w") as out:
        for i in range(games):
            one, two = rng.sample(names, 2)
            headers = standard_headers(
                game="Pente",
                event="Rated Game",
                played_at=start + timedelta(minutes=17 * i),
                time_control="10+5",
                rated=True,
                player_names=[one, two],
                player_ratings=[rng.randint(1200, 2200), rng.randint(1200, 2200)],
                player_types=["Human", "Human"],
            )
            out.write(write_record(record_from_game(random_game(rng), headers)) + "\n")
            if (i + 1) % 20000 == 0:
                print(f"  generated {i + 1} games ({time.monotonic() - began:.0f} s)", flush=True)
    part.rename(path)
    return path


def halves(path: Path) -> tuple[Path, Path]:
    """The records file cut in two files of (nearly) half the records each."""
    first, second = path.with_suffix(".1.txt"), path.with_suffix(".2.txt")
    if first.exists() and second.exists():
        return first, second
    text = path.read_text()
    records = text.split('\n[Game "')
    middle = len(records) // 2
    first.write_text('\n[Game "'.join(records[:middle]) + "\n")
    second.write_text('[Game "' + '\n[Game "'.join(records[middle:]))
    return first, second


# --- the measures -------------------------------------------------------------------------------


def import_half(path: Path) -> tuple[int, float]:
    from django.core.management import call_command

    from games.play.models import Game

    before = Game.objects.count()
    began = time.perf_counter()
    call_command("import_records", str(path), "--no-progress")
    seconds = time.perf_counter() - began
    return Game.objects.count() - before, seconds


def samples(count: int, depth: int, rng: random.Random) -> list[tuple[str, str]]:
    """``count`` (moves, player) pairs: the first ``depth`` moves of games drawn at random (of
    those that long), and one of that game's players."""
    from games.engine import point_name
    from games.play.models import Game, Move, Seat

    last = Game.objects.order_by("-pk").values_list("pk", flat=True).first()
    out = []
    while len(out) < count:
        game_id = rng.randint(1, last)
        points = list(
            Move.objects.filter(game_id=game_id, ply__lte=depth)
            .order_by("ply")
            .values_list("point", flat=True)
        )
        if len(points) < depth:
            continue
        seat = rng.choice(list(Seat.objects.filter(game_id=game_id).values_list("name", flat=True)))
        out.append((",".join(point_name(p) for p in points), seat))
    return out


def latency(port: int, queries: list[dict]) -> list[float]:
    times = []
    for query in queries:
        url = f"http://127.0.0.1:{port}/api/games/explorer?{urlencode(query)}"
        began = time.perf_counter()
        with urllib.request.urlopen(url, timeout=30) as response:
            body = response.read()
        times.append((time.perf_counter() - began) * 1000)
        json.loads(body)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="Keep the database.")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL")
    if not base:
        sys.exit("DATABASE_URL must point at PostgreSQL (postgres://...)")
    sys.path.insert(0, str(ROOT))
    path = records_file(args.games)
    first, second = halves(path)
    url = bench_url(base, DB_NAME)
    recreate_database(base, DB_NAME)
    setup_django(url)
    from django.core.management import call_command
    from django.db import connection

    missed = False
    print(f"explorer benchmark: {args.games} games, {args.queries} queries per line")
    for name, part in (("first half", first), ("second half", second)):
        count, seconds = import_half(part)
        rate = count / seconds
        print(f"import {name}: {count} games in {seconds:.1f} s = {rate:.0f} games/s")
        if name == "first half":
            projected = 100_000 / rate
            ok = projected < TARGET_IMPORT_SECONDS
            missed |= not ok
            print(
                f"  100,000 games at that rate: {projected:.0f} s "
                f"(target < {TARGET_IMPORT_SECONDS:.0f} s) {'ok' if ok else 'MISSED'}"
            )
    began = time.perf_counter()
    call_command("explorer_rebuild", "--no-progress", stdout=open(os.devnull, "w"))  # noqa: SIM115
    print(f"index build (explorer_rebuild): {time.perf_counter() - began:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM explorer_positionrow")
        print(f"  {cursor.fetchone()[0]} position rows")
        began = time.perf_counter()
        cursor.execute("VACUUM ANALYZE")
        print(f"  VACUUM ANALYZE: {time.perf_counter() - began:.1f} s")
    rng = random.Random(7)
    depths = {"opening": 1, "move 5": 5, "move 20": 20}
    lines = []
    for label, depth in depths.items():
        drawn = samples(args.queries, depth, rng)
        plain = [{"game": "Pente", "moves": moves} for moves, _ in drawn]
        filtered = [{"game": "Pente", "moves": m, "player": p} for m, p in drawn]
        lines.append((label, "", plain))
        lines.append((label, "player", filtered))
    OUT.mkdir(parents=True, exist_ok=True)
    procs = start_stack(url=url, port=PORT, web_workers=1, log_dir=OUT, worker=False)
    try:
        latency(PORT, lines[0][2][:20])  # warm the worker
        print(f"{'position':10} {'filter':7} {'median ms':>10} {'p99 ms':>8}  target(p99)")
        for label, kind, queries in lines:
            times = sorted(latency(PORT, queries))
            p50, p99 = quantile(times, 0.5), quantile(times, 0.99)
            ok = p99 < TARGET_P99_MS
            missed |= not ok
            verdict = "ok" if ok else "MISSED"
            print(
                f"{label:10} {kind or '-':7} {p50:10.1f} {p99:8.1f}  < {TARGET_P99_MS:.0f} {verdict}"
            )
    finally:
        stop_stack(procs)
        if not args.keep:
            connection.close()
            recreate_database(base, DB_NAME, drop_only=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
