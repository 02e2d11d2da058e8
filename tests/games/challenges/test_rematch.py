"""Rematches (``POST /api/games/{id}/rematch``): the same opponent, the same options, the seats
swapped; asked twice, one challenge; refused for tournament games, imported records, games in
progress and other people; against the computer, the game starts at once."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.challenges.models import Challenge
from games.clocks.timecontrol import TimeControl
from games.play.actions import game_resign
from games.play.models import Game, GameSet
from tests.clients import client_for
from tests.factories import UserFactory, make_game
from tests.games.challenges.support import seat_users
from tests.tournaments.support import finish_match_games, make_tournament

pytestmark = pytest.mark.django_db


def rematch(user, game):
    return client_for(user).post(f"/api/games/{game.pk}/rematch")


def over(game, loser):
    game_resign(game_id=game.pk, user=loser)
    return game


def test_a_rematch_challenges_the_opponent_with_the_same_options_and_seats_swapped(alice, bob):
    game = over(
        make_game(
            players=[alice, bob],
            variant="Keryo-Pente",
            time_control=TimeControl.live(7, 5),
            tournament_rule=False,
            adjacent_only=True,
        ),
        bob,
    )
    response = rematch(alice, game)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["kind"] == "direct" and body["created_by"] == "alice" and body["invitee"] == "bob"
    assert body["status"] == "open" and body["message"] == f"Rematch of game #{game.pk}"
    challenge = Challenge.objects.get(pk=body["id"])
    assert (challenge.variant, challenge.rated) == ("Keryo-Pente", False)
    assert (challenge.time_control, challenge.initial_minutes, challenge.increment_seconds) == (
        "live",
        7,
        5,
    )
    assert challenge.tournament_rule is False and challenge.adjacent_only is True
    assert challenge.seat_wanted == 2  # alice had seat 1
    accepted = client_for(bob).post(f"/api/challenges/{challenge.pk}/accept/").json()
    assert seat_users(Game.objects.get(pk=accepted["game"])) == ["bob", "alice"]


def test_a_rated_games_rematch_is_a_rated_set_with_the_seats_swapped(alice, bob):
    game = over(make_game(players=[alice, bob], rated=True), alice)
    challenge = Challenge.objects.get(pk=rematch(bob, game).json()["id"])
    assert challenge.rated is True and challenge.seat_wanted == 1  # bob had seat 2
    client_for(alice).post(f"/api/challenges/{challenge.pk}/accept/")
    challenge.refresh_from_db()
    assert challenge.game_set is not None and challenge.game_set.rated
    first = Game.objects.get(game_set=challenge.game_set, set_index=1)
    assert seat_users(first) == ["bob", "alice"]


def test_asking_twice_answers_the_same_challenge(alice, bob):
    game = over(make_game(players=[alice, bob]), bob)
    first = rematch(alice, game)
    second = rematch(alice, game)
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["id"] == second.json()["id"]
    assert Challenge.objects.count() == 1


def test_asking_back_accepts_the_opponents_rematch(alice, bob):
    game = over(make_game(players=[alice, bob]), bob)
    asked = rematch(alice, game).json()
    answer = rematch(bob, game)
    assert answer.status_code == 200
    body = answer.json()
    assert body["id"] == asked["id"] and body["status"] == "accepted" and body["game"]
    assert seat_users(Game.objects.get(pk=body["game"])) == ["bob", "alice"]
    assert Challenge.objects.count() == 1


def test_a_declined_rematch_may_be_asked_for_again(alice, bob):
    game = over(make_game(players=[alice, bob]), bob)
    first = rematch(alice, game).json()
    client_for(bob).post(f"/api/challenges/{first['id']}/decline/")
    again = rematch(alice, game)
    assert again.status_code == 201 and again.json()["id"] != first["id"]


def test_a_cancelled_game_may_be_rematched(alice, bob):
    game = make_game(players=[alice, bob])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED, finished_at=timezone.now())
    assert rematch(bob, game).status_code == 201


def test_a_rematch_against_the_computer_starts_the_game_at_once(alice):
    computer = UserFactory(username="computer3", is_computer=True, bot_level=3)
    game = over(make_game(players=[computer, alice]), alice)
    response = rematch(alice, game)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "accepted"
    new = Game.objects.get(pk=body["game"])
    assert new.status == Game.Status.IN_PROGRESS and seat_users(new) == ["alice", "computer3"]
    assert rematch(alice, game).json()["game"] == new.pk


def test_a_game_in_progress_is_not_rematched(alice, bob):
    response = rematch(alice, make_game(players=[alice, bob]))
    assert response.status_code == 409 and response.json()["code"] == "game_in_progress"


def test_only_the_players_ask_for_a_rematch(alice, bob):
    game = over(make_game(players=[alice, bob]), bob)
    response = rematch(UserFactory(), game)
    assert response.status_code == 403 and response.json()["code"] == "not_a_player"


def test_an_imported_record_is_not_rematched(alice, bob):
    game = make_game(players=[alice, bob])
    Game.objects.filter(pk=game.pk).update(imported=True, status=Game.Status.ARCHIVED)
    response = rematch(alice, game)
    assert response.status_code == 409 and response.json()["code"] == "rematch_imported"
    assert not Challenge.objects.exists()


def test_a_tournament_game_is_not_rematched():
    tournament = make_tournament(players=2)
    match = tournament.matches.get()
    finish_match_games(match, "player1")
    game = Game.objects.filter(game_set__tournament_match_set__match=match).first()
    response = rematch(match.player1, game)
    assert response.status_code == 409 and response.json()["code"] == "rematch_tournament"
    assert not Challenge.objects.exists()


def test_a_multiplayer_game_is_not_rematched(alice, bob):
    game = make_game(players=[alice, bob, UserFactory()])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED, finished_at=timezone.now())
    response = rematch(alice, game)
    assert response.status_code == 409 and response.json()["code"] == "rematch_multiplayer"


def test_the_rematch_is_read_by_both_players(alice, bob):
    game = over(make_game(players=[alice, bob]), bob)
    assert client_for(bob).get(f"/api/games/{game.pk}/rematch").status_code == 204
    asked = rematch(alice, game).json()
    seen = client_for(bob).get(f"/api/games/{game.pk}/rematch")
    assert seen.status_code == 200 and seen.json()["id"] == asked["id"]
    assert GameSet.objects.count() == 0
