"""Challenging the server's computer opponents: accepted at once, unrated only, a few at a time."""

from __future__ import annotations

import pytest
from django.urls import include, path

from games.challenges import services as challenge_services
from games.challenges.models import Challenge
from games.play.actions import game_resign
from games.play.models import Game
from tests.clients import client_for
from tests.factories import UserFactory
from tests.games.challenges.support import create, seat_users

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]
urlpatterns = [path("api/", include("games.challenges.urls"))]


@pytest.fixture
def alice():
    """alice, a player; and computer3, the level-3 computer opponent she challenges."""
    UserFactory(username="computer3", is_computer=True, bot_level=3)
    return UserFactory(username="alice")


def test_a_direct_unrated_challenge_to_a_computer_is_accepted_at_once(alice):
    response = create(alice, invitee="computer3", seat_wanted=1)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "accepted" and body["invitee"] == "computer3"
    game = Game.objects.get(pk=body["game"])
    assert game.status == Game.Status.IN_PROGRESS and not game.rated
    assert seat_users(game) == ["alice", "computer3"]
    assert Challenge.objects.get(pk=body["id"]).status == Challenge.Status.ACCEPTED
    again = client_for(alice).get(f"/api/challenges/{body['id']}/").json()
    assert again["status"] == "accepted" and again["game"] == game.pk


@pytest.mark.parametrize("variant", ["Go", "Connect6", "Keryo-Pente"])
def test_the_computer_accepts_every_game(alice, variant):
    response = create(alice, invitee="computer3", variant=variant)
    assert response.status_code == 201, response.content
    assert Game.objects.get(pk=response.json()["game"]).variant == variant


def test_a_rated_challenge_to_a_computer_is_refused(alice):
    response = create(alice, invitee="computer3", rated=True)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "computer_unrated"
    assert body["detail"] == "Games against the computer are unrated."
    assert not Challenge.objects.exists() and not Game.objects.exists()


def test_a_players_own_computer_account_is_challenged_like_anyone(alice):
    UserFactory(username="robot", is_computer=True)
    response = create(alice, invitee="robot", rated=True)
    assert response.status_code == 201 and response.json()["status"] == "open"


def test_the_fourth_game_against_computers_is_refused(alice, settings):
    settings.BOT_MAX_ACTIVE_GAMES = 3
    UserFactory(username="computer5", is_computer=True, bot_level=5)
    for invitee in ("computer3", "computer5", "computer3"):
        assert create(alice, invitee=invitee).status_code == 201
    response = create(alice, invitee="computer5")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "too_many_computer_games" and body["limit"] == 3
    assert Game.objects.count() == 3 and Challenge.objects.count() == 3
    # games between people do not count
    assert create(alice, invitee=UserFactory().username).status_code == 201


def test_a_finished_game_frees_a_slot(alice, settings):
    settings.BOT_MAX_ACTIVE_GAMES = 3
    ids = [create(alice, invitee="computer3").json()["game"] for _ in range(3)]
    assert create(alice, invitee="computer3").status_code == 409
    game_resign(game_id=ids[0], user=alice)
    assert Game.objects.get(pk=ids[0]).status == Game.Status.FINISHED
    response = create(alice, invitee="computer3")
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "accepted"


def test_the_limit_is_read_from_the_settings(alice, settings):
    settings.BOT_MAX_ACTIVE_GAMES = 1
    assert create(alice, invitee="computer3").status_code == 201
    assert create(alice, invitee="computer3").status_code == 409


def test_an_open_challenge_is_not_taken_by_a_computer(alice):
    challenge = challenge_services.challenge_create(creator=alice, variant="Pente")
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN and challenge.game is None
