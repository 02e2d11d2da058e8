"""The Dutch engine against an independent brute-force reference (tests/tournaments/dutch_oracle.py).

Small random tournaments (4 to 11 players, draws, forfeits, absences, PABs) are paired round by
round by both; every round the engine's pairing must be the reference's: the optimal criteria
vector in every bracket and, among equals, the first candidate in the rules' generation order.
Colours and the PAB must agree too.
"""

from __future__ import annotations

import pytest

from tournaments.pairing.dutch import (
    SwissPlayer,
    engine,
)

from .dutch_oracle import Oracle
from .random_events import rounds_against_reference


def explain(oracle: Oracle, result) -> str:
    """The first bracket where the engine's choice differs from the reference's."""
    idx = oracle.idx
    engine_pairs = [tuple(sorted((idx[w], idx[b]))) for w, b in result.pairs]
    lines = []
    for g, (carry, residents, vec, pairs, floaters) in enumerate(oracle.trace):
        members = set(carry) | set(residents)
        mine = [
            p
            for p in engine_pairs
            if set(p) <= members and (p[0] in residents or p[1] in residents)
        ]
        mine_fl = sorted(members - {x for p in mine for x in p})
        if sorted(mine) != sorted(pairs):
            other = oracle.evaluate(g, carry, mine, mine_fl)
            lines.append(f"bracket {g}: carry={carry} residents={residents}")
            lines.append(f"  reference {sorted(pairs)} floaters {floaters}\n    {vec}")
            lines.append(f"  engine    {sorted(mine)} floaters {mine_fl}\n    {other}")
            break
    return "\n".join(lines)


def play_and_compare(seed: int, initial_colour: str = "w") -> int:
    checked = 0
    for label, _, oracle, expected, result in rounds_against_reference(seed, initial_colour):
        if expected is None:
            break
        pair_set, bye, coloured = expected
        got = {frozenset(p) for p in result.pairs}
        assert got == pair_set and result.bye == bye, (
            f"{label}\n"
            f"engine {sorted(map(sorted, got))} bye {result.bye}\n"
            f"oracle {sorted(map(sorted, pair_set))} bye {bye}\n" + explain(oracle, result)
        )
        assert set(result.pairs) == coloured, f"{label}: colours differ"
        checked += 1
    return checked


@pytest.mark.parametrize("block", range(8))
def test_engine_matches_the_brute_force_reference_round_by_round(block):
    checked = sum(play_and_compare(seed) for seed in range(block * 40, block * 40 + 40))
    assert checked > 40  # most events run to the end


@pytest.mark.parametrize("block", range(2))
def test_engine_matches_the_reference_with_initial_colour_black(block):
    seeds = range(1000 + block * 40, 1000 + block * 40 + 40)
    checked = sum(play_and_compare(seed, initial_colour="b") for seed in seeds)
    assert checked > 40


@pytest.mark.parametrize("block", range(2))
def test_the_checked_search_of_hard_brackets_matches_the_reference(block, monkeypatch):
    # Small fields rarely need more than the quick first search. With it switched off, every
    # bracket goes through the bound per floater, the checked search and (when the bound is
    # not reached) the branch and bound -- the path the large hard brackets take.
    monkeypatch.setattr(engine, "QUICK_NODES", 0)
    monkeypatch.setattr(engine, "QUICK_NODES_PER_PLAYER", 0)
    seeds = range(2000 + block * 40, 2000 + block * 40 + 40)
    checked = sum(play_and_compare(seed) for seed in seeds)
    assert checked > 40


def test_reference_detects_a_worse_pairing():
    # The reference's vector prefers granting both colour preferences: a wrong pairing scores
    # worse, so the comparison above can fail.
    cards = [
        SwissPlayer("a", 1, 2, ("w",), frozenset({"e"})),
        SwissPlayer("b", 2, 2, ("b",), frozenset({"f"})),
        SwissPlayer("c", 3, 2, ("w",), frozenset({"g"})),
        SwissPlayer("d", 4, 2, ("b",), frozenset({"h"})),
    ]
    oracle = Oracle(cards, round_number=2, total_rounds=3)
    pairs, bye, _ = oracle.pair()
    assert pairs == {frozenset("ad"), frozenset("bc")} and bye is None
    good = oracle.evaluate(0, [], [(0, 3), (1, 2)], [])
    bad = oracle.evaluate(0, [], [(0, 2), (1, 3)], [])
    assert good < bad
