"""FIDE Berger tables (Handbook C.05, Annex 1) for round-robin tournaments.

For an even number of players ``n`` (an odd count adds a dummy number ``n + 1``, whose opponent
has the bye), round ``r`` (1-based) pairs the players whose numbers add up to ``r + 1`` modulo
``n - 1`` (numbers taken in 1..n-1); the player ``a`` with ``2a = r + 1 (mod n - 1)`` meets ``n``.
Player ``n`` has black in odd rounds and white in even rounds. On the other boards, board ``j``
(``j = 1 .. n/2 - 1``, after the board of player ``n``) has white ``a + j`` and black ``a - j``
(mod ``n - 1``), where ``a`` is the opponent of ``n``. This reproduces the published tables
board by board.
"""

from __future__ import annotations

Pairing = tuple[int, int | None]  # (white, black); black None means "white has the bye"


def _wrap(value: int, modulus: int) -> int:
    """Map ``value`` into 1..modulus."""
    return (value - 1) % modulus + 1


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """The pairings (white, black) of ``round_number`` in the Berger table for ``n`` (even) players."""
    if n < 2 or n % 2:
        raise ValueError("berger_round needs an even number of players >= 2")
    if not 1 <= round_number <= n - 1:
        raise ValueError(f"round must be within 1..{n - 1}")
    if n == 2:
        return [(1, 2)]
    m = n - 1
    # The opponent of n: 2a = r + 1 (mod m); m is odd so 2 is invertible (its inverse is (m+1)/2).
    a = _wrap((round_number + 1) * ((m + 1) // 2), m)
    board1 = (a, n) if round_number % 2 else (n, a)
    boards = [board1]
    for j in range(1, n // 2):
        boards.append((_wrap(a + j, m), _wrap(a - j, m)))
    return boards


def berger_table(n: int) -> list[list[Pairing]]:
    """All rounds for ``n`` players (any n >= 2). With an odd ``n`` the dummy ``n + 1`` becomes a
    bye: that board is returned as ``(player, None)``."""
    if n < 2:
        raise ValueError("a round robin needs at least two players")
    even = n + (n % 2)
    rounds: list[list[Pairing]] = []
    for r in range(1, even):
        row: list[Pairing] = []
        for white, black in berger_round(even, r):
            if black > n:
                row.append((white, None))
            elif white > n:
                row.append((black, None))
            else:
                row.append((white, black))
        rounds.append(row)
    return rounds


def round_robin_schedule(n: int, *, cycles: int = 1) -> list[list[Pairing]]:
    """The full schedule. With two cycles the last two rounds of the first cycle are swapped (as
    FIDE recommends) and the second cycle repeats the original table with colours reversed."""
    if cycles not in (1, 2):
        raise ValueError("cycles must be 1 or 2")
    table = berger_table(n)
    if cycles == 1:
        return table
    first = list(table)
    if len(first) >= 2:
        first[-1], first[-2] = first[-2], first[-1]
    second = [[(b, w) if b is not None else (w, None) for w, b in row] for row in table]
    return first + second
