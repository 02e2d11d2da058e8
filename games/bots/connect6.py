"""Connect6's threats, read from the bot's mirror (pure, no framework).

``blockers_needed`` counts the stones the defender needs to block every threat (0, 1, 2, or 3
for "more than two"); the threat search of ``games.bots.search`` builds on it. The reasoning:
docs/computer-opponents.md, "Connect6's threats".
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
