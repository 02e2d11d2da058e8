"""Maximum-cardinality matching in general graphs (Edmonds' blossom algorithm).

The graph is given lazily by a compatibility predicate, because Swiss pairing graphs are nearly
complete: a greedy pass matches almost everyone and the blossom search only has to repair the
few vertices left over, each usually within a couple of steps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence


def max_matching(vertices: Sequence, compatible: Callable[[object, object], bool]) -> dict:
    """A maximum matching of ``vertices`` as a dict vertex -> partner (both directions).

    The greedy pass pairs each vertex with the first compatible unmatched vertex after it, so
    on an easy graph the result pairs neighbours in the given order."""
    vs = list(vertices)
    n = len(vs)
    match = [-1] * n

    for v in range(n):
        if match[v] != -1:
            continue
        gv = vs[v]
        for u in range(v + 1, n):
            if match[u] == -1 and compatible(gv, vs[u]):
                match[v], match[u] = u, v
                break

    def neighbours(v: int):
        gv = vs[v]
        for u in range(n):
            if u != v and compatible(gv, vs[u]):
                yield u

    for root in range(n):
        if match[root] == -1:
            end, parent = _find_augmenting_path(root, n, match, neighbours)
            if end != -1:
                v = end
                while v != -1:
                    pv = parent[v]
                    ppv = match[pv]
                    match[v], match[pv] = pv, v
                    v = ppv
    return {vs[v]: vs[match[v]] for v in range(n) if match[v] != -1}


def has_perfect_matching(vertices: Sequence, compatible: Callable[[object, object], bool]) -> bool:
    vs = list(vertices)
    if len(vs) % 2:
        return False
    return len(max_matching(vs, compatible)) == len(vs)


def _find_augmenting_path(root: int, n: int, match: list[int], neighbours):
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in neighbours(v):
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark_path(v, cur, to, blossom)
                mark_path(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent
