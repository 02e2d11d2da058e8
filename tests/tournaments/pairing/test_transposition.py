"""The remainder's helpers (``dutch/transposition.py``) against brute force on small random
cases: whether every mover can get a partner ranked below it (``each_pairs_below``), whether
every target can get a mover ranked above it (``each_paired_above``), and the exchanges
between S1 and S2 in the rules' order (Art. 4.3). The whole-tournament tests reach them only
through the pairing they prune, where a wrong answer often costs time, not the result."""

from __future__ import annotations

import itertools
import random

import pytest

from tests.tournaments.pairing.graphs import compatible_in
from tournaments.pairing.dutch.transposition import (
    each_paired_above,
    each_pairs_below,
    exchanges,
    ranked_below,
)


def brute_force_pairs(
    wanting: list[int], offered: list[int], allowed: set[tuple[int, int]]
) -> bool:
    """Does a set of distinct partners of ``offered`` exist, one per player of ``wanting``,
    each (player, partner) in ``allowed``?"""
    if len(wanting) > len(offered):
        return False
    return any(
        all((player, partner) in allowed for player, partner in zip(wanting, chosen, strict=True))
        for chosen in itertools.permutations(offered, len(wanting))
    )


def random_case(rng: random.Random):
    """Players 1..n split at random into two rank-ordered groups, and a random compatibility."""
    n = rng.randint(2, 8)
    players = list(range(1, n + 1))
    first = sorted(rng.sample(players, rng.randint(1, n - 1)))
    second = [p for p in players if p not in first]
    density = rng.choice([0.3, 0.6, 0.9])
    pairs = {(a, b) for a in players for b in players if a != b and rng.random() < density}
    compatible_pairs = pairs | {(b, a) for a, b in pairs}
    return first, second, compatible_pairs


CASES = range(400)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_each_mover_pairs_below_exactly_when_brute_force_finds_partners(seed):
    rng = random.Random(seed)
    for _ in CASES:
        movers, free, compatible_pairs = random_case(rng)
        allowed = {(m, f) for m, f in compatible_pairs if f > m}  # a partner ranked below
        expected = brute_force_pairs(movers, free, allowed)
        got = each_pairs_below(movers, free, compatible_in(compatible_pairs))
        assert got == expected, (movers, free, sorted(compatible_pairs))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_each_target_is_paired_above_exactly_when_brute_force_finds_movers(seed):
    rng = random.Random(seed + 100)
    for _ in CASES:
        targets, movers, compatible_pairs = random_case(rng)
        allowed = {(t, m) for m, t in compatible_pairs if m < t}  # a mover ranked above
        expected = brute_force_pairs(targets, movers, allowed)
        got = each_paired_above(targets, movers, compatible_in(compatible_pairs))
        assert got == expected, (targets, movers, sorted(compatible_pairs))


def test_a_long_augmenting_path_reassigns_every_partner_along_it():
    # Greedy gives 1 -> 4 and 2 -> 5; 3 can only have 4, so 1 must move to 5 and 2 to 6.
    allowed = {(1, 4), (1, 5), (2, 5), (2, 6), (3, 4)}
    compatible = compatible_in(allowed)
    assert each_pairs_below([1, 2, 3], [4, 5, 6], compatible)
    assert not each_pairs_below([1, 2, 3], [4, 5], compatible)
    # The mirror: targets 4, 5, 6 each above-paired; 4 can only have 3.
    mirror = {(3, 4), (1, 5), (3, 5), (2, 6), (1, 6)}
    compatible = compatible_in(mirror)
    assert each_paired_above([4, 5, 6], [1, 2, 3], compatible)
    assert not each_paired_above([4, 5, 6], [1, 3], compatible)


def test_a_partner_one_augmenting_path_took_is_not_offered_to_the_next():
    # Greedy gives 1 -> 4 and leaves 2 and 3, who may have only 4. The path for 2 moves 1 to 5;
    # 3 then finds 4 held by 2 and 5 held by 1.
    allowed = {(1, 4), (1, 5), (2, 4), (3, 4)}
    compatible = compatible_in(allowed)
    assert not each_pairs_below([1, 2, 3], [4, 5], compatible)
    assert each_pairs_below([1, 2], [4, 5], compatible)
    # The mirror: greedy gives 2 to 3 and leaves 4 and 8, who may have only 2.
    mirror = {(1, 3), (2, 3), (2, 4), (2, 8)}
    compatible = compatible_in(mirror)
    assert not each_paired_above([3, 4, 8], [1, 2, 5], compatible)
    assert each_paired_above([3, 4], [1, 2, 5], compatible)


def test_an_augmenting_path_steps_back_from_a_dead_end():
    # Greedy gives 3 to 4 and 2 to 6, and leaves 5, who may have only 3. The path 5 -> 3 -> 4
    # tries 2 first (held by 6, who has no other mover): a dead end, from which it must step
    # back and give 4 the free 1.
    allowed = {(1, 4), (2, 4), (2, 6), (3, 4), (3, 5)}
    assert each_paired_above([4, 5, 6], [1, 2, 3], compatible_in(allowed))


def test_more_targets_than_movers_cannot_all_be_paired():
    assert not each_paired_above([3, 4, 5], [1, 2], lambda a, b: True)
    assert each_paired_above([3, 4], [1, 2], lambda a, b: True)


def test_ranked_below_is_every_later_player_in_rank_order():
    assert list(ranked_below([1, 3, 5, 7], 3)) == [5, 7]
    assert list(ranked_below([1, 3, 5, 7], 4)) == [5, 7]
    assert list(ranked_below([1, 3, 5, 7], 7)) == []


def rules_order(s1: int, s2: int) -> list[tuple[tuple, tuple]]:
    """Every exchange, sorted by Art. 4.3's keys: the number of players exchanged, the
    difference of the sums of the BSNs moved, the largest differing BSN moved down first, the
    smallest differing BSN moved up first (positions from 0, S2 after S1)."""
    found = []
    for size in range(1, min(s1, s2) + 1):
        for down in itertools.combinations(range(s1), size):
            for up in itertools.combinations(range(s1, s1 + s2), size):
                key = (size, sum(up) - sum(down), tuple(-v for v in sorted(down, reverse=True)), up)
                found.append((key, (down, up)))
    return [exchange for _key, exchange in sorted(found)]


@pytest.mark.parametrize(("s1", "s2"), [(1, 1), (2, 3), (3, 3), (3, 5), (4, 4), (5, 6)])
def test_the_exchanges_come_in_the_rules_order(s1, s2):
    assert list(exchanges(s1, s2)) == rules_order(s1, s2)
