"""Boat (Boat-Pente, O-Pente): a five wins only if the opponent's next move cannot break it.

A five is broken when one capture open to the opponent (any bracket of the variant's capture
lengths, several at once from the same stone) leaves no five standing; a five stands while
``line_length`` of its stones in a row remain. A breakable five stays pending: if any pending
five still stands after the opponent's reply, its maker wins then.
"""

from __future__ import annotations

from .captures import captured_by
from .lines import stands

# A five left pending: the colour that made it and its runs (each sorted along its line).
Pending = tuple[int, tuple[tuple[int, ...], ...]]


def still_standing(board: list[int], pending: Pending, length: int) -> int:
    """The colour of a pending five that still stands, or 0."""
    maker, runs = pending
    return maker if any(stands(board, run, maker, length) for run in runs) else 0


def breakable(
    board: list[int],
    rays: tuple[tuple[tuple[int, ...], ...], ...],
    capture_rays: tuple[tuple[tuple[int, ...], ...], ...],
    runs: tuple[tuple[int, ...], ...],
    c: int,
    lengths: tuple[int, ...],
    length: int,
) -> bool:
    """Whether one stone of the opponent of ``c`` could capture across every one of ``runs``.

    ``rays``: ``tables(size).rays``; ``capture_rays``: ``capture_rays(size, lengths)``.
    """
    o = 3 - c
    reach = max(lengths)
    taken_lengths = frozenset(lengths)
    candidates: set[int] = set()
    for run in runs:
        for q in run:
            for r in rays[q]:
                for x in r[:reach]:
                    if board[x] == 0:
                        candidates.add(x)
    for q in candidates:
        taken = captured_by(board, capture_rays[q], o, c, taken_lengths)
        if not taken:
            continue
        for x in taken:
            board[x] = 0
        try:
            broken = not any(stands(board, run, c, length) for run in runs)
        finally:
            for x in taken:
                board[x] = c
        if broken:
            return True
    return False
