"""Precomputed per-point geometry, one set of tables per board size (module-level cache).

Directions come in opposite pairs so that ``AXES`` can pair them: E/W, S/N, SE/NW, NE/SW.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
)

RAY_LENGTH = 5  # enough for Connect6's six (1 + 5) and for Keryo triples (3 + 1)


@dataclass(frozen=True, slots=True)
class Tables:
    size: int
    centre: int
    # rays[p][k]: points from p in DIRECTIONS[k], nearest first, at most RAY_LENGTH, clipped at
    # the edge (nothing wraps).
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    # cap2[p]: (a, b, e) for each direction with 3 points: a pair at a, b bracketed by e.
    cap2: tuple[tuple[tuple[int, int, int], ...], ...]
    # capr[p]: rays of at least 3 points (captures of pairs and triples).
    capr: tuple[tuple[tuple[int, ...], ...], ...]
    # axes[p]: four (forward ray, backward ray) pairs.
    axes: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]
    # neighbours[p]: the up to 8 points touching p.
    neighbours: tuple[tuple[int, ...], ...]
    # chebyshev[p]: Chebyshev distance from the centre.
    chebyshev: tuple[int, ...]


@cache
def tables(size: int) -> Tables:
    rays = []
    for p in range(size * size):
        y, x = divmod(p, size)
        per_dir = []
        for dx, dy in DIRECTIONS:
            ray = []
            cx, cy = x + dx, y + dy
            while 0 <= cx < size and 0 <= cy < size and len(ray) < RAY_LENGTH:
                ray.append(cx + size * cy)
                cx += dx
                cy += dy
            per_dir.append(tuple(ray))
        rays.append(tuple(per_dir))
    cap2 = tuple(tuple((r[0], r[1], r[2]) for r in per if len(r) >= 3) for per in rays)
    capr = tuple(tuple(r for r in per if len(r) >= 3) for per in rays)
    axes = tuple(tuple((per[k], per[k + 1]) for k in range(0, 8, 2)) for per in rays)
    neighbours = tuple(tuple(r[0] for r in per if r) for per in rays)
    c = size // 2
    chebyshev = tuple(max(abs(p % size - c), abs(p // size - c)) for p in range(size * size))
    return Tables(
        size=size,
        centre=c + size * c,
        rays=tuple(rays),
        cap2=cap2,
        capr=capr,
        axes=axes,
        neighbours=neighbours,
        chebyshev=chebyshev,
    )
