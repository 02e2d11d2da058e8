"""The computer opponents' own ratings: every finished game against one moves the computer's
rating (Elo, one game), never the human's; exactly once; shown on a leaderboard of their own."""

from __future__ import annotations

import pytest
from django.urls import include, path
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import Outcome, Termination
from games.play.actions import game_resign
from games.play.finish import game_cancel_finish, game_finish
from ratings.models import ComputerRating, ComputerRatingChange, Rating, RatingChange
from ratings.services import computer_rating_apply
from tests.factories import UserFactory, computer, make_game
from tests.ratings.factories import RatingFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]
urlpatterns = [path("api/", include("ratings.urls"))]


def computer_rating(user, variant: str = "Pente", category: str = "normal") -> ComputerRating:
    return ComputerRating.objects.get(user=user, variant=variant, category=category)


def test_a_win_against_a_new_player_moves_only_the_computers_rating():
    human, bot = UserFactory(), computer(3)
    game = make_game(players=[human, bot])
    game_resign(game_id=game.pk, user=human)
    row = computer_rating(bot)
    # Both provisional at 1600: the winner's value is 1600 + 200.
    assert (row.rating, row.results, row.wins, row.losses) == (pytest.approx(1800), 1, 1, 0)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    change = ComputerRatingChange.objects.get(game=game)
    assert (change.user, change.opponent, change.result) == (bot, human, "win")
    assert (change.rating_before, change.opponent_rating_before) == (1600, 1600)


def test_the_humans_established_rating_is_the_opponents_and_stays_as_it_is():
    human, bot = UserFactory(), computer(5)
    RatingFactory(user=human, rating=2000.0, results=30)
    game = make_game(players=[bot, human])
    game_resign(game_id=game.pk, user=bot)
    # Provisional computer losing to an established player: (1600 + 2000) / 2 - 400.
    assert computer_rating(bot).rating == pytest.approx(1400)
    human_row = Rating.objects.get(user=human)
    assert (human_row.rating, human_row.results) == (2000.0, 30)


def test_a_game_is_applied_once():
    human, bot = UserFactory(), computer(3)
    game = make_game(players=[human, bot])
    game_resign(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert computer_rating_apply(game=game) == 0
    assert computer_rating(bot).results == 1
    assert ComputerRatingChange.objects.count() == 1


def test_two_computers_rate_each_other():
    low, high = computer(1), computer(8)
    game = make_game(players=[low, high], variant="Gomoku")
    game_finish(game=game, outcome=Outcome(Termination.FIVE, (2,)))
    assert computer_rating(high, "Gomoku").rating == pytest.approx(1800)
    assert computer_rating(low, "Gomoku").rating == pytest.approx(1400)


def test_a_draw_counts_as_a_draw():
    human, bot = UserFactory(), computer(2)
    game = make_game(players=[human, bot])
    game_finish(game=game, outcome=Outcome(Termination.DRAW, ()))
    assert computer_rating(bot).draws == 1


@pytest.mark.parametrize("how", ["cancelled", "forfeited unplayed", "between humans"])
def test_a_game_that_does_not_count_moves_no_rating(how):
    human, bot = UserFactory(), computer(3)
    players = [human, UserFactory()] if how == "between humans" else [human, bot]
    game = make_game(players=players)
    if how == "cancelled":
        game_cancel_finish(game=game, now=timezone.now())
    else:
        game_finish(game=game, outcome=Outcome(Termination.FORFEIT, (1,)))
    assert not ComputerRating.objects.exists() and not ComputerRatingChange.objects.exists()


def test_the_computers_leaderboard_lists_them_best_first_and_nobody_else():
    human = UserFactory()
    UserFactory(username="robot", is_computer=True)  # a player's own computer account
    bots = {level: computer(level) for level in (2, 5, 7)}
    for level, human_wins in ((2, True), (5, False), (7, False)):
        game = make_game(players=[human, bots[level]])
        game_resign(game_id=game.pk, user=human if not human_wins else bots[level])
    response = APIClient().get("/api/leaderboards/computers", {"game": "pente"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["game"], body["category"]) == ("Pente", "normal")
    rows = body["results"]
    assert [(r["rank"], r["player"], r["level"]) for r in rows] == [
        (1, "computer5", 5),
        (1, "computer7", 7),
        (3, "computer2", 2),
    ]
    assert rows[0]["rating"] == 1800 and rows[0]["wins"] == 1 and rows[2]["losses"] == 1
    assert APIClient().get("/api/leaderboards", {"game": "Pente"}).json()["results"] == []


def test_the_computers_leaderboard_refuses_an_unknown_game_or_parameter():
    client = APIClient()
    assert client.get("/api/leaderboards/computers", {"game": "Chess"}).json()["code"] == (
        "unknown_game"
    )
    response = client.get("/api/leaderboards/computers", {"game": "Pente", "page": 2})
    assert response.status_code == 400 and response.json()["code"] == "unknown_parameter"


def test_a_computers_player_page_block_shows_its_own_ratings():
    from ratings.selectors import player_page_ratings

    human, bot = UserFactory(), computer(2)
    game_resign(game_id=make_game(players=[human, bot]).pk, user=human)
    block = player_page_ratings(bot)
    assert [(r["game"], r["category"], r["rating"]) for r in block["ratings"]] == [
        ("Pente", "normal", pytest.approx(1800))
    ]
    assert player_page_ratings(human)["ratings"] == []  # the game was unrated for the human
