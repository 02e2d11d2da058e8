"""Connect6's threats, read from the bot's mirror (pure, no framework).

In Connect6 a player places two stones a turn, so a window of six holding four or five stones
of one colour and nothing else is a *threat*: its owner completes it on their next turn. What
matters is how many stones the other side needs to put one in every such window: with one or
two it blocks them all in its turn; with three or more it cannot, and the owner wins.
``blockers_needed`` computes that number exactly (0, 1, 2, or 3 for "more than two"):
a set of at most two points meets every window only if one of its points lies in the first
window, so each point of the first window is tried and the windows it misses must then share
a point.

The threat-space search built on it (``games.bots.search``) plays turns that leave exactly
two stones' worth of threats, so that both of the defender's stones are spent on blocking,
until a turn leaves three or more.
"""

from __future__ import annotations

from .board import Mirror

__all__ = ["attack_points", "blockers_needed", "blocking_pairs", "threat_windows"]


def threat_windows(m: Mirror, c: int) -> list[frozenset[int]]:
    """The empty points of each window colour ``c`` completes with two stones."""
    need = m.line - 2
    cnt = m.cnt[c]
    board = m.board
    windows = m.geo.windows
    return [frozenset(q for q in windows[w] if not board[q]) for w in m.hot[c] if cnt[w] >= need]


def _misses(sets: list[frozenset[int]], p: int) -> list[frozenset[int]]:
    return [s for s in sets if p not in s]


def _common(sets: list[frozenset[int]]) -> frozenset[int]:
    out = sets[0]
    for s in sets[1:]:
        out = out & s
        if not out:
            break
    return out


def blockers_needed(m: Mirror, c: int) -> int:
    """The fewest stones that meet every threat of colour ``c``: 0, 1, 2, or 3 (more than
    two: the other side cannot stop them in one turn)."""
    sets = threat_windows(m, c)
    if not sets:
        return 0
    if _common(sets):
        return 1
    for p in sets[0]:
        rest = _misses(sets, p)
        if _common(rest):
            return 2
    return 3


def blocking_pairs(m: Mirror, c: int) -> list[tuple[int, int]]:
    """Every pair of points that meets all of colour ``c``'s threats when one point cannot
    (``blockers_needed == 2``), each pair once, in board order."""
    sets = threat_windows(m, c)
    out: set[tuple[int, int]] = set()
    for p in sets[0] if sets else ():
        rest = _misses(sets, p)
        if not rest:
            continue
        for q in _common(rest):
            out.add((min(p, q), max(p, q)))
    return sorted(out)


def attack_points(m: Mirror, c: int, limit: int) -> list[int]:
    """Up to ``limit`` empty points where a stone of ``c`` brings a window of its own closer to
    a threat (windows of two stones or more, nothing of the other colour), the most promising
    first: a window of three counts 3, one of two counts 1."""
    need = m.line - 4
    cnt = m.cnt[c]
    owner = m.owner
    board = m.board
    windows = m.geo.windows
    score: dict[int, int] = {}
    for p in m.of[c]:
        for w in m.geo.through[p]:
            k = cnt[w]
            if owner[w] != c or k < need or k >= m.line - 2:
                continue
            gain = 3 if k > need else 1
            for q in windows[w]:
                if not board[q]:
                    score[q] = score.get(q, 0) + gain
    # each window was counted once per stone of ours in it: the order is what matters
    ranked = sorted(score, key=lambda q: (-score[q], q))
    return ranked[:limit]
