"""Open invitations a computer opponent takes when no human has in time (``computer_level``):
two-player and multi-player, the wait, the refusals and the sweeper behind them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.urls import include, path
from django.utils import timezone

from games.bots.accounts import bots_ensure
from games.challenges import services as challenge_services
from games.challenges.models import Challenge
from games.play.models import Game
from tests.factories import UserFactory, make_game
from tests.games.challenges.support import act, create, seat_users

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]
urlpatterns = [path("api/", include("games.challenges.urls"))]

LATER = timedelta(minutes=2)


@pytest.fixture
def alice():
    bots_ensure()
    return UserFactory(username="alice")


def take_due(after: timedelta = LATER) -> int:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return challenge_services.challenges_computer_take_due(now=timezone.now() + after)


def test_an_open_invitation_waits_for_humans_before_the_computer_takes_it(alice):
    response = create(alice, computer_level=4, seat_wanted=1)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "open" and body["computer_level"] == 4
    assert body["computer_due_at"] is not None
    assert take_due(after=timedelta(seconds=5)) == 0  # the default wait is 30 s
    assert take_due() == 1
    challenge = Challenge.objects.get(pk=body["id"])
    assert challenge.status == Challenge.Status.ACCEPTED and challenge.computer_due_at is None
    game = challenge.game
    assert seat_users(game) == ["alice", "computer4"]
    assert game.against_computer and not game.rated
    assert game.ply == 2, "the computer answered alice's centre stone"


def test_with_no_wait_the_computer_takes_the_invitation_at_once(alice):
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = create(alice, computer_level=2, computer_wait_seconds=0)
    assert response.status_code == 201, response.content
    challenge = Challenge.objects.get(pk=response.json()["id"])
    assert challenge.status == Challenge.Status.ACCEPTED
    assert "computer2" in seat_users(challenge.game)


def test_a_human_who_takes_it_first_keeps_it(alice):
    challenge_id = create(alice, computer_level=4).json()["id"]
    assert act(UserFactory(username="bob"), challenge_id, "accept").status_code == 200
    assert take_due() == 0
    assert "computer4" not in seat_users(Challenge.objects.get(pk=challenge_id).game)


def test_computers_fill_every_empty_seat_of_a_multiplayer_game_from_the_level_outwards(alice):
    challenge_id = create(alice, seats=4, computer_level=5).json()["id"]
    assert act(UserFactory(username="bob"), challenge_id, "join").status_code == 200
    assert take_due() == 1
    game = Challenge.objects.get(pk=challenge_id).game
    assert seat_users(game) == ["alice", "bob", "computer5", "computer6"]
    assert game.status == Game.Status.IN_PROGRESS


def test_computers_take_the_seats_of_a_partners_game(alice):
    challenge_id = create(alice, seats=4, partners=True, computer_level=8).json()["id"]
    assert take_due() == 1
    game = Challenge.objects.get(pk=challenge_id).game
    assert game.partners and seat_users(game) == ["alice", "computer8", "computer7", "computer6"]


def test_the_computer_does_not_take_an_expired_invitation(alice):
    challenge_id = create(alice, computer_level=3, expires_in_hours=1).json()["id"]
    assert take_due(after=timedelta(hours=2)) == 0
    assert Challenge.objects.get(pk=challenge_id).status == Challenge.Status.EXPIRED


def test_a_creator_at_the_limit_by_then_is_left_to_humans(alice, settings):
    settings.BOT_MAX_ACTIVE_GAMES = 1
    challenge_id = create(alice, computer_level=3).json()["id"]
    make_game(players=[alice, UserFactory(username="computer9x", is_computer=True, bot_level=1)])
    assert take_due() == 0
    challenge = Challenge.objects.get(pk=challenge_id)
    assert challenge.status == Challenge.Status.OPEN and challenge.computer_due_at is None
    assert take_due(after=timedelta(hours=1)) == 0  # not retried


def test_a_creator_at_the_limit_cannot_make_one(alice, settings):
    settings.BOT_MAX_ACTIVE_GAMES = 1
    make_game(players=[alice, UserFactory(username="computer9x", is_computer=True, bot_level=1)])
    response = create(alice, computer_level=3)
    assert response.status_code == 409 and response.json()["code"] == "too_many_computer_games"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"computer_level": 3, "rated": True}, "computer_unrated"),
        ({"computer_level": 9}, "bad_computer_level"),
        ({"computer_level": 0}, "bad_computer_level"),
        ({"computer_level": 3, "invitee": "bob"}, "bad_computer_level"),
        ({"computer_level": 3, "computer_wait_seconds": 3601}, "bad_computer_wait"),
        ({"computer_level": 3, "computer_wait_seconds": -1}, "bad_computer_wait"),
        ({"computer_wait_seconds": 10}, "bad_computer_wait"),
    ],
)
def test_an_invitation_the_computer_cannot_take_is_refused(alice, body, code):
    UserFactory(username="bob")
    response = create(alice, **body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert not Challenge.objects.exists()


def test_a_server_without_computers_says_so():
    response = create(UserFactory(username="carol"), computer_level=3)
    assert response.status_code == 400
    assert response.json()["code"] == "no_computer"


def test_the_task_of_an_invitation_taken_meanwhile_does_nothing(alice):
    challenge_id = create(alice, computer_level=4, computer_wait_seconds=0).json()["id"]
    act(UserFactory(username="bob"), challenge_id, "accept")
    assert not challenge_services.challenge_computer_take(challenge_id=challenge_id)
    assert not challenge_services.challenge_computer_take(challenge_id=10**9)
