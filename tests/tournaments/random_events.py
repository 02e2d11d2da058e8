"""Small random Swiss events for the comparisons with the brute-force reference: 4 to 11
players, 2 to 6 rounds, a few absences, draws and forfeits, paired round by round."""

from __future__ import annotations

import random

from tournaments.pairing.dutch import PlayedPair, RoundRecord, SwissRound, players_from_history


def random_event(rng: random.Random) -> tuple[list[tuple[str, int]], int]:
    """The entrants (id, TPN) and the number of rounds."""
    n = rng.randint(4, 11)
    rounds = rng.randint(2, max(2, min(6, n - 2)))
    return [(f"p{i}", i) for i in range(1, n + 1)], rounds


def present_cards(
    rng: random.Random, entrants: list[tuple[str, int]], history: list[RoundRecord]
) -> tuple[set[str], list]:
    """Who is absent this round, and the cards of everyone else."""
    absent = {pid for pid, _ in entrants if rng.random() < 0.06}
    cards = [p for p in players_from_history(entrants, history) if p.id not in absent]
    return absent, cards


def played_record(rng: random.Random, result: SwissRound, absent: set[str]) -> RoundRecord:
    """The round as played: random results (a few forfeits), the absent at 0, the PAB at 2."""
    pairs = []
    for w, b in result.pairs:
        x = rng.random()
        pts = 2 if x < 0.4 else 0 if x < 0.8 else 1
        played = rng.random() > 0.05
        if not played:
            pts = 2 if x < 0.5 else 0
        pairs.append(PlayedPair(w, b, pts, played=played))
    byes = tuple((pid, 0) for pid in absent)
    if result.bye is not None:
        byes += ((result.bye, 2),)
    return RoundRecord(tuple(pairs), byes, result.bye)
