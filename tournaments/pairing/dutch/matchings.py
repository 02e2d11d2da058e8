"""Matchings for the yes-or-no questions of the search (can these players all be paired?): a
greedy matching repaired by short augmenting paths first, which is enough in the near-complete
graphs of Swiss brackets, and the blossom algorithm only when it falls short."""

from __future__ import annotations

from collections.abc import Callable

from ..matching import max_matching


def pairs_everyone(players: list, adjacent: Callable) -> bool:
    """Is there a perfect matching? The quick matching first, the blossom algorithm if it
    falls short."""
    if len(players) % 2:
        return False
    if quick_matching_reaches(players, adjacent, len(players) // 2):
        return True
    return len(max_matching(players, adjacent)) == len(players)


def quick_matching_reaches(players: list, adjacent: Callable, target: int) -> bool:
    """Does a quick matching reach ``target`` pairs? Greedy (each player with the first free
    adjacent one after it), then augmenting paths of three edges between the players left
    over -- enough in the near-complete graphs of big brackets. ``adjacent`` is symmetric."""
    mate: dict = {}
    size = len(players)
    for at in range(size):
        player = players[at]
        if player in mate:
            continue
        for later in range(at + 1, size):
            other = players[later]
            if other not in mate and adjacent(player, other):
                mate[player], mate[other] = other, player
                break
    count = len(mate) // 2
    if count >= target:
        return True
    left = [player for player in players if player not in mate]
    if len(left) > 64:
        return False  # too many to repair cheaply
    for player in left:
        if count >= target:
            break
        if player in mate:
            continue
        # Two players the greedy pass left over are never adjacent (the earlier one scanned the
        # later one while both were free), so each needs a path through a pair it made.
        others = [other for other in left if other != player and other not in mate]
        for near in list(mate):  # player - near = far - other, with near and far paired now
            far = mate[near]
            if adjacent(player, near):
                other = next((other for other in others if adjacent(far, other)), None)
                if other is not None:
                    mate[player], mate[near], mate[far], mate[other] = near, player, other, far
                    count += 1
                    break
    return count >= target
