"""Round robin: the Berger tables equal FIDE's (C.05 Annex 1) and any n works."""

from __future__ import annotations

import itertools

import pytest

from tournaments.pairing.berger import berger_table, round_robin_schedule

FIDE = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}


def _parse(row: str) -> list[tuple[int, int]]:
    return [tuple(int(x) for x in board.split("-")) for board in row.split()]


@pytest.mark.parametrize("n", [4, 6, 8])
def test_berger_table_equals_fides_board_by_board(n):
    assert berger_table(n) == [_parse(row) for row in FIDE[n]]


@pytest.mark.parametrize("n", [3, 5, 7])
def test_odd_count_gives_the_bye_to_the_opponent_of_the_dummy(n):
    table = berger_table(n)
    for row, fide in zip(table, FIDE[n + 1], strict=True):
        expected = []
        for w, b in _parse(fide):
            if b == n + 1:
                expected.append((w, None))
            elif w == n + 1:
                expected.append((b, None))
            else:
                expected.append((w, b))
        assert row == expected


@pytest.mark.parametrize("n", range(2, 34))
def test_everyone_meets_everyone_exactly_once(n):
    table = berger_table(n)
    met = [frozenset((w, b)) for row in table for w, b in row if b is not None]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(range(1, n + 1), 2)), key=sorted
    )
    for row in table:
        players = [p for w, b in row for p in (w, b) if p is not None]
        assert len(players) == len(set(players)) == n
    byes = [w for row in table for w, b in row if b is None]
    assert sorted(byes) == (list(range(1, n + 1)) if n % 2 else [])


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_double_round_robin_reverses_colours_and_avoids_three_in_a_row_at_the_seam(n):
    schedule = round_robin_schedule(n, cycles=2)
    assert len(schedule) == 2 * (n - 1)
    first = {frozenset(p): p for row in schedule[: n - 1] for p in row}
    for row in schedule[n - 1 :]:
        for w, b in row:
            assert first[frozenset((w, b))] == (b, w)
    seam = schedule[n - 4 : n + 1] if n >= 4 else schedule
    for player in range(1, n + 1):
        colours = []
        for row in seam:
            for w, b in row:
                if player in (w, b):
                    colours.append("w" if player == w else "b")
        runs = ["".join(colours[i : i + 3]) for i in range(len(colours) - 2)]
        assert "www" not in runs and "bbb" not in runs, (player, colours)
