"""The search's yes-or-no matching questions (``dutch/matchings.py``) and the padded criteria
vectors (``criteria.padded``) on their own: a perfect matching of an odd count is impossible,
and the greedy pass alone must reach a perfect matching of a large complete bracket, since its
repair step gives up beyond 64 players left over."""

from __future__ import annotations

from tests.tournaments.pairing.graphs import compatible_in
from tournaments.pairing.dutch.criteria import padded
from tournaments.pairing.dutch.matchings import pairs_everyone, quick_matching_reaches


def different(a: int, b: int) -> bool:
    return a != b


def test_an_odd_number_of_players_cannot_all_be_paired():
    assert not pairs_everyone([1, 2, 3], different)
    assert pairs_everyone([1, 2, 3, 4], different)


def test_the_greedy_pass_pairs_a_large_complete_bracket_by_itself():
    players = list(range(200))
    assert quick_matching_reaches(players, different, 100) is True
    assert quick_matching_reaches(players, different, 101) is False


def test_more_than_64_players_left_over_are_not_repaired_and_not_called_paired():
    def never(a: int, b: int) -> bool:
        return False

    assert quick_matching_reaches(list(range(100)), never, 1) is False


def test_a_player_left_over_is_repaired_through_a_pair_of_the_greedy_pass():
    # Greedy pairs 1-2 and leaves 3 and 4 apart; 3-1 and 2-4 pair everyone.
    adjacent = compatible_in({(1, 2), (1, 3), (2, 4)})

    assert quick_matching_reaches([1, 2, 3, 4], adjacent, 2) is True
    # With two more players adjacent to nobody, the same repair still makes only two pairs.
    assert quick_matching_reaches([1, 2, 3, 4, 5, 6], adjacent, 3) is False


def test_a_perfect_matching_the_quick_pass_misses_is_found_by_the_blossom():
    # Greedy pairs 1-2 and 3-4 and leaves 5 and 6 apart; only 1-5, 2-3, 4-6 pairs everyone.
    adjacent = compatible_in({(1, 2), (3, 4), (1, 5), (2, 3), (4, 6)})

    assert pairs_everyone([1, 2, 3, 4, 5, 6], adjacent)


def test_padded_sorts_descending_then_fills_to_the_length():
    assert padded([1, 3, 2], 5, 0) == (3, 2, 1, 0, 0)
    assert padded([4, 7], 2, -1) == (7, 4)
    assert padded([], 3, -1) == (-1, -1, -1)
