"""How many rounds a Swiss has: the default for its size (4 below 16 players, 5 below 32, 6
below 64, else 7) and the most it can always pair without a rematch (half the field). The
services choose them from these; the whole-tournament tests never reach the edges."""

from __future__ import annotations

import pytest

from tournaments.pairing.dutch import default_rounds, max_rounds


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(2, 4), (15, 4), (16, 5), (31, 5), (32, 6), (63, 6), (64, 7), (500, 7)],
)
def test_the_default_number_of_rounds_steps_up_at_16_32_and_64_players(players, rounds):
    assert default_rounds(players) == rounds


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 1), (7, 3), (9, 4), (40, 20)])
def test_the_most_rounds_is_half_the_field(players, rounds):
    assert max_rounds(players) == rounds


def test_a_field_of_one_still_has_one_round():
    assert max_rounds(1) == 1
    assert max_rounds(0) == 1
