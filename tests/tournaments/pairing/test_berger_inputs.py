"""Round robin at its edges: the inputs the Berger tables refuse, with the reason given, two
players, and the second cycle of an odd field, whose byes stay byes."""

from __future__ import annotations

import pytest

from tournaments.pairing.berger import berger_round, berger_table, round_robin_schedule


@pytest.mark.parametrize("n", [0, 1, 3, 7])
def test_a_berger_round_needs_an_even_field_of_two_or_more(n):
    with pytest.raises(ValueError, match=r"^berger_round needs an even number of players >= 2$"):
        berger_round(n, 1)


@pytest.mark.parametrize(("n", "round_number"), [(4, 0), (4, 4), (8, 8), (2, 2)])
def test_a_berger_round_is_within_the_table(n, round_number):
    with pytest.raises(ValueError, match=rf"^round must be within 1\.\.{n - 1}$"):
        berger_round(n, round_number)


def test_the_first_and_last_rounds_are_in_the_table():
    assert berger_round(4, 1) == [(1, 4), (2, 3)]
    assert berger_round(4, 3) == [(2, 4), (3, 1)]
    assert berger_round(2, 1) == [(1, 2)]


@pytest.mark.parametrize("n", [-1, 0, 1])
def test_a_round_robin_needs_two_players(n):
    with pytest.raises(ValueError, match=r"^a round robin needs at least two players$"):
        berger_table(n)


def test_two_players_meet_once_and_twice_with_colours_reversed():
    assert berger_table(2) == [[(1, 2)]]
    assert round_robin_schedule(2) == [[(1, 2)]]
    assert round_robin_schedule(2, cycles=2) == [[(1, 2)], [(2, 1)]]


@pytest.mark.parametrize("cycles", [0, 3])
def test_a_round_robin_has_one_or_two_cycles(cycles):
    with pytest.raises(ValueError, match=r"^cycles must be 1 or 2$"):
        round_robin_schedule(4, cycles=cycles)


def test_one_cycle_is_the_berger_table_itself():
    assert round_robin_schedule(5) == berger_table(5)
    assert round_robin_schedule(5, cycles=1) == berger_table(5)


def test_the_second_cycle_of_an_odd_field_keeps_each_bye_a_bye():
    assert berger_table(3) == [[(1, None), (2, 3)], [(3, None), (1, 2)], [(2, None), (3, 1)]]
    assert round_robin_schedule(3, cycles=2) == [
        [(1, None), (2, 3)],
        [(2, None), (3, 1)],
        [(3, None), (1, 2)],
        [(1, None), (3, 2)],
        [(3, None), (2, 1)],
        [(2, None), (1, 3)],
    ]


@pytest.mark.parametrize("n", [4, 5, 10])
def test_player_numbers_are_integers_not_equal_floats(n):
    # (3.0, 4) == (3, 4): a float sneaking into the table would pass every equality test.
    for row in berger_table(n):
        for white, black in row:
            assert type(white) is int
            assert black is None or type(black) is int
