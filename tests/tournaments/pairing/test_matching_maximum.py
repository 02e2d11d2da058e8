"""The blossom matching is maximum on every small graph: checked against a brute-force maximum
on seeded random graphs (odd cycles included, where a greedy pass and a plain augmenting search
both fall short), and always a valid matching of compatible pairs."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from tournaments.pairing.matching import has_perfect_matching, max_matching


def brute_force_size(n: int, edges: frozenset[frozenset[int]]) -> int:
    @cache
    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        v = min(free)
        rest = free - {v}
        result = best(rest)
        for u in rest:
            if frozenset((u, v)) in edges:
                result = max(result, 1 + best(rest - {u}))
        return result

    return best(frozenset(range(n)))


def check(n: int, edges: frozenset[frozenset[int]]) -> dict:
    def compatible(a, b):
        return frozenset((a, b)) in edges

    matching = max_matching(list(range(n)), compatible)
    for v, u in matching.items():
        assert matching[u] == v and u != v
        assert compatible(v, u)
    assert len(matching) == 2 * brute_force_size(n, edges)
    assert has_perfect_matching(list(range(n)), compatible) == (len(matching) == n)
    return matching


@pytest.mark.parametrize("seed", range(12))
def test_the_matching_is_maximum_on_random_graphs(seed):
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randint(2, 10)
        density = rng.choice([0.2, 0.35, 0.5, 0.8])
        edges = frozenset(
            frozenset(p) for p in itertools.combinations(range(n), 2) if rng.random() < density
        )
        check(n, edges)


def test_a_blossom_is_needed_to_match_everyone():
    # A triangle 0-1-2 with a tail 2-3 and 0-4, 4-5: greedy pairs 0-1, 2-3 and leaves 4, 5
    # unmatched only if 4-5 is missing; here the augmenting path goes through the triangle.
    edges = frozenset(frozenset(e) for e in [(0, 1), (1, 2), (0, 2), (2, 3), (1, 4), (4, 5)])
    assert len(check(6, edges)) == 6
    # Two triangles joined by one edge, with pendant vertices: a blossom must be shrunk.
    edges = frozenset(
        frozenset(e)
        for e in [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (4, 5), (3, 5), (0, 6), (5, 7)]
    )
    assert len(check(8, edges)) == 8


def test_greedy_pairs_neighbours_in_the_given_order():
    assert max_matching(["a", "b", "c", "d"], lambda x, y: True) == {
        "a": "b",
        "b": "a",
        "c": "d",
        "d": "c",
    }


def test_an_odd_field_has_no_perfect_matching():
    assert not has_perfect_matching(["a", "b", "c"], lambda x, y: True)
    assert has_perfect_matching(["a", "b"], lambda x, y: True)
    assert not has_perfect_matching(["a", "b"], lambda x, y: False)
    assert max_matching([], lambda x, y: True) == {}
