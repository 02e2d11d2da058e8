"""The pure Elo rules: formulas, the issue's example figures, provisional and established players,
draws, the direction guard, K scaling and one-game sets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.elo import (
    START_RATING,
    EloError,
    Outcome,
    Standing,
    expected_score,
    k_factor,
    rate,
    rate_set,
    rating_class,
)

EST = 20  # results of an established player


def test_expected_score_is_half_between_equals_and_sums_to_one():
    assert expected_score(1600, 1600) == pytest.approx(0.5)
    assert expected_score(1700, 1500) + expected_score(1500, 1700) == pytest.approx(1.0)
    assert expected_score(2000, 1600) == pytest.approx(1 / (1 + 10 ** (-1)))


def test_two_established_1600_players_win_gives_1632_and_1568():
    new1, new2 = rate_set(Standing(1600, EST), Standing(1600, EST), Outcome.WIN, games_count=2)
    assert new1 == pytest.approx(1632)
    assert new2 == pytest.approx(1568)


def test_established_1700_beats_1500_gives_1715_38_and_1484_62():
    new1, new2 = rate_set(Standing(1700, 30), Standing(1500, 25), Outcome.WIN, games_count=2)
    assert round(new1, 2) == 1715.38
    assert round(new2, 2) == 1484.62


def test_newcomer_beating_established_1600_goes_to_2000_and_opponent_stays():
    newcomer, veteran = Standing(START_RATING, 0), Standing(1600, 50)
    new_newcomer, new_veteran = rate_set(newcomer, veteran, Outcome.WIN, games_count=2)
    assert new_newcomer == pytest.approx(2000)
    assert new_veteran == 1600  # K scaled by 0/20


def test_one_game_set_uses_k_32():
    new1, new2 = rate_set(Standing(1600, EST), Standing(1600, EST), Outcome.WIN, games_count=1)
    assert new1 == pytest.approx(1616)
    assert new2 == pytest.approx(1584)


def test_k_is_scaled_by_provisional_opponents_result_count():
    assert k_factor(games_count=2, opponent_results=10) == pytest.approx(32)
    assert k_factor(games_count=1, opponent_results=5) == pytest.approx(8)
    assert k_factor(games_count=2, opponent_results=19) == pytest.approx(64 * 19 / 20)
    assert k_factor(games_count=2, opponent_results=20) == 64
    assert k_factor(games_count=2, opponent_results=500) == 64
    # Established 1600 beats a provisional 1600 with 10 results: K = 32 -> +16.
    assert rate(Standing(1600, EST), Standing(1600, 10), Outcome.WIN, games_count=2) == (
        pytest.approx(1616)
    )


def test_provisional_average_uses_result_count_and_single_bonus_against_provisional():
    # n = 4, opponent provisional: value = (1500 + 1700) / 2 + 200 = 1800; (1500*4 + 1800) / 5.
    after = rate(Standing(1500, 4), Standing(1700, 3), Outcome.WIN, games_count=2)
    assert after == pytest.approx(1560)
    # Loss: value = 1600 - 200 = 1400; (1500*4 + 1400) / 5 = 1480.
    after = rate(Standing(1500, 4), Standing(1700, 3), Outcome.LOSS, games_count=2)
    assert after == pytest.approx(1480)


def test_provisional_bonus_doubles_against_established_opponent():
    # value = (1600 + 1600)/2 - 400 = 1200; n = 1: (1600 + 1200) / 2 = 1400.
    after = rate(Standing(1600, 1), Standing(1600, EST), Outcome.LOSS, games_count=2)
    assert after == pytest.approx(1400)


def test_provisional_one_game_set_is_not_scaled():
    two = rate(Standing(1600, 3), Standing(1600, 3), Outcome.WIN, games_count=2)
    one = rate(Standing(1600, 3), Standing(1600, 3), Outcome.WIN, games_count=1)
    assert one == two == pytest.approx((1600 * 3 + 1800) / 4)


def test_nineteen_results_is_still_provisional_and_twenty_is_established():
    assert not Standing(1600, 19).established
    assert Standing(1600, 20).established


def test_direction_guard_keeps_a_provisional_winners_rating_instead_of_lowering_it():
    # value = (2000 + 1000)/2 + 200 = 1700 < 2000: a win would lower the rating, so it stays.
    assert rate(Standing(2000, 5), Standing(1000, 5), Outcome.WIN, games_count=2) == 2000


def test_direction_guard_keeps_a_provisional_losers_rating_instead_of_raising_it():
    # value = (1000 + 2000)/2 - 200 = 1300 > 1000: a loss would raise the rating, so it stays.
    assert rate(Standing(1000, 5), Standing(2000, 5), Outcome.LOSS, games_count=2) == 1000


def test_established_draw_moves_both_toward_each_other():
    new1, new2 = rate_set(Standing(1700, EST), Standing(1500, EST), Outcome.DRAW, games_count=2)
    e = expected_score(1700, 1500)
    assert new1 == pytest.approx(1700 + 64 * (0.5 - e))
    assert new2 == pytest.approx(1500 + 64 * (0.5 - (1 - e)))
    assert new1 < 1700 and new2 > 1500


def test_draw_between_equals_changes_nothing():
    assert rate_set(Standing(1600, EST), Standing(1600, EST), Outcome.DRAW, games_count=2) == (
        1600,
        1600,
    )
    assert rate_set(Standing(1600, 2), Standing(1600, 7), Outcome.DRAW, games_count=2) == (
        1600,
        1600,
    )


def test_provisional_draw_that_would_move_away_from_opponent_is_ignored():
    # Player 1400 (n=1) draws a provisional 1500: value 1450, new (1400 + 1450)/2 = 1425 (toward).
    assert rate(Standing(1400, 1), Standing(1500, 3), Outcome.DRAW, games_count=2) == (
        pytest.approx(1425)
    )
    # Player 1400 with n=0 draws 1500: value 1450 -> 1450 (toward, kept).
    assert rate(Standing(1400, 0), Standing(1500, 3), Outcome.DRAW, games_count=2) == (
        pytest.approx(1450)
    )


def test_both_updates_use_ratings_from_before_the_set():
    p1, p2 = Standing(1650, 3), Standing(1550, 40)
    new1, new2 = rate_set(p1, p2, Outcome.LOSS, games_count=2)
    assert new1 == rate(p1, p2, Outcome.LOSS, games_count=2)
    assert new2 == rate(p2, p1, Outcome.WIN, games_count=2)


def test_bad_inputs_raise_elo_error():
    with pytest.raises(EloError):
        Standing(1600, -1)
    with pytest.raises(EloError):
        rate(Standing(), Standing(), Outcome.WIN, games_count=3)
    with pytest.raises(EloError):
        k_factor(games_count=0, opponent_results=20)


@pytest.mark.parametrize(
    ("rating", "label", "colour"),
    [
        (2200, "1900+", "red"),
        (1900, "1900+", "red"),
        (1899.99, "1700+", "yellow"),
        (1700, "1700+", "yellow"),
        (1400, "1400+", "blue"),
        (1000, "1000+", "green"),
        (999.5, "below 1000", "grey"),
    ],
)
def test_rating_class_boundaries(rating, label, colour):
    assert rating_class(rating) == (label, colour)


ratings = st.floats(min_value=100, max_value=3500, allow_nan=False)
counts = st.integers(min_value=0, max_value=200)
outcomes = st.sampled_from(list(Outcome))


@given(ratings, counts, ratings, counts, outcomes, st.sampled_from([1, 2]))
def test_every_change_goes_the_way_of_the_result(r1, n1, r2, n2, outcome, games):
    after = rate(Standing(r1, n1), Standing(r2, n2), outcome, games_count=games)
    if outcome is Outcome.WIN:
        assert after >= r1
    elif outcome is Outcome.LOSS:
        assert after <= r1
    elif r1 <= r2:
        assert after >= r1
    else:
        assert after <= r1


@given(ratings, ratings, outcomes, st.sampled_from([1, 2]))
def test_established_pair_conserves_rating_points(r1, r2, outcome, games):
    new1, new2 = rate_set(Standing(r1, EST), Standing(r2, EST), outcome, games_count=games)
    assert new1 + new2 == pytest.approx(r1 + r2)
