"""Time a TRF import (``POST tournaments/import-trf``'s work) at its limit: 1,000 players and 9
rounds, paired by the FIDE Dutch engine with random results, then the TRF export of the event
imported, and its next round here: the organiser's request (which enqueues the pairing) and the
job that pairs it.

Usage: ``.venv/bin/python bench/trf_import.py`` (the embedded SQLite default in a temporary
folder), or with ``DATABASE_URL=postgres://...`` (a throwaway database ``pente_bench_trf`` on
that server). Targets: the import of 1,000 players, its export, and the request for the next
round, each under 1 s (a web request's budget).
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path
from unittest import mock

from _support import bench_url, recreate_database, setup_django, setup_embedded

PLAYERS, ROUNDS = 1000, 9
TARGET_SECONDS = 1.0


def report_text() -> str:
    """A 1,000-player event's TRF: 8 rounds played, the last one to pair."""
    from tournaments.pairing import trf
    from tournaments.pairing.dutch import PlayedPair, RoundRecord, pair_round, players_from_history

    rng = random.Random(7)
    entrants = [(i, i) for i in range(1, PLAYERS + 1)]
    history: list[RoundRecord] = []
    blocks: list[dict[int, trf.TrfGame]] = []
    for number in range(1, ROUNDS):
        paired = pair_round(
            players_from_history(entrants, history), round_number=number, total_rounds=ROUNDS
        )
        pairs, games = [], {}
        for white, black in paired.pairs:
            points = rng.choice((2, 2, 0, 0, 1))
            pairs.append(PlayedPair(white, black, points))
            games[white] = trf.TrfGame(black, "w", {2: "1", 1: "=", 0: "0"}[points])
            games[black] = trf.TrfGame(white, "b", {0: "1", 1: "=", 2: "0"}[points])
        byes = ()
        if paired.bye is not None:
            byes = ((paired.bye, 2),)
            games[paired.bye] = trf.TrfGame(None, "-", "U")
        history.append(RoundRecord(tuple(pairs), byes, paired.bye))
        blocks.append(games)
    doc = trf.from_history(
        name="Bench Open",
        rounds=ROUNDS,
        entrants=[(i, f"Player {i:04d}", 2400 - i) for i in range(1, PLAYERS + 1)],
        history=blocks,
    )
    return trf.dump(doc)


def main() -> None:
    url = os.environ.get("DATABASE_URL")
    if url:
        recreate_database(url, "pente_bench_trf")
        setup_django(bench_url(url, "pente_bench_trf"))
        where = "PostgreSQL"
    else:
        setup_embedded(Path(tempfile.mkdtemp()))
        where = "SQLite (embedded default)"
    from accounts.models import User
    from tournaments import selectors, services
    from tournaments.progress import tournament_advance
    from tournaments.trf_import import tournament_import_trf

    text = report_text()
    organiser = User.objects.create(username="bench-organiser")
    figures = []
    for _ in range(3):
        start = time.perf_counter()
        t = tournament_import_trf(organiser=organiser, text=text)
        figures.append(time.perf_counter() - start)
    start = time.perf_counter()
    exported = selectors.trf_text(t)
    export_seconds = time.perf_counter() - start
    # The request's part (the checks; the job enqueued, not run: no worker here), then the job's.
    with mock.patch.object(services, "enqueue"):
        start = time.perf_counter()
        services.tournament_next_round(tournament_id=t.pk, user=organiser)
        ask_seconds = time.perf_counter() - start
    start = time.perf_counter()
    tournament_advance(tournament_id=t.pk)
    pair_seconds = time.perf_counter() - start
    assert exported.count("\n001 ") == PLAYERS
    best = min(figures)
    print(f"TRF import on {where}: {PLAYERS} players, {ROUNDS - 1} rounds played")
    print(f"  import      best {best:.2f} s of 3 (target < {TARGET_SECONDS:.1f} s)")
    print(f"  export      {export_seconds:.2f} s (target < {TARGET_SECONDS:.1f} s)")
    print(f"  next round  request {ask_seconds:.3f} s (target < {TARGET_SECONDS:.1f} s)")
    print(f"              job {pair_seconds:.2f} s (paired here, round {ROUNDS})")
    if url:
        recreate_database(url, "pente_bench_trf", drop_only=True)


if __name__ == "__main__":
    main()
