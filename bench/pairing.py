"""Time the FIDE Dutch pairing of big Swiss events, round 5 and the last round (9 of 9).

Usage: ``.venv/bin/python bench/pairing.py [players ...]`` (default: 200 1000 5000 10000). The
rounds before are paired by the same engine with random results (40% white wins, 40% black
wins, 20% draws). A last row pairs round 2 of 1,001 players of whom 25 entered late (an
unplayed round 1): the pairing-allocated bye must go to a player without an unplayed round
(C9) -- the case that used to exhaust the search.

Targets: under 1 s at 1,000 players and under 10 s at 10,000, never approximate (a search
that cannot finish raises PairingTooHard instead). "Hard brackets" are brackets whose quick
first search ran out of nodes and needed the bound per floater and the checked search.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.dutch import (  # noqa: E402
    PairingTooHard,
    PlayedPair,
    RoundRecord,
    SwissRound,
    pair_round,
    players_from_history,
)

TOTAL_ROUNDS = 9
BENCH_ROUNDS = (5, TOTAL_ROUNDS)
TARGETS = {1000: 1.0, 10000: 10.0}  # players: seconds


def play(result: SwissRound, rng: random.Random) -> RoundRecord:
    pairs = []
    for white, black in result.pairs:
        x = rng.random()
        pairs.append(PlayedPair(white, black, 2 if x < 0.4 else 0 if x < 0.8 else 1))
    byes = ((result.bye, 2),) if result.bye is not None else ()
    return RoundRecord(tuple(pairs), byes, result.bye)


def timed(cards: list, number: int) -> tuple[float, SwissRound | None]:
    start = time.perf_counter()
    try:
        result = pair_round(cards, round_number=number, total_rounds=TOTAL_ROUNDS)
    except PairingTooHard:
        result = None
    return time.perf_counter() - start, result


def bench(players: int, seed: int = 1) -> list[tuple[int, float, SwissRound | None]]:
    """(round, seconds, result) for the rounds of BENCH_ROUNDS."""
    rng = random.Random(seed)
    entrants = [(i, i) for i in range(1, players + 1)]
    history: list[RoundRecord] = []
    rows = []
    for number in range(1, TOTAL_ROUNDS + 1):
        cards = players_from_history(entrants, history)
        elapsed, result = timed(cards, number)
        if number in BENCH_ROUNDS:
            rows.append((number, elapsed, result))
        if result is None:
            break
        assert len(result.pairs) == players // 2
        history.append(play(result, rng))
    return rows


def late_entrants(
    players: int = 1001, late: int = 25, seed: int = 2
) -> tuple[float, SwissRound | None, int | None]:
    """Round 2 of ``players``, the last ``late`` of whom missed round 1 (no points): (seconds,
    result, unplayed rounds of the PAB assignee)."""
    rng = random.Random(seed)
    entrants = [(i, i) for i in range(1, players + 1)]
    latecomers = {pid for pid, _ in entrants[-late:]}
    first = [c for c in players_from_history(entrants, []) if c.id not in latecomers]
    record = play(pair_round(first, round_number=1, total_rounds=TOTAL_ROUNDS), rng)
    record = RoundRecord(record.pairs, record.byes + tuple((p, 0) for p in sorted(latecomers)))
    cards = players_from_history(entrants, [record])
    elapsed, result = timed(cards, 2)
    bye = next((c for c in cards if result and c.id == result.bye), None)
    return elapsed, result, bye.colours.count(None) if bye else None


def line(label: str, elapsed: float, result: SwissRound | None, target: float | None) -> str:
    if result is None:
        verdict = "PairingTooHard (guard crossed)"
        hard = approximate = "-"
        nodes = "-"
    else:
        verdict = ""
        hard = f"{result.hard_brackets} hard" if result.hard_brackets else "none hard"
        approximate = "APPROXIMATE" if result.approximate else "exact"
        nodes = f"{result.search_nodes:,}"
    if target is not None:
        ok = result is not None and not result.approximate and elapsed < target
        verdict = f"target < {target:g} s, exact: {'OK' if ok else 'MISSED'}  {verdict}".rstrip()
    return (
        f"{label:<28} {elapsed:8.3f} s  {hard:>11}  {nodes:>10} nodes  {approximate:<11}  {verdict}"
    ).rstrip()


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [200, 1000, 5000, 10000]
    print(f"FIDE Dutch pairing, {TOTAL_ROUNDS}-round Swiss, random results")
    print(
        f"{'field, round':<28} {'time':>10}  {'brackets':>11}  {'search':>16}  {'result':<11}  target"
    )
    for players in sizes:
        for number, elapsed, result in bench(players):
            label = f"{players:>6} players, round {number}"
            print(line(label, elapsed, result, TARGETS.get(players)), flush=True)
    elapsed, result, unplayed = late_entrants()
    print(line("  1001 (25 late), round 2", elapsed, result, TARGETS[1000]))
    if unplayed is not None:
        print(f"{'':<28} PAB to player {result.bye}: {unplayed} unplayed rounds (C9: 0 expected)")


if __name__ == "__main__":
    main(sys.argv[1:])
