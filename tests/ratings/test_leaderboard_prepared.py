"""The leaderboard and rank reads run as prepared statements on PostgreSQL (parsing and planning
were most of the database's share of a request), with the same answers, still counted as
queries, and only when the settings allow it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.prepared import prepared_statements, reset_prepared_statements
from tests.ratings.factories import RatingFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

RATINGS_TABLE = 'FROM "ratings_rating" r'


def _answers(client: APIClient) -> list[dict]:
    first = client.get("/api/leaderboards/", {"game": "Pente", "page_size": 2}).json()
    second = client.get(first["next"]).json()
    active = client.get("/api/leaderboards/", {"game": "Pente", "active_days": 30}).json()
    names = [row["player"] for row in first["results"] + second["results"]]
    ranks = [
        client.get("/api/leaderboards/rank", {"game": "Pente", "player": name}).json()
        for name in names
    ]
    return [first, second, active, *ranks]


@pytest.fixture
def board():
    for value in (2000, 1900, 1900, 1800, 1500):
        RatingFactory(rating=value, results=30)


def test_pages_and_ranks_are_prepared_and_answer_as_unprepared_ones(board, settings):
    client = APIClient()
    settings.PREPARED_STATEMENTS = False
    reset_prepared_statements()
    unprepared = _answers(client)
    assert not [s for s in prepared_statements() if RATINGS_TABLE in s]

    settings.PREPARED_STATEMENTS = True
    prepared = _answers(client)
    statements = [s for s in prepared_statements() if RATINGS_TABLE in s]
    assert any("ORDER BY r.rating DESC, r.id LIMIT 3" in s for s in statements)  # pages
    assert any("r.rating < ($" in s or "r.rating < $" in s for s in statements)  # next page
    assert any("SUM(b.players)" in s for s in statements)  # ranks
    assert prepared == unprepared
    assert len(prepared[0]["results"]) == 2 and prepared[1]["results"][0]["rank"] == 2


def test_while_queries_are_logged_a_page_is_one_unprepared_query_with_its_values(
    board, django_assert_num_queries
):
    client = APIClient()
    reset_prepared_statements()
    with django_assert_num_queries(1) as captured:
        body = client.get("/api/leaderboards/", {"game": "Pente"}).json()
    assert "'Pente'" in captured.captured_queries[0]["sql"]
    assert not [s for s in prepared_statements() if RATINGS_TABLE in s]
    assert [row["rank"] for row in body["results"]] == [1, 2, 2, 4, 5]


def test_other_statements_stay_unprepared(board):
    client = APIClient()
    reset_prepared_statements()
    client.get("/api/leaderboards/", {"game": "Pente"})
    from ratings.models import Rating

    for _ in range(10):  # past psycopg's default threshold (5), had it been left on
        list(Rating.objects.filter(variant="Pente").values_list("id", flat=True))
    statements = prepared_statements()
    assert statements and all(RATINGS_TABLE in s for s in statements)
