"""Poofs (Poof-Pente, O-Pente): playing into a bracket removes the mover's own run.

If the new stone completes a run of the mover's stones of exactly a capture length, bracketed on
both ends by opponent stones, that run is poofed. Poofs are found on the board as it stands after
the stone is placed, together with the move's captures, and the poofed stones count for the
opponent.
"""

from __future__ import annotations


def poofed_by(
    board: list[int],
    axes: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
    p: int,
    c: int,
    lengths: frozenset[int],
) -> tuple[int, ...]:
    """The stones of colour ``c`` that the stone on ``p`` poofs (``axes``:
    ``tables(size).axes[p]``), each once even when it lies on two poofed lines."""
    o = 3 - c
    out: list[int] = []
    for fwd, back in axes:
        run = [p]
        if _bracketed(board, fwd, c, o, run) and _bracketed(board, back, c, o, run):
            if len(run) in lengths:
                out.extend(run)
    return tuple(dict.fromkeys(out))


def _bracketed(board: list[int], ray: tuple[int, ...], c: int, o: int, run: list[int]) -> bool:
    """Add the stones of colour ``c`` along ``ray`` to ``run``; whether an ``o`` stone ends them."""
    for q in ray:
        x = board[q]
        if x != c:
            return x == o
        run.append(q)
    return False
