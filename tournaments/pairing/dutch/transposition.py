"""The remainder's S1 and S2 (Art. 4): the order of exchanges, and whether S1 can still be
transposed against S2 (every S1 player given a compatible partner of higher BSN)."""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Callable, Iterator, Sequence


class SearchBudgetExceeded(Exception):
    """The node budget of a search ran out."""


def exchanges(s1_size: int, s2_size: int) -> Iterator[tuple[tuple, tuple]]:
    """Exchanges between S1 (positions 0..s1_size-1) and S2 (the next s2_size positions) in the
    rules' order (Art. 4.3): fewest players, smallest sum(S2->S1) - sum(S1->S2), the largest
    differing BSN moved S1->S2 first, the smallest differing BSN moved S2->S1 first.

    Lazily: per size, the sets moved down come by decreasing sum (then the order above) and the
    sets moved up by increasing sum (then lexicographically), and the two streams are merged
    on a frontier, so that only the exchanges actually tried are ever built."""
    for size in range(1, min(s1_size, s2_size) + 1):
        downs = _Stream(
            tuple(s1_size - 1 - v for v in reversed(subset))
            for subset in _subsets_by_sum(size, s1_size)
        )
        ups = _Stream(
            tuple(s1_size + v for v in subset) for subset in _subsets_by_sum(size, s2_size)
        )

        def key(i: int, j: int, downs=downs, ups=ups) -> tuple:
            down, up = downs[i], ups[j]
            return (sum(up) - sum(down), tuple(-v for v in reversed(down)), up)

        frontier = [(key(0, 0), 0, 0)]
        while frontier:
            _, i, j = heapq.heappop(frontier)
            yield downs[i], ups[j]
            if ups.has(j + 1):
                heapq.heappush(frontier, (key(i, j + 1), i, j + 1))
            if j == 0 and downs.has(i + 1):
                heapq.heappush(frontier, (key(i + 1, 0), i + 1, 0))


class _Stream:
    """A lazily extended list over an iterator."""

    __slots__ = ("items", "source")

    def __init__(self, source: Iterator):
        self.source = source
        self.items: list = []

    def has(self, index: int) -> bool:
        while len(self.items) <= index:
            item = next(self.source, None)
            if item is None:
                return False
            self.items.append(item)
        return True

    def __getitem__(self, index: int):
        self.has(index)
        return self.items[index]


def _subsets_by_sum(k: int, size: int) -> Iterator[tuple[int, ...]]:
    """The k-subsets of range(size) as ascending tuples, by sum, then lexicographically."""
    lowest = k * (k - 1) // 2
    highest = k * size - k * (k + 1) // 2
    for total in range(lowest, highest + 1):
        yield from _with_sum(k, total, 0, size)


def _with_sum(k: int, total: int, start: int, size: int) -> Iterator[tuple[int, ...]]:
    """Ascending tuples of k distinct values of range(start, size) adding up to ``total``, in
    lexicographic order."""
    if k == 1:
        if start <= total < size:
            yield (total,)
        return
    for first in range(start, size):
        rest = total - first
        if rest < (k - 1) * first + (k - 1) * k // 2:
            break  # even the smallest values after ``first`` add up to too much
        if rest > (k - 1) * size - (k - 1) * k // 2:
            continue
        for tail in _with_sum(k - 1, rest, first + 1, size):
            yield (first, *tail)


def each_pairs_below(
    movers: Sequence[int], free: list[int], compatible: Callable[[int, int], bool]
) -> bool:
    """Can every mover get a distinct compatible partner ranked below it (higher BSN) among
    ``free`` (in rank order)? A greedy pass, then augmenting paths (depth first, an explicit
    stack) for the movers it leaves over."""
    owner: dict[int, int] = {}
    left = []
    end = len(free)
    # the first position not taken at or after each one (path-compressed), so that the greedy
    # pass does not step over the taken partners one by one
    untaken = list(range(end + 1))

    def first_untaken(at: int) -> int:
        root = at
        while untaken[root] != root:
            root = untaken[root]
        while untaken[at] != root:
            untaken[at], at = root, untaken[at]
        return root

    for mover in movers:
        at = first_untaken(bisect.bisect_right(free, mover))
        while at < end and not compatible(mover, free[at]):
            at = first_untaken(at + 1)
        if at < end:
            untaken[at] = at + 1
            owner[free[at]] = mover
        else:
            left.append(mover)
    return all(_augment(mover, free, owner, compatible) for mover in left)


def each_paired_above(
    targets: Sequence[int], movers: list[int], compatible: Callable[[int, int], bool]
) -> bool:
    """Can every target get a distinct compatible mover ranked above it (lower BSN) among
    ``movers`` (in rank order)? The mirror of :func:`each_pairs_below`; with it, Mendelsohn and
    Dulmage's theorem says one matching pairs every mover and every target at once."""
    if len(targets) > len(movers):
        return False
    owner: dict[int, int] = {}
    left = []
    for target in sorted(targets):  # the most constrained (fewest movers above) first
        for mover in _ranked_above(movers, target):
            if mover not in owner and compatible(mover, target):
                owner[mover] = target
                break
        else:
            left.append(target)
    return all(_augment_above(target, movers, owner, compatible) for target in left)


def _augment_above(root: int, movers: list[int], owner: dict, compatible: Callable) -> bool:
    """Kuhn's augmenting path from target ``root`` over movers ranked above the targets."""
    seen: set[int] = set()
    path = [[root, _ranked_above(movers, root), None]]  # per step: target, untried, mover
    while path:
        step = path[-1]
        target = step[0]
        for mover in step[1]:
            if mover not in seen and compatible(mover, target):
                break
        else:
            path.pop()
            continue
        seen.add(mover)
        step[2] = mover
        if mover not in owner:
            for target, _, mover in path:
                owner[mover] = target
            return True
        path.append([owner[mover], _ranked_above(movers, owner[mover]), None])
    return False


def _ranked_above(players: list[int], player: int) -> Iterator[int]:
    """The players of ``players`` (in rank order) ranked above ``player``, nearest first."""
    return reversed(players[: bisect.bisect_left(players, player)])


def _augment(root: int, free: list[int], owner: dict, compatible: Callable) -> bool:
    """Kuhn's augmenting path from ``root``; on success ``owner`` is updated along it."""
    seen: set[int] = set()
    path = [[root, ranked_below(free, root), None]]  # per step: player, untried, partner
    while path:
        step = path[-1]
        player = step[0]
        for partner in step[1]:
            if partner not in seen and compatible(player, partner):
                break
        else:
            path.pop()
            continue
        seen.add(partner)
        step[2] = partner
        if partner not in owner:
            for player, _, partner in path:
                owner[partner] = player
            return True
        path.append([owner[partner], ranked_below(free, owner[partner]), None])
    return False


def ranked_below(players: list[int], player: int) -> Iterator[int]:
    """The players of ``players`` (in rank order) ranked below ``player``: of higher rank
    number, that is higher BSN."""
    return itertools.islice(players, bisect.bisect_right(players, player), None)
