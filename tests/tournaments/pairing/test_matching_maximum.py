"""The blossom matching is maximum on every small graph: checked against a brute-force maximum
on seeded random graphs (odd cycles included, where a greedy pass and a plain augmenting search
both fall short; up to 14 vertices, where an augmenting path must run through a shrunk
blossom, entering it at an odd vertex), and always a valid matching of compatible pairs."""

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


@pytest.mark.parametrize("seed", range(4))
def test_the_matching_is_maximum_on_larger_sparse_graphs(seed):
    # Ten to fourteen vertices, sparse: blossoms of five or more vertices, and augmenting paths
    # that leave a blossom by one of its odd vertices (which shrinking makes even).
    rng = random.Random(100 + seed)
    for _ in range(25):
        n = rng.randint(10, 14)
        density = rng.choice([0.2, 0.25, 0.3])
        edges = frozenset(
            frozenset(p) for p in itertools.combinations(range(n), 2) if rng.random() < density
        )
        check(n, edges)


def test_augmenting_paths_through_blossoms_found_by_a_random_search():
    # Graphs on which a search that never makes a blossom's odd vertices even, or that loses
    # the way back through a blossom, stops short of the maximum.
    for n, edge_list in [
        (
            12,
            [(0, 5), (0, 6), (0, 9), (1, 5), (1, 7), (1, 10), (2, 3), (2, 4), (2, 6), (2, 10)]
            + [(3, 4), (3, 7), (3, 10), (4, 7), (5, 6), (5, 7), (5, 9), (7, 8), (7, 10)]
            + [(8, 10), (9, 10), (10, 11)],
        ),
        (
            14,
            [(0, 6), (0, 7), (0, 13), (1, 9), (1, 13), (2, 10), (2, 11), (2, 12), (3, 6)]
            + [(3, 7), (3, 8), (4, 5), (4, 7), (4, 8), (4, 9), (5, 8), (5, 13), (7, 8)]
            + [(7, 11), (7, 13), (8, 10), (8, 13)],
        ),
        (
            8,
            [(0, 1), (0, 2), (0, 3), (0, 5), (0, 6), (0, 7), (1, 5), (2, 4), (2, 7), (3, 4)]
            + [(4, 5), (5, 7)],
        ),
    ]:
        check(n, frozenset(frozenset(e) for e in edge_list))


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


def greedy(n: int, edges: frozenset[frozenset[int]]) -> dict:
    """Each vertex in turn, if still free, with the first free compatible vertex after it."""
    partner: dict[int, int] = {}
    for v in range(n):
        if v in partner:
            continue
        for u in range(v + 1, n):
            if u not in partner and frozenset((u, v)) in edges:
                partner[v], partner[u] = u, v
                break
    return partner


@pytest.mark.parametrize("seed", range(4))
def test_the_greedy_pairs_are_kept_whenever_they_are_already_maximum(seed):
    # The documented order: when the greedy pass is already a maximum matching, that is the
    # result, pair for pair; otherwise the result still holds as many pairs as the maximum.
    rng = random.Random(200 + seed)
    kept = 0
    for _ in range(40):
        n = rng.randint(2, 10)
        density = rng.choice([0.3, 0.5, 0.7, 0.9])
        edges = frozenset(
            frozenset(p) for p in itertools.combinations(range(n), 2) if rng.random() < density
        )
        matching = check(n, edges)
        first = greedy(n, edges)
        if len(first) == len(matching):
            assert matching == first
            kept += 1
    assert kept > 10


def test_an_odd_field_has_no_perfect_matching():
    assert not has_perfect_matching(["a", "b", "c"], lambda x, y: True)
    assert has_perfect_matching(["a", "b"], lambda x, y: True)
    assert not has_perfect_matching(["a", "b"], lambda x, y: False)
    assert max_matching([], lambda x, y: True) == {}
