"""Imported records are never rated: the results their Result headers state (``recorded``, a
loss on time...) move no rating and count in no leaderboard nor in the players' statistics, even
when the records name players of this server."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ratings.models import Rating, RatingChange
from tests.explorer.support import record, store
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_an_imported_result_moves_no_rating_and_counts_in_no_statistics():
    UserFactory(username="ann")
    UserFactory(username="bob")
    store(
        record("1. K10 L11 2. N13", Result="1-0", Rated="Y"),
        record("1. K10 L11 2. N13 L12", Result="0-1", Rated="Y", **{"End Reason": "timeout"}),
    )
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    client = APIClient()
    for category in ("speed", "normal", "turn", "untimed"):
        board = client.get("/api/leaderboards/", {"game": "Pente", "category": category})
        assert board.status_code == 200 and board.json()["results"] == []
    ann = client.get("/api/players/ann/").json()
    assert ann["games"]["total"] == 0 and ann["games"]["wins"] == 0
    assert client.get("/api/players/ann/stats").json()["totals"]["wins"] == 0
