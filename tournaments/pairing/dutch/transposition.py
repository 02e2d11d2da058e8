"""The remainder's S1 and S2 (Art. 4): the order of exchanges, and whether S1 can still be
transposed against S2 (every S1 player given a compatible partner of higher BSN)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterator, Sequence


class SearchBudgetExceeded(Exception):
    """The node budget of a search ran out."""


def exchanges(s1_size: int, s2_size: int, limit: int) -> Iterator[tuple[tuple, tuple]]:
    """Exchanges between S1 (positions 0..s1_size-1) and S2 (the next s2_size positions) in the
    rules' order (Art. 4.3): fewest players, smallest sum(S2->S1) - sum(S1->S2), the largest
    differing BSN moved S1->S2 first, the smallest differing BSN moved S2->S1 first. Raises
    :class:`SearchBudgetExceeded` before a size with more than ``limit`` exchanges."""
    s1 = range(s1_size)
    s2 = range(s1_size, s1_size + s2_size)
    for size in range(1, min(s1_size, s2_size) + 1):
        count = 1
        for side in (s1_size, s2_size):
            for taken in range(size):
                count = count * (side - taken) // (taken + 1)
        if count > limit:
            raise SearchBudgetExceeded
        ordered = sorted(
            (sum(up) - sum(down), tuple(-v for v in sorted(down, reverse=True)), up, down)
            for down in itertools.combinations(s1, size)
            for up in itertools.combinations(s2, size)
        )
        for _, _, up, down in ordered:
            yield down, up


def each_pairs_below(
    movers: Sequence[int], free: list[int], compatible: Callable[[int, int], bool]
) -> bool:
    """Can every mover get a distinct compatible partner ranked below it (higher BSN) among
    ``free`` (in rank order)? A greedy pass, then augmenting paths (depth first, an explicit
    stack) for the movers it leaves over."""
    owner: dict[int, int] = {}
    taken = [False] * len(free)
    left = []
    end = len(free)
    for mover in movers:
        at = bisect.bisect_right(free, mover)
        while at < end and (taken[at] or not compatible(mover, free[at])):
            at += 1
        if at < end:
            taken[at] = True
            owner[free[at]] = mover
        else:
            left.append(mover)
    return all(_augment(mover, free, owner, compatible) for mover in left)


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
