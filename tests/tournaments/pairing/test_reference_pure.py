"""The reference FIDE Dutch engine's recorded answers (``data/reference_pairings.jsonl.gz``),
checked against the pure pairing alone: each report read by ``pairing.trf``, its rounds turned
into the cards the server would build from them, and the next round paired by
``dutch.pair_round``, with no database. The rounds are what the reference engine paired, game
by game (who has white) and the PAB.

``tests/tournaments/test_trf_reference_recorded.py`` checks a sample of the same cases through
the whole server (the import, the stored rounds, the pairing job); this module checks every case
in a fraction of the time, so that a wrong line of the pairing (a mutant, docs/mutation-
testing.md) fails here first."""

from __future__ import annotations

import pytest

from tests.tournaments.reference_cases import recorded_cases
from tournaments.pairing import trf
from tournaments.pairing.dutch import (
    PlayedPair,
    RoundRecord,
    idle_tpns_of,
    pair_round,
    players_from_history,
)

#: The half points of each kind of unplayed round a report states (a zero-point bye, an
#: absence, is kept as no game at all, as the import keeps it).
BYE_POINTS2 = {"pab": 2, "full": 2, "half": 1}


CASES = recorded_cases()


def history_of(event: trf.ReportedEvent) -> list[RoundRecord]:
    """The rounds of a report as the pairing's records, players by starting rank: the games
    first (in the order of their lower rank), then the byes by rank, as the import stores them
    and the server reads them back."""
    records = []
    for reported in event.rounds:
        pairs = sorted(reported.pairs, key=lambda p: min(p.white, p.black))
        byes = sorted((rank, kind) for rank, kind in reported.byes if kind != "zero")
        records.append(
            RoundRecord(
                tuple(
                    PlayedPair(p.white, p.black, p.white_points2, played=not p.forfeit)
                    for p in pairs
                ),
                tuple((rank, BYE_POINTS2[kind]) for rank, kind in byes),
                next((rank for rank, kind in byes if kind == "pab"), None),
            )
        )
    return records


def next_round(text: str) -> list[list[int]]:
    """The next round of the report ``text`` as ``[white, black]`` by starting rank and the PAB
    as ``[player, 0]``, sorted."""
    doc = trf.load(text)
    event = trf.reported_rounds(doc)
    number = len(event.rounds) + 1
    history = history_of(event)
    left_out = {rank for round_, rank, _kind in event.planned if round_ == number}
    ranks = [p.start_rank for p in doc.players]
    entries = [(rank, rank) for rank in ranks if rank not in left_out]
    pairing = {rank for rank, _tpn in entries}
    idle = idle_tpns_of([(rank, rank) for rank in ranks], pairing, history)
    result = pair_round(
        players_from_history(entries, history),
        round_number=number,
        total_rounds=doc.rounds or len(event.rounds) or number,
        initial_colour="black" if trf.initial_colour_of(doc) == "b" else "white",
        idle_tpns=idle,
    )
    pairs = [[white, black] for white, black in result.pairs]
    if result.bye is not None:
        pairs.append([result.bye, 0])
    return sorted(pairs)


@pytest.mark.parametrize("case", [pytest.param(case, id=case["case"]) for case in CASES])
def test_the_pure_pairing_of_the_next_round_is_the_reference_engines(case):
    ours = next_round(case["trf"])
    assert ours == case["pairs"], (
        f"{case['case']}: here {ours}, reference {case['pairs']}; paired from:\n{case['trf']}"
    )
