"""Captures: the stones a new stone brackets (docs/rules.md, "Captures"; Keryo;
multi-player).

A stone of colour ``c`` captures, in each direction, a run of stones that are not its own whose
length is one of the variant's ``capture_lengths`` and that ends on a stone of colour ``c``. In a
two-colour game every such stone is the opponent's; in a multi-player game the run may mix the
other colours. Only the run right next to the stone counts, so X O O O X captures nothing when 3
is not a capture length.
"""

from __future__ import annotations

from functools import cache

from .tables import tables


@cache
def capture_rays(size: int, lengths: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``capture_rays(size, lengths)[p]``: the rays from ``p`` cut to the longest capture plus its
    bracketing stone, keeping only those long enough for the shortest capture."""
    reach = max(lengths) + 1
    shortest = min(lengths) + 1
    return tuple(tuple(r[:reach] for r in per if len(r) >= shortest) for per in tables(size).rays)


def captured_by(
    board: list[int], rays: tuple[tuple[int, ...], ...], c: int, o: int, lengths: frozenset[int]
) -> tuple[int, ...]:
    """The stones of colour ``o`` that a stone of colour ``c`` captures along ``rays`` (its
    point's capture rays, from ``capture_rays``) in a two-colour game; the board is unchanged."""
    out: tuple[int, ...] = ()
    for r in rays:
        if board[r[0]] == o:
            k = 1
            n = len(r)
            while k < n and board[r[k]] == o:
                k += 1
            if k < n and board[r[k]] == c and k in lengths:
                out += r[:k]
    return out


def captured_by_any(
    board: list[int], rays: tuple[tuple[int, ...], ...], c: int, lengths: tuple[int, ...]
) -> tuple[int, ...]:
    """As ``captured_by`` when more than two colours are in play: the run may hold stones of
    any colour but ``c``."""
    out: tuple[int, ...] = ()
    for r in rays:
        for length in lengths:
            if len(r) > length and board[r[length]] == c:
                if all(board[q] not in (0, c) for q in r[:length]):
                    out += r[:length]
                break
    return out
