"""Data migrations of the ratings app, run forwards on a real schema."""

from __future__ import annotations

import pytest

from tests.migrations import migrate_to

BEFORE = [("ratings", "0004_computer_ratings")]
AFTER = [("ratings", "0005_rating_listed")]


@pytest.mark.django_db(transaction=True)
def test_ratings_of_deactivated_accounts_leave_the_boards_and_their_buckets(
    at_latest_afterwards,
):
    old = migrate_to(BEFORE)
    User = old.get_model("games", "User")
    Rating, Bucket = old.get_model("ratings", "Rating"), old.get_model("ratings", "RatingBucket")
    active = User.objects.create(username="active", is_active=True)
    banned = User.objects.create(username="banned", is_active=False)
    for user, rating in ((active, 1604.0), (banned, 1607.5)):
        Rating.objects.create(user=user, variant="Pente", category="normal", rating=rating)
    bucket = {"variant": "Pente", "category": "normal", "established": False, "is_computer": False}
    Bucket.objects.create(**bucket, bucket=160, players=2)

    new = migrate_to(AFTER)
    Rating, Bucket = new.get_model("ratings", "Rating"), new.get_model("ratings", "RatingBucket")
    assert dict(Rating.objects.values_list("user__username", "listed")) == {
        "active": True,
        "banned": False,
    }
    assert Bucket.objects.get(**bucket, bucket=160).players == 1
