"""Time the FIDE Dutch pairing of round 5 of a big Swiss (target: 1,000 players under 5 s).

Usage: ``.venv/bin/python bench/pairing.py [players ...]`` (default: 1000 10000). Rounds 1-4 are
paired by the same engine with random results (40% white wins, 40% black wins, 20% draws).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.dutch import (  # noqa: E402
    PlayedPair,
    RoundRecord,
    pair_round,
    players_from_history,
)

ROUND = 5
TOTAL_ROUNDS = 9


def history_for(players: int, rounds: int, seed: int) -> tuple[list, list[RoundRecord]]:
    rng = random.Random(seed)
    entrants = [(i, i) for i in range(1, players + 1)]
    history: list[RoundRecord] = []
    for number in range(1, rounds + 1):
        result = pair_round(
            players_from_history(entrants, history),
            round_number=number,
            total_rounds=TOTAL_ROUNDS,
        )
        pairs = []
        for white, black in result.pairs:
            x = rng.random()
            pairs.append(PlayedPair(white, black, 2 if x < 0.4 else 0 if x < 0.8 else 1))
        byes = ((result.bye, 2),) if result.bye is not None else ()
        history.append(RoundRecord(tuple(pairs), byes, result.bye))
    return entrants, history


def bench(players: int, seed: int = 1) -> tuple[float, bool]:
    entrants, history = history_for(players, ROUND - 1, seed)
    cards = players_from_history(entrants, history)
    start = time.perf_counter()
    result = pair_round(cards, round_number=ROUND, total_rounds=TOTAL_ROUNDS)
    elapsed = time.perf_counter() - start
    assert len(result.pairs) == players // 2
    return elapsed, result.approximate


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [1000, 10000]
    for players in sizes:
        elapsed, approximate = bench(players)
        verdict = (
            ""
            if players != 1000
            else ("  (target < 5 s: OK)" if elapsed < 5 else "  (target < 5 s: MISSED)")
        )
        note = "  [search budget hit: best found]" if approximate else ""
        print(f"{players:>6} players, round {ROUND}: {elapsed:.3f} s{verdict}{note}")


if __name__ == "__main__":
    main(sys.argv[1:])
