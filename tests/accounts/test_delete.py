"""Deleting one's account (``POST me/delete``): what is erased, what stays, and what follows
(leaderboards, challenges, games in progress), through the API."""

from __future__ import annotations

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from accounts import services
from accounts.models import ApiToken, User
from games.accounts import services as games_of_accounts
from games.challenges.models import Challenge
from games.play.actions import game_resign
from games.play.models import Game
from pente_site.errors import DomainError
from ratings.models import Rating
from tests.factories import ApiTokenFactory, ChallengeFactory, UserFactory, make_game
from tests.ratings.factories import RatingFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-1"


def _delete(client, password=PASSWORD):
    with TestCase.captureOnCommitCallbacks(execute=True):  # the job runs as a worker would
        return client.post("/api/me/delete", {"password": password}, format="json")


@pytest.fixture
def player():
    return UserFactory(username="leaving", email="leaving@example.org", password=PASSWORD)


@pytest.fixture
def client(player):
    client = APIClient()
    client.force_authenticate(player)
    return client


def test_a_wrong_password_deletes_nothing(client, player):
    response = _delete(client, "not-the-password")
    assert response.status_code == 403 and response.json()["code"] == "bad_credentials"
    player.refresh_from_db()
    assert player.is_active and player.username == "leaving" and player.deleted_at is None


def test_a_deleted_account_keeps_nothing_personal(client, player):
    ApiTokenFactory(user=player)
    assert _delete(client).status_code == 204
    player.refresh_from_db()
    assert player.username == f"deleted-{player.pk}"
    assert (player.email, player.first_name, player.last_name) == ("", "", "")
    assert not player.has_usable_password() and not player.is_active
    assert player.deleted_at is not None
    assert not ApiToken.objects.filter(user=player).exists()


def test_its_token_and_its_name_stop_working_and_the_name_is_free_again(player):
    key = "deleting-key-0123456789abcdef"
    ApiTokenFactory(user=player, key=key)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert _delete(client).status_code == 204
    assert client.get("/api/me").status_code == 401
    assert APIClient().get("/api/players/leaving").status_code == 404
    services.user_register(username="leaving", password="another-horse-2")


def test_a_session_ends_with_the_deletion(player):
    client = APIClient()
    assert (
        client.post(
            "/api/auth/login", {"username": "leaving", "password": PASSWORD}, format="json"
        ).status_code
        == 200
    )
    assert _delete(client).status_code == 204
    assert client.get("/api/me").status_code in (401, 403)


def test_its_games_in_progress_are_resigned_and_its_challenges_closed(client, player):
    opponent = UserFactory()
    game = make_game(players=[player, opponent])
    finished = make_game(players=[opponent, player])
    game_resign(game_id=finished.pk, user=opponent)
    challenge = ChallengeFactory(created_by=player)
    assert _delete(client).status_code == 204
    game.refresh_from_db()
    assert (game.status, game.end_reason) == ("finished", "resign")
    assert Game.objects.get(pk=finished.pk).end_reason == "resign"
    assert Challenge.objects.get(pk=challenge.pk).status == "cancelled"


def test_the_sweeper_resigns_the_games_a_lost_job_left(player):
    game = make_game(players=[UserFactory(), player])
    services.account_delete(user=player, password=PASSWORD)  # its job never ran
    assert Game.objects.get(pk=game.pk).status == "in_progress"
    assert games_of_accounts.deleted_games_resign() == 1
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert games_of_accounts.deleted_games_resign() == 0


def test_its_ratings_leave_the_boards_under_the_new_name(client, player):
    RatingFactory(user=player, rating=2000, results=30)
    assert _delete(client).status_code == 204
    row = Rating.objects.get(user=player)
    assert row.username == f"deleted-{player.pk}" and row.listed is False


@pytest.mark.parametrize("name", ["deleted-12", "Deleted-7", "DELETED-7-a1b2c3"])
def test_names_kept_for_deleted_accounts_are_refused_at_sign_up(name):
    with pytest.raises(DomainError) as err:
        services.user_register(username=name, password=PASSWORD)
    assert err.value.code == "bad_username"


def test_an_older_account_holding_the_deleted_name_is_left_alone(player):
    older = UserFactory()
    User.objects.filter(pk=older.pk).update(username=f"deleted-{player.pk}")
    services.account_delete(user=player, password=PASSWORD)
    player.refresh_from_db()
    assert player.username.startswith(f"deleted-{player.pk}-")
    assert User.objects.get(pk=older.pk).username == f"deleted-{player.pk}"


def test_its_games_show_the_new_name_even_cached_and_after_its_old_name_is_taken_again(
    client, player
):
    opponent = UserFactory()
    game = make_game(players=[player, opponent])
    game_resign(game_id=game.pk, user=opponent)
    reader = APIClient()
    assert reader.get(f"/api/games/{game.pk}/").json()["players"][0]["name"] == "leaving"  # cached
    assert _delete(client).status_code == 204
    services.user_register(username="leaving", password="another-horse-2")
    state = reader.get(f"/api/games/{game.pk}/").json()
    new_name = f"deleted-{player.pk}"
    assert state["players"][0]["name"] == new_name
    assert state["players"][0]["user"] == {"id": player.pk, "username": new_name}
    assert state["winners"][0]["name"] == new_name
    record = reader.get(f"/api/games/{game.pk}/record").content.decode()
    assert new_name in record and '"leaving"' not in record
