"""Lines of five (six in Connect6) as runs of points: what Boat-Pente and O-Pente keep pending
until the opponent's reply, and whether such a run still stands.

The plain test, whether the stone just placed makes a line of five or more (exactly five in
Gomoku), runs on every move and is written out in ``Game._place`` for speed.
"""

from __future__ import annotations

from .tables import DIRECTIONS


def full_run(board: list[int], size: int, p: int, axis: int, c: int) -> tuple[int, ...]:
    """All stones of colour ``c`` in a row through ``p`` along ``axis`` (0..3), sorted."""
    x0, y0 = p % size, p // size
    pts = [p]
    for dx, dy in (DIRECTIONS[2 * axis], DIRECTIONS[2 * axis + 1]):
        x, y = x0 + dx, y0 + dy
        while 0 <= x < size and 0 <= y < size and board[x + size * y] == c:
            pts.append(x + size * y)
            x += dx
            y += dy
    return tuple(sorted(pts))


def lines_through(
    board: list[int], size: int, p: int, c: int, length: int
) -> tuple[tuple[int, ...], ...]:
    """Every run of ``length`` or more stones of colour ``c`` through ``p``, one per axis."""
    runs = []
    for axis in range(4):
        run = full_run(board, size, p, axis, c)
        if len(run) >= length:
            runs.append(run)
    return tuple(runs)


def stands(board: list[int], run: tuple[int, ...], c: int, length: int) -> bool:
    """Whether at least ``length`` stones of ``run`` in a row are still colour ``c``.

    ``run`` is sorted along its line, so consecutive entries are neighbours on the board.
    """
    best = n = 0
    for q in run:
        if board[q] == c:
            n += 1
            if n > best:
                best = n
        else:
            n = 0
    return best >= length
