"""Ratings API: leaderboards (filters, ranks, keyset pages), a player's rank, ratings, history
(JSON and SVG), statistics, and the player page block."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from ratings.services import rating_apply_set
from tests.factories import UserFactory
from tests.ratings.factories import CrownFactory, RatingFactory, finished_set_row

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return APIClient()


def _board(client, **params):
    params.setdefault("game", "Pente")
    response = client.get("/api/leaderboards/", params)
    assert response.status_code == 200, response.json()
    return response.json()


def test_leaderboard_lists_established_humans_best_first_with_ranks(client):
    top = RatingFactory(rating=2100, results=40, wins=30, losses=8, draws=2)
    second = RatingFactory(rating=1900, results=20)
    RatingFactory(rating=2500, results=19)  # provisional
    RatingFactory(rating=2400, results=50, is_computer=True)
    RatingFactory(rating=2300, results=50, category="speed")
    RatingFactory(rating=2300, results=50, variant="Keryo-Pente")
    body = _board(client, category="normal")
    assert body["game"] == "Pente" and body["category"] == "normal"
    rows = body["results"]
    assert [r["player"] for r in rows] == [top.user.username, second.user.username]
    assert rows[0] == {
        "rank": 1,
        "player": top.user.username,
        "rating": 2100.0,
        "results": 40,
        "wins": 30,
        "losses": 8,
        "draws": 2,
        "established": True,
        "rating_class": "1900+",
        "last_played_at": rows[0]["last_played_at"],
    }
    assert rows[1]["rank"] == 2
    assert body["next"] is None


def test_leaderboard_writes_last_played_at_like_drf_does(client):
    from rest_framework.fields import DateTimeField

    played = timezone.now().replace(microsecond=0) - timedelta(days=3)
    RatingFactory(rating=1900, results=30, last_played_at=played)
    RatingFactory(rating=1800, results=30, last_played_at=played.replace(microsecond=1234))
    RatingFactory(rating=1700, results=30, last_played_at=None)
    rows = _board(client)["results"]
    expected = [
        DateTimeField().to_representation(played),
        DateTimeField().to_representation(played.replace(microsecond=1234)),
        None,
    ]
    assert [r["last_played_at"] for r in rows] == expected
    assert expected[0].endswith("Z") and "." not in expected[0]


def test_leaderboard_can_include_provisional_and_computer_players(client):
    RatingFactory(rating=2100, results=40)
    provisional = RatingFactory(rating=2500, results=3)
    robot = RatingFactory(rating=2200, results=40, is_computer=True)
    names = [r["player"] for r in _board(client, provisional="true")["results"]]
    assert names[0] == provisional.user.username and robot.user.username not in names
    names = [r["player"] for r in _board(client, computers="1")["results"]]
    assert names[0] == robot.user.username and provisional.user.username not in names


def test_leaderboard_active_days_filter_drops_players_without_recent_results(client):
    recent = RatingFactory(rating=1700, results=30)
    RatingFactory(rating=1800, results=30, last_played_at=timezone.now() - timedelta(days=40))
    rows = _board(client, active_days=30)["results"]
    assert [r["player"] for r in rows] == [recent.user.username]


def test_leaderboard_keyset_pages_cover_everyone_once_and_ties_share_a_rank(client):
    ratings = [2000, 1900, 1900, 1900, 1800, 1700, 1700, 1600]
    for value in ratings:
        RatingFactory(rating=value, results=25)
    seen, ranks = [], []
    body = _board(client, page_size=3)
    while True:
        seen += [r["player"] for r in body["results"]]
        ranks += [r["rank"] for r in body["results"]]
        if not body["next"]:
            break
        response = client.get(body["next"])
        assert response.status_code == 200
        body = response.json()
    assert len(seen) == len(set(seen)) == len(ratings)
    assert ranks == [1, 2, 2, 2, 5, 6, 6, 8]


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({}, "missing_parameter"),
        ({"game": "Chess"}, "unknown_game"),
        ({"game": "Pente", "category": "blitz"}, "bad_category"),
        ({"game": "Pente", "provisional": "maybe"}, "bad_parameter"),
        ({"game": "Pente", "page_size": "0"}, "bad_parameter"),
        ({"game": "Pente", "active_days": "x"}, "bad_parameter"),
        ({"game": "Pente", "cursor": "not-a-cursor"}, "bad_cursor"),
        ({"game": "Pente", "page": "2"}, "unknown_parameter"),  # keyset pages: follow next
        ({"game": "Pente", "position": "K10"}, "unknown_parameter"),
    ],
)
def test_leaderboard_rejects_bad_parameters_with_a_code(client, params, code):
    response = client.get("/api/leaderboards/", params)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["detail"]


def test_leaderboard_accepts_a_game_slug(client):
    RatingFactory(variant="Keryo-Pente", rating=1700, results=20)
    assert _board(client, game="keryo-pente")["game"] == "Keryo-Pente"
    assert len(_board(client, game="keryo-pente")["results"]) == 1


def test_rank_counts_players_rated_higher_under_the_same_filters(client):
    RatingFactory(rating=2000, results=30)
    RatingFactory(rating=1950, results=30)
    RatingFactory(rating=1990, results=5)  # provisional: not counted by default
    me = RatingFactory(rating=1900, results=30)
    RatingFactory(rating=1800, results=30)
    params = {"game": "Pente", "category": "normal", "player": me.user.username}
    response = client.get("/api/leaderboards/rank", params)
    assert response.status_code == 200
    assert response.json() == {
        "player": me.user.username,
        "game": "Pente",
        "category": "normal",
        "rank": 3,
        "rating": 1900.0,
        "results": 30,
        "established": True,
    }
    response = client.get("/api/leaderboards/rank", {**params, "provisional": "1"})
    assert response.json()["rank"] == 4


def test_rank_finds_a_player_under_another_spelling_and_answers_with_the_real_name(client):
    me = RatingFactory(rating=1900, results=30, user__username="MixedCase")
    RatingFactory(rating=2000, results=30)
    params = {"game": "Pente", "category": "normal", "player": "mixedcase"}
    response = client.get("/api/leaderboards/rank", params)
    assert response.status_code == 200
    assert response.json()["player"] == me.user.username == "MixedCase"
    assert response.json()["rank"] == 2


def test_rank_with_an_activity_filter_counts_only_recent_players(client):
    RatingFactory(rating=2000, results=30, last_played_at=timezone.now() - timedelta(days=60))
    RatingFactory(rating=1950, results=30)
    me = RatingFactory(rating=1900, results=30)
    params = {"game": "Pente", "player": me.user.username, "active_days": "30"}
    assert client.get("/api/leaderboards/rank", params).json()["rank"] == 2
    stale = RatingFactory(rating=1800, results=30, last_played_at=None)
    params["player"] = stale.user.username
    response = client.get("/api/leaderboards/rank", params)
    assert response.status_code == 404 and response.json()["code"] == "not_ranked"


def test_rank_of_me_needs_login_and_uses_the_logged_in_player(client):
    me = RatingFactory(rating=1700, results=20)
    params = {"game": "Pente", "player": "me"}
    response = client.get("/api/leaderboards/rank", params)
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    client.force_authenticate(me.user)
    response = client.get("/api/leaderboards/rank", params)
    assert response.status_code == 200 and response.json()["rank"] == 1


def test_rank_explains_unrated_unranked_and_unknown_players(client):
    provisional = RatingFactory(rating=1700, results=2)
    nobody = UserFactory()
    base = {"game": "Pente", "category": "normal"}
    response = client.get("/api/leaderboards/rank", {**base, "player": provisional.user.username})
    assert response.status_code == 404 and response.json()["code"] == "not_ranked"
    assert response.json()["results"] == 2
    response = client.get("/api/leaderboards/rank", {**base, "player": nobody.username})
    assert response.status_code == 404 and response.json()["code"] == "not_rated"
    response = client.get("/api/leaderboards/rank", {**base, "player": "ghost"})
    assert response.status_code == 404 and response.json()["code"] == "unknown_player"
    response = client.get("/api/leaderboards/rank", base)
    assert response.status_code == 400 and response.json()["code"] == "missing_parameter"


def _play(alice, bob, results, **fields):
    for result in results:
        rating_apply_set(game_set=finished_set_row(alice, bob, result, **fields))


def test_player_ratings_lists_each_game_and_category_paginated(client):
    alice, bob = UserFactory(), UserFactory()
    _play(alice, bob, ["player1", "player1"])
    _play(alice, bob, ["player2"], category="speed")
    response = client.get(f"/api/players/{alice.username}/ratings/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    normal = next(r for r in body["results"] if r["category"] == "normal")
    assert normal["game"] == "Pente" and normal["wins"] == 2 and normal["results"] == 2
    assert normal["current_streak"] == 2 and normal["established"] is False
    response = client.get("/api/players/ghost/ratings/")
    assert response.status_code == 404 and response.json()["code"] == "unknown_player"


def test_rating_history_lists_every_change_oldest_first(client):
    alice, bob = UserFactory(), UserFactory()
    _play(alice, bob, ["player1", "player2", "draw"], category="speed")
    _play(alice, bob, ["player1"])  # another rating: not in the speed history
    response = client.get(
        f"/api/players/{alice.username}/ratings/history", {"game": "Pente", "category": "speed"}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3
    rows = body["results"]
    assert [r["result"] for r in rows] == ["win", "loss", "draw"]
    assert rows[0]["rating_before"] == 1600 and rows[0]["rating_after"] == 1800
    assert rows[0]["change"] == 200 and rows[0]["opponent"] == bob.username
    assert rows[1]["rating_before"] == rows[0]["rating_after"]


def test_rating_history_needs_a_game(client):
    alice = UserFactory()
    response = client.get(f"/api/players/{alice.username}/ratings/history")
    assert response.status_code == 400 and response.json()["code"] == "missing_parameter"


def test_rating_history_svg_draws_one_point_per_result_plus_the_start(client):
    alice, bob = UserFactory(), UserFactory()
    _play(alice, bob, ["player1", "player2", "player1"])
    response = client.get(
        f"/api/players/{alice.username}/ratings/history.svg",
        {"game": "Pente", "category": "normal"},
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    points = svg.split('points="')[1].split('"')[0].split()
    assert len(points) == 4
    assert alice.username in svg


def test_rating_history_svg_without_results_says_so_and_errors_are_json(client):
    alice = UserFactory()
    response = client.get(f"/api/players/{alice.username}/ratings/history.svg", {"game": "Pente"})
    assert response.status_code == 200 and b"No rated results" in response.content
    response = client.get("/api/players/ghost/ratings/history.svg", {"game": "Pente"})
    assert response.status_code == 404 and response.json()["code"] == "unknown_player"


def test_player_stats_show_results_streaks_classes_and_crowns(client):
    alice, bob = UserFactory(), UserFactory()
    _play(alice, bob, ["player1", "player1", "player2", "draw"])
    _play(alice, bob, ["player1"], category="speed")
    CrownFactory(user=alice, tournament_name="Spring Open", tournament_id=12)
    response = client.get(f"/api/players/{alice.username}/stats/")
    assert response.status_code == 200
    body = response.json()
    assert body["player"] == alice.username
    assert body["totals"] == {"sets": 5, "wins": 3, "losses": 1, "draws": 1, "best_streak": 2}
    normal = next(r for r in body["ratings"] if r["category"] == "normal")
    assert (normal["wins"], normal["losses"], normal["draws"]) == (2, 1, 1)
    assert (normal["current_streak"], normal["best_streak"]) == (0, 2)
    assert normal["rating_class"] in {"1900+", "1700+", "1400+", "1000+", "below 1000"}
    assert body["crowns"][0]["tournament_name"] == "Spring Open"
    assert body["crowns"][0]["tournament_id"] == 12


def test_player_page_includes_the_ratings_block(client):
    alice, bob = UserFactory(), UserFactory()
    _play(alice, bob, ["player1"])
    response = client.get(f"/api/players/{alice.username}")
    assert response.status_code == 200
    body = response.json()
    assert body["ratings"][0]["game"] == "Pente" and body["ratings"][0]["rating"] == 1800.0
    assert body["crowns"] == 0
