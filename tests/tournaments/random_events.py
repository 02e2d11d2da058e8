"""Small random Swiss events for the comparisons with the brute-force reference: 4 to 11
players, 2 to 6 rounds, a few absences, draws and forfeits, paired round by round; and single
rounds crowded with absolute colour preferences, which often need C3 lifted."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from tests.tournaments.dutch_oracle import Oracle, reference_pairing
from tournaments.pairing import PairingError
from tournaments.pairing.dutch import (
    PlayedPair,
    RoundRecord,
    SwissPlayer,
    SwissRound,
    pair_round,
    players_from_history,
)


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


def rounds_against_reference(
    seed: int, initial_colour: str = "w", *, before: Callable[[], None] = lambda: None
) -> Iterator[tuple[str, list, Oracle, tuple | None, SwissRound]]:
    """A random event paired round by round by the reference and the engine (``before`` is
    called just before the engine pairs): (a label naming the seed and round, the cards, the
    reference, its pairing or None, the engine's round). The event goes on with the engine's
    pairing played with random results, and stops after a round the reference cannot pair, or
    when the engine cannot (the reference must fail there too)."""
    rng = random.Random(seed)
    entrants, rounds = random_event(rng)
    history: list[RoundRecord] = []
    for number in range(1, rounds + 1):
        absent, cards = present_cards(rng, entrants, history)
        if len(cards) < 2:
            history.append(RoundRecord((), tuple((pid, 0) for pid in absent)))
            continue
        facts = {"round_number": number, "total_rounds": rounds, "initial_colour": initial_colour}
        oracle, expected = reference_pairing(cards, **facts)
        label = f"seed {seed} round {number} (n={len(cards)}, {rounds} rounds)"
        before()
        try:
            result = pair_round(cards, **facts)
        except PairingError:
            assert expected is None, f"{label}: engine failed, oracle paired"
            return
        yield label, cards, oracle, expected, result
        if expected is None:
            return  # both unpairable even with C3 lifted (a tiny field): stop here
        assert result.relaxed == oracle.relaxed, f"{label}: C3 lifted?"
        history.append(played_record(rng, result, absent))


def crowded_colour_round(rng: random.Random) -> tuple[list[SwissPlayer], int, int]:
    """(cards, round number, total rounds): 4 to 12 players on few score levels, two of every
    three leaning to black in their past games and the others to white (so many absolute
    preferences for one colour), a few unplayed rounds, random floats, no rematch."""
    number = rng.randint(3, 6)
    cards = []
    for tpn in range(1, rng.randint(4, 12) + 1):
        usual = ["b", "b", "w", None] if tpn % 3 else ["w", "w", "b", None]
        colours = tuple(rng.choice(usual) for _ in range(number - 1))
        floats = tuple(rng.choice([None, None, "down", "up"]) for _ in range(number - 1))
        if rng.random() < 0.3:
            points2 = 2 * rng.randint(0, number - 1)
        else:
            points2 = rng.choice([2, 4])
        cards.append(SwissPlayer(tpn, tpn, points2, colours, floats=floats))
    return cards, number, rng.choice([number, 9])
