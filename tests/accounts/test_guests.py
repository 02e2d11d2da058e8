"""Guests: a signed-out visitor's account to play the computer. Unrated games against the
computer only; refused everywhere else (403 ``guest_not_allowed``); not listed; deleted with
their games once idle."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import guests
from accounts.models import User
from accounts.services import user_register
from games.accounts import services as games_of_accounts
from games.challenges.models import Challenge
from games.play.actions import game_resign
from games.play.models import Game
from pente_site.errors import Invalid
from ratings.models import Rating
from tests.clients import client_for
from tests.factories import ChallengeFactory, UserFactory
from tests.tournaments.support import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest():
    return guests.guest_create()


@pytest.fixture
def computer():
    return UserFactory(username="computer3", is_computer=True, bot_level=3)


def refused(response) -> bool:
    return response.status_code == 403 and response.json()["code"] == "guest_not_allowed"


def test_a_guest_is_named_guest_and_has_no_password(guest):
    assert guest.is_guest and guests.GUEST_NAME.fullmatch(guest.username)
    assert not guest.has_usable_password()


def test_a_guest_plays_the_computer_unrated(guest, computer):
    response = client_for(guest).post(
        "/api/challenges/", {"variant": "Pente", "invitee": "computer3"}
    )
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["game"])
    assert not game.rated and game.status == Game.Status.IN_PROGRESS


def test_a_guest_may_not_challenge_a_person(guest):
    UserFactory(username="ann")
    response = client_for(guest).post("/api/challenges/", {"variant": "Pente", "invitee": "ann"})
    assert refused(response)
    assert not Challenge.objects.exists()


def test_a_guest_may_not_post_an_open_challenge(guest):
    assert refused(client_for(guest).post("/api/challenges/", {"variant": "Pente"}))


def test_nobody_may_challenge_a_guest(guest):
    ann = UserFactory(username="ann")
    response = client_for(ann).post(
        "/api/challenges/", {"variant": "Pente", "invitee": guest.username}
    )
    assert refused(response)


def test_a_guest_may_not_take_up_a_challenge(guest):
    challenge = ChallengeFactory()
    assert refused(client_for(guest).post(f"/api/challenges/{challenge.pk}/accept/"))


def test_a_guest_may_not_join_a_tournament(guest):
    tournament = make_tournament(players=0, start=False)
    assert refused(client_for(guest).post(f"/api/tournaments/{tournament.pk}/join/"))


def test_a_guest_may_not_chat_in_rooms(guest):
    response = client_for(guest).post("/api/rooms/main/chat/", {"text": "hello"})
    assert refused(response)


def test_a_guest_may_not_import_records(guest):
    assert refused(client_for(guest).post("/api/games/import/", {"text": '[Game "Pente"]'}))


def test_guests_are_not_listed_among_the_players(guest):
    UserFactory(username="ann")
    names = [p["username"] for p in client_for(guest).get("/api/players/").json()["results"]]
    assert names == ["ann"]


def test_a_guests_games_give_no_rating_so_no_leaderboard_place(guest, computer):
    response = client_for(guest).post(
        "/api/challenges/", {"variant": "Pente", "invitee": "computer3"}
    )
    game = Game.objects.get(pk=response.json()["game"])
    game_resign(game_id=game.pk, user=guest)
    assert not Rating.objects.filter(user=guest).exists()
    board = client_for(guest).get("/api/leaderboards/", {"game": "Pente", "provisional": "true"})
    assert guest.username not in board.content.decode()


def test_guest_names_are_kept_from_sign_up():
    with pytest.raises(Invalid) as refusal:
        user_register(username="guest-1234", password="a-long-passphrase-42")
    assert "kept for guests" in refusal.value.detail


def test_the_sweeper_deletes_idle_guests_with_their_games(guest, computer, settings):
    settings.GUEST_IDLE = timedelta(hours=24)
    response = client_for(guest).post(
        "/api/challenges/", {"variant": "Pente", "invitee": "computer3"}
    )
    game = Game.objects.get(pk=response.json()["game"])
    game_resign(game_id=game.pk, user=guest)
    User.objects.filter(pk=guest.pk).update(last_login=timezone.now() - timedelta(hours=25))
    assert games_of_accounts.guests_sweep() == 1
    assert not User.objects.filter(pk=guest.pk).exists()
    assert not Game.objects.filter(pk=game.pk).exists()
    assert User.objects.filter(pk=computer.pk).exists()


def test_the_sweeper_keeps_a_guest_at_play_and_a_recent_one(computer, settings):
    settings.GUEST_IDLE = timedelta(hours=24)
    playing, recent = guests.guest_create(), guests.guest_create()
    client_for(playing).post("/api/challenges/", {"variant": "Pente", "invitee": "computer3"})
    User.objects.filter(pk=playing.pk).update(last_login=timezone.now() - timedelta(hours=25))
    assert games_of_accounts.guests_sweep() == 0
    assert User.objects.filter(pk__in=[playing.pk, recent.pk]).count() == 2
    assert not UserFactory(username="ann").is_guest


def test_the_play_page_makes_a_guest_for_the_browser_session(client):
    page = client.get("/play/").content.decode()
    assert 'id="guest-form"' in page
    response = client.post("/play/guest/")
    assert response.status_code == 302 and response["Location"] == "/play/"
    guest = User.objects.get(is_guest=True)
    assert client.session.get_expire_at_browser_close()
    page = client.get("/play/").content.decode()
    assert guest.username in page and 'value="open"' not in page and 'id="guest-note"' in page
    home = client.get("/").content.decode()
    assert 'id="room-guest"' in home and 'id="room-form"' not in home
