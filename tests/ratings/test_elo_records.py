"""The pure Elo bookkeeping around the formulas: rating categories, a result's opposite, the
record a set leaves (results, wins, losses, draws, streaks) and the leaderboard's rating
buckets, exact at their edges. Written to kill the mutants ``bench/mutation.py`` found alive."""

from __future__ import annotations

import math

import pytest

from ratings.elo import (
    START_RATING,
    EloError,
    Outcome,
    Record,
    Standing,
    bucket_of,
    k_factor,
    rate,
    rate_set,
    rating_category,
    rating_class,
    record_set,
)


@pytest.mark.parametrize(
    ("category", "counted_as"),
    [("speed", "speed"), ("normal", "normal"), ("untimed", "normal"), ("turn", "turn")],
)
def test_untimed_sets_count_for_the_normal_rating(category, counted_as):
    assert rating_category(category) == counted_as


def test_an_unknown_category_has_no_rating():
    with pytest.raises(KeyError):
        rating_category("blitz")


@pytest.mark.parametrize(
    ("outcome", "opposite"),
    [(Outcome.WIN, Outcome.LOSS), (Outcome.LOSS, Outcome.WIN), (Outcome.DRAW, Outcome.DRAW)],
)
def test_the_opponents_result_is_the_opposite(outcome, opposite):
    assert outcome.opposite is opposite


def test_a_new_standing_is_1600_with_no_results_and_zero_results_is_allowed():
    assert Standing() == Standing(START_RATING, 0)
    assert START_RATING == 1600.0
    assert not Standing().established
    with pytest.raises(EloError, match="negative"):
        Standing(1600, -1)


def test_a_new_record_is_1600_with_nothing_counted():
    assert Record() == Record(1600.0, 0, 0, 0, 0, 0, 0)
    assert Record(1700.0, 7).standing == Standing(1700.0, 7)


#: Records as (rating, results, wins, losses, draws, streak, best_streak): before, the new
#: rating and the outcome, after.
RESULTS = [
    ((1600.0, 5, 3, 1, 1, 2, 2), 1612.5, Outcome.WIN, (1612.5, 6, 4, 1, 1, 3, 3)),
    ((1600.0, 5, 4, 0, 1, 4, 4), 1590.0, Outcome.LOSS, (1590.0, 6, 4, 1, 1, 0, 4)),
    ((1600.0, 2, 1, 1, 0, 1, 5), 1601.0, Outcome.DRAW, (1601.0, 3, 1, 1, 1, 0, 5)),
]


@pytest.mark.parametrize(
    ("before", "rating", "outcome", "after"),
    RESULTS,
    ids=[
        "a win counts a result, a win and lengthens the streak",
        "a loss ends the streak and keeps the best one",
        "a draw ends the streak and counts a draw",
    ],
)
def test_a_result_takes_the_new_rating_and_counts_itself_and_the_streak(
    before, rating, outcome, after
):
    assert Record(*before).after(rating, outcome) == Record(*after)


def test_a_win_below_the_best_streak_leaves_the_best_streak():
    record = Record(results=9, wins=2, streak=1, best_streak=6)
    assert record.after(1600.0, Outcome.WIN).best_streak == 6
    assert record.after(1600.0, Outcome.WIN).streak == 2


@pytest.mark.parametrize("games_count", [1, 2])
def test_record_set_rates_both_and_counts_each_sides_result(games_count):
    winner = Record(rating=1700.0, results=30, wins=10, losses=20, streak=0, best_streak=3)
    loser = Record(rating=1500.0, results=25, wins=5, losses=19, draws=1, streak=2, best_streak=2)
    new1, new2 = record_set(winner, loser, Outcome.WIN, games_count=games_count)
    rating1, rating2 = rate_set(
        winner.standing, loser.standing, Outcome.WIN, games_count=games_count
    )
    assert new1 == Record(rating1, 31, 11, 20, 0, 1, 3)
    assert new2 == Record(rating2, 26, 5, 20, 1, 0, 2)
    assert rating1 > 1700.0 > 1500.0 > rating2


@pytest.mark.parametrize(
    ("rating", "width", "bucket"),
    [
        (1600.0, 100, 16),
        (1599.99, 100, 15),
        (1699.99, 100, 16),
        (0.0, 50, 0),
        (-0.5, 50, -1),
        (-50.0, 50, -1),
        (-50.01, 50, -2),
    ],
)
def test_a_bucket_holds_its_lower_edge_and_not_its_upper(rating, width, bucket):
    assert bucket_of(rating, width) == bucket


def test_a_bucket_is_exact_where_float_division_rounds_up_or_down():
    # floor(-5e-324 / 50) is 0: the division underflows, the bucket below is right.
    assert math.floor(-5e-324 / 50) == 0
    assert bucket_of(-5e-324, 50) == -1
    # floor(1.7 / 0.1) is 17 but 17 * 0.1 > 1.7; floor(4.3 / 0.1) is 42 but 43 * 0.1 == 4.3.
    assert math.floor(1.7 / 0.1) == 17 and 1.7 < 17 * 0.1
    assert bucket_of(1.7, 0.1) == 16
    assert math.floor(4.3 / 0.1) == 42 and 4.3 >= 43 * 0.1
    assert bucket_of(4.3, 0.1) == 43


def test_a_nan_rating_has_no_class_and_says_so():
    # Every real rating falls in a class (the last has no floor); NaN compares false with all.
    with pytest.raises(AssertionError, match=r"^unreachable: the last class has no floor$"):
        rating_class(float("nan"))


@pytest.mark.parametrize(
    ("rating", "results"),
    # (r * n + r) / (n + 1) is r plus one rounding step up, and minus one down: a draw between
    # equals must not let float rounding move a provisional rating either way.
    [(1495.31, 11), (1950.21, 5)],
)
def test_a_provisional_draw_between_equals_leaves_the_rating_exactly(rating, results):
    assert (rating * results + rating) / (results + 1) != rating
    new1, new2 = rate_set(
        Standing(rating, results), Standing(rating, 30), Outcome.DRAW, games_count=2
    )
    assert new1 == rating
    assert new2 == rating


@pytest.mark.parametrize("games_count", [0, 3])
def test_a_bad_set_size_says_what_a_set_is(games_count):
    message = rf"^a set has 1 or 2 games, not {games_count}$"
    with pytest.raises(EloError, match=message):
        k_factor(games_count=games_count, opponent_results=20)
    with pytest.raises(EloError, match=message):
        rate(Standing(), Standing(), Outcome.WIN, games_count=games_count)
    with pytest.raises(EloError, match=message):
        rate(Standing(1600, 20), Standing(), Outcome.WIN, games_count=games_count)


def test_a_bucket_is_found_at_once_for_extreme_ratings():
    # The division lands on the bucket or next to it; the loops only correct its rounding, so
    # no rating, however far out, walks bucket by bucket.
    assert bucket_of(1e15, 100) == 10**13
    assert bucket_of(-1e15, 100) == -(10**13)
