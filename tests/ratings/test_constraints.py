"""The database refuses rating rows that break the ratings app's invariants."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from ratings.models import RATING_CATEGORIES, Rating, RatingCategory, RatingChange
from tests.factories import UserFactory
from tests.ratings.factories import RatingFactory, finished_set_row

pytestmark = pytest.mark.django_db


def _refused(make) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def test_the_spelled_out_categories_are_the_choices():
    assert set(RATING_CATEGORIES) == set(RatingCategory.values)


def test_a_rating_in_the_untimed_category_is_refused():
    # Untimed sets count as "normal": there is no untimed rating.
    _refused(lambda: RatingFactory(category="untimed"))


def test_a_rating_with_more_wins_than_results_or_a_best_streak_below_the_streak_is_refused():
    _refused(lambda: RatingFactory(results=2, wins=3))
    _refused(lambda: RatingFactory(results=5, wins=5, streak=5, best_streak=4))
    assert RatingFactory(results=5, wins=5, streak=5, best_streak=5).pk


def _change(game_set, user, opponent, category="normal", **fields) -> RatingChange:
    rating = Rating.objects.filter(user=user, category=category).first() or RatingFactory(
        user=user, category=category
    )
    values = {
        "result": "win",
        "games_count": 2,
        "rating_before": 1600,
        "rating_after": 1616,
        "results_before": 0,
        "opponent_rating_before": 1600,
        "opponent_results_before": 0,
        "created_at": timezone.now(),
        **fields,
    }
    return RatingChange.objects.create(
        game_set=game_set, user=user, opponent=opponent, rating=rating, **values
    )


def test_rating_changes_refuse_an_unknown_result_a_bad_games_count_and_oneself():
    alice, bob = UserFactory(), UserFactory()
    game_set = finished_set_row(alice, bob, "player1")
    _refused(lambda: _change(game_set, alice, bob, result="won"))
    _refused(lambda: _change(game_set, alice, bob, games_count=3))
    _refused(lambda: _change(game_set, alice, alice))
    assert _change(game_set, alice, bob).pk


def test_a_second_change_for_the_same_set_and_player_is_refused():
    alice, bob = UserFactory(), UserFactory()
    game_set = finished_set_row(alice, bob, "player1")
    _change(game_set, alice, bob)
    _refused(lambda: _change(game_set, alice, bob, category="speed"))
