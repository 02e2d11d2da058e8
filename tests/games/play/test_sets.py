"""Sets: created with colours swapped, finished from the games' results, set_finished sent."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from games.engine import Outcome, Termination
from games.play.actions import game_resign
from games.play.create import set_create
from games.play.finish import game_finish, sets_maybe_finish
from games.play.models import Game, GameSet, Seat
from games.play.requests import game_cancel_request
from games.play.signals import set_finished, sets_finished
from pente_site.errors import DomainError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair():
    return UserFactory(username="p1"), UserFactory(username="p2")


@pytest.fixture
def finished_sets():
    received = []

    def receiver(sender, game_set, **kwargs):
        received.append((game_set.pk, game_set.result))

    set_finished.connect(receiver)
    yield received
    set_finished.disconnect(receiver)


def _seat_users(game):
    return list(
        Seat.objects.filter(game=game).order_by("seat").values_list("user__username", flat=True)
    )


def test_a_rated_pente_set_has_two_games_with_colours_swapped(pair):
    game_set = set_create(player1=pair[0], player2=pair[1], variant="Pente", rated=True)
    games = list(game_set.games.order_by("set_index"))
    assert game_set.games_count == 2 and len(games) == 2
    assert _seat_users(games[0]) == ["p1", "p2"]
    assert _seat_users(games[1]) == ["p2", "p1"]
    assert all(g.rated and g.tournament_rule for g in games)
    assert all(g.status == Game.Status.IN_PROGRESS for g in games)


def test_a_rated_swap2_set_has_one_game(pair):
    game_set = set_create(player1=pair[0], player2=pair[1], variant="Swap2-Pente", rated=True)
    assert game_set.games_count == 1 and game_set.games.count() == 1


def test_an_unrated_set_defaults_to_one_game(pair):
    game_set = set_create(player1=pair[0], player2=pair[1], variant="Pente", rated=False)
    assert game_set.games_count == 1


def _resign(game, user):
    game_resign(game_id=game.pk, user=user)


def test_winning_both_games_wins_the_set(pair, finished_sets):
    p1, p2 = pair
    game_set = set_create(player1=p1, player2=p2, variant="Pente", rated=True)
    g1, g2 = game_set.games.order_by("set_index")
    _resign(g1, p2)
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.IN_PROGRESS and finished_sets == []
    _resign(g2, p2)
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.FINISHED
    assert game_set.result == "player1" and game_set.winner == p1
    assert game_set.finished_at is not None
    assert finished_sets == [(game_set.pk, "player1")]


def test_player2_winning_both_games_wins_the_set(pair, finished_sets):
    p1, p2 = pair
    game_set = set_create(player1=p1, player2=p2, variant="Pente", rated=True)
    for game in game_set.games.all():
        _resign(game, p1)
    game_set.refresh_from_db()
    assert game_set.result == "player2" and game_set.winner == p2
    assert finished_sets == [(game_set.pk, "player2")]


def test_one_game_each_draws_the_set(pair, finished_sets):
    p1, p2 = pair
    game_set = set_create(player1=p1, player2=p2, variant="Pente", rated=True)
    g1, g2 = game_set.games.order_by("set_index")
    _resign(g1, p1)
    _resign(g2, p2)
    game_set.refresh_from_db()
    assert game_set.result == "draw" and game_set.winner is None
    assert finished_sets == [(game_set.pk, "draw")]


def test_a_drawn_game_counts_for_nobody(pair, finished_sets):
    p1, p2 = pair
    game_set = set_create(player1=p1, player2=p2, variant="Pente", rated=True)
    g1, g2 = game_set.games.order_by("set_index")
    _resign(g1, p2)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=g2.pk)
        game_finish(game=locked, outcome=Outcome(Termination.DRAW, ()))
    game_set.refresh_from_db()
    assert game_set.result == "player1"


def test_a_cancelled_game_cancels_the_set_without_a_result(pair, finished_sets):
    p1, p2 = pair
    game_set = set_create(player1=p1, player2=p2, variant="Pente", rated=True)
    g1, g2 = game_set.games.order_by("set_index")
    _resign(g1, p2)
    game_cancel_request(game_id=g2.pk, user=p1)
    game_cancel_request(game_id=g2.pk, user=p2)
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.CANCELLED and game_set.result is None
    assert finished_sets == []


def test_the_set_api_shows_the_set_with_its_games(pair, client):
    p1, p2 = pair
    game_set = set_create(player1=p1, player2=p2, variant="Pente", rated=True)
    body = client.get(f"/api/sets/{game_set.pk}/").json()
    assert body["games_count"] == 2 and body["status"] == "in_progress"
    assert [g["set_index"] for g in body["games"]] == [1, 2]
    assert body["player1"]["username"] == "p1"


def test_an_unknown_set_is_404(client):
    response = client.get("/api/sets/999999/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_set_against_oneself_is_refused(pair):
    with pytest.raises(DomainError):
        set_create(player1=pair[0], player2=pair[0], variant="Pente", rated=True)


def test_sets_finished_at_once_are_announced_together_after_each_alone(finished_sets):
    together = []

    def receiver(sender, game_sets, **kwargs):
        together.append(sorted(s.pk for s in game_sets))

    sets_finished.connect(receiver)
    try:
        made = [
            set_create(player1=UserFactory(), player2=UserFactory(), variant="Pente", rated=False)
            for _ in range(3)
        ]
        Game.objects.filter(game_set__in=made).update(
            status="finished", end_reason="resign", winner_seats=[1], finished_at=timezone.now()
        )
        sets_maybe_finish(game_set_ids=[s.pk for s in made], now=timezone.now())
    finally:
        sets_finished.disconnect(receiver)
    assert together == [sorted(s.pk for s in made)]
    assert sorted(pk for pk, _result in finished_sets) == sorted(s.pk for s in made)


def test_sets_finished_at_once_each_get_their_own_result_and_winner():
    """Player 1 wins both games, player 2 both, one each, and a set with a cancelled game: the
    results are written together (one statement per kind of result) but each set gets its own."""
    made = [
        set_create(
            player1=UserFactory(),
            player2=UserFactory(),
            variant="Pente",
            rated=False,
            games_count=2,
        )
        for _ in range(4)
    ]
    winners_by_set = [("player1", "player1"), ("player2", "player2"), ("player1", "player2"), None]
    for game_set, winners in zip(made, winners_by_set, strict=True):
        games = list(Game.objects.filter(game_set=game_set).order_by("set_index"))
        if winners is None:
            over = {"finished_at": timezone.now()}
            Game.objects.filter(pk=games[0].pk).update(status="cancelled", **over)
            Game.objects.filter(pk=games[1].pk).update(
                status="finished", end_reason="resign", winner_seats=[1], **over
            )
            continue
        for game, who in zip(games, winners, strict=True):
            user = getattr(game_set, who)
            seat = Seat.objects.get(game=game, user=user).seat
            Game.objects.filter(pk=game.pk).update(
                status="finished",
                end_reason="resign",
                winner_seats=[seat],
                finished_at=timezone.now(),
            )
    sets_maybe_finish(game_set_ids=[s.pk for s in made], now=timezone.now())
    got = [GameSet.objects.values_list("status", "result", "winner_id").get(pk=s.pk) for s in made]
    p1_wins, p2_wins, draw, cancelled = made
    assert got[0] == ("finished", "player1", p1_wins.player1_id)
    assert got[1] == ("finished", "player2", p2_wins.player2_id)
    assert got[2] == ("finished", "draw", None)
    assert got[3][0] == "cancelled" and got[3][2] is None
    assert all(GameSet.objects.get(pk=s.pk).finished_at is not None for s in made)
