"""Accounts API: registration, session log-in/out, API tokens (and their authentication class),
profile, public player pages."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from unittest.mock import ANY

import pytest
from django.urls import include, path
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import selectors as account_selectors
from accounts import services
from accounts.models import ApiToken, User
from games.play.models import Game
from pente_site.errors import Invalid
from tests.factories import ApiTokenFactory, GameFactory, UserFactory

urlpatterns = [path("api/", include("accounts.urls"))]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture
def token_auth(monkeypatch):
    """Views authenticate with ``ApiTokenAuthentication`` whatever the settings say."""
    from rest_framework.authentication import SessionAuthentication

    from accounts.authentication import ApiTokenAuthentication
    from accounts.views import MeView

    monkeypatch.setattr(
        MeView, "authentication_classes", [ApiTokenAuthentication, SessionAuthentication]
    )


@pytest.fixture
def client():
    return APIClient()


@pytest.fixture
def user():
    return UserFactory(username="alice")


@pytest.fixture
def authed(client, user):
    client.force_authenticate(user)
    return client


# --- registration ------------------------------------------------------------------------


def test_register_creates_account_with_hashed_password_and_settings(client):
    response = client.post(
        "/api/auth/register",
        {
            "username": "bob",
            "password": "long-enough-pw",
            "email": "bob@example.com",
            "time_zone": "Europe/Paris",
            "weekend_days": [6, 4],
        },
    )
    assert response.status_code == 201, response.data
    assert response.data["username"] == "bob"
    assert "password" not in response.data
    bob = User.objects.get(username="bob")
    assert bob.check_password("long-enough-pw")
    assert bob.time_zone == "Europe/Paris"
    assert bob.weekend_days == [4, 6]


def test_register_defaults_to_utc_and_saturday_sunday(client):
    response = client.post("/api/auth/register", {"username": "carol", "password": "pw-123456"})
    assert response.status_code == 201
    assert response.data["time_zone"] == "UTC"
    assert response.data["weekend_days"] == [5, 6]


def test_register_refuses_a_taken_username_whatever_its_case(client, user):
    response = client.post("/api/auth/register", {"username": "ALICE", "password": "pw-123456"})
    assert response.status_code == 409
    assert response.data["code"] == "username_taken"


def test_register_refuses_a_short_password(client):
    response = client.post("/api/auth/register", {"username": "dan", "password": "short"})
    assert response.status_code == 400
    assert response.data["code"] == "bad_password"
    assert not User.objects.filter(username="dan").exists()


def test_register_names_every_problem_at_once_by_field(client, user):
    response = client.post("/api/auth/register", {"username": "alice", "password": "short"})
    assert response.status_code == 400
    assert response.data["code"] == "bad_password"
    assert set(response.data["fields"]) == {"username", "password"}
    assert "already taken" in response.data["fields"]["username"][0]
    assert "already taken" in response.data["detail"] and "too short" in response.data["detail"]


def test_register_service_refuses_a_username_the_api_would_refuse():
    with pytest.raises(Invalid) as refused:
        services.user_register(username="two words <b>", password="pw-123456")
    assert refused.value.code == "bad_username"
    assert refused.value.extra["fields"] == {"username": [ANY]}
    assert not User.objects.filter(username__startswith="two").exists()


def test_register_refuses_an_unknown_time_zone(client):
    response = client.post(
        "/api/auth/register",
        {"username": "dan", "password": "pw-123456", "time_zone": "Mars/Olympus"},
    )
    assert response.status_code == 400
    assert response.data["code"] == "bad_time_zone"


@pytest.mark.parametrize("days", [[7], [-1], [5, 5], [0, 1, 2, 3]])
def test_register_refuses_bad_weekend_days(client, days):
    response = client.post(
        "/api/auth/register", {"username": "dan", "password": "pw-123456", "weekend_days": days}
    )
    assert response.status_code == 400
    assert response.data["code"] == "bad_weekend_days"


def test_register_refuses_a_username_with_spaces(client):
    response = client.post("/api/auth/register", {"username": "a b", "password": "pw-123456"})
    assert response.status_code == 400
    assert response.data["code"] == "bad_username"
    assert "username" in response.data["fields"]


def test_register_names_a_bad_username_and_a_short_password_together(client):
    response = client.post("/api/auth/register", {"username": "bad name!", "password": "x"})
    assert response.status_code == 400
    assert response.data["code"] == "bad_username"
    assert set(response.data["fields"]) == {"username", "password"}


@pytest.mark.parametrize("name", ["me", "ME", "computer9", "Computer12", "deleted-3"])
def test_register_refuses_names_kept_for_the_api_computers_and_deleted_accounts(client, name):
    response = client.post("/api/auth/register", {"username": name, "password": "pw-123456"})
    assert response.status_code == 400 and response.data["code"] == "bad_username"
    assert not User.objects.filter(username__iexact=name).exists()


@pytest.mark.parametrize("password", ["password", "12345678", "qwerty123", "87654321009"])
def test_register_refuses_common_and_all_digit_passwords(client, password):
    response = client.post("/api/auth/register", {"username": "dan", "password": password})
    assert response.status_code == 400 and response.data["code"] == "bad_password"


def test_an_email_longer_than_the_column_is_refused_naming_the_field(client, user):
    client.force_authenticate(user)
    response = client.patch("/api/me", {"email": "x" * 300 + "@example.org"}, format="json")
    assert response.status_code == 400 and "email" in response.data["fields"]


# --- session log-in / log-out -------------------------------------------------------------


def test_session_login_then_me_then_logout():
    client = APIClient(enforce_csrf_checks=False)
    UserFactory(username="erin")
    response = client.post("/api/auth/login", {"username": "erin", "password": "secret-pass-123"})
    assert response.status_code == 200
    assert response.data["username"] == "erin"
    assert client.get("/api/me").status_code == 200
    assert client.post("/api/auth/logout").status_code == 204
    assert client.get("/api/me").status_code in (401, 403)


def test_session_login_refuses_a_wrong_password(client, user):
    response = client.post("/api/auth/login", {"username": "alice", "password": "nope"})
    assert response.status_code == 401
    assert response.data["code"] == "bad_credentials"


# --- API tokens ---------------------------------------------------------------------------


def test_token_obtain_returns_a_key_stored_only_as_its_hash(client, user):
    response = client.post(
        "/api/auth/token",
        {"username": "alice", "password": "secret-pass-123", "name": "laptop"},
    )
    assert response.status_code == 201
    key = response.data["key"]
    token = ApiToken.objects.get(pk=response.data["id"])
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert token.prefix == key[:8] == response.data["prefix"]
    assert token.name == "laptop"
    assert key not in {token.key_hash, token.name, token.prefix}


def test_token_obtain_refuses_bad_credentials(client, user):
    response = client.post("/api/auth/token", {"username": "alice", "password": "wrong"})
    assert response.status_code == 401
    assert response.data["code"] == "bad_credentials"
    assert not ApiToken.objects.exists()


def test_token_create_list_and_revoke(authed, user):
    created = authed.post("/api/me/tokens", {"name": "bot"})
    assert created.status_code == 201
    assert len(created.data["key"]) >= 40
    listed = authed.get("/api/me/tokens")
    assert listed.status_code == 200
    assert [t["name"] for t in listed.data["results"]] == ["bot"]
    assert set(listed.data["results"][0]) == {"id", "name", "prefix", "created_at", "last_used_at"}
    revoked = authed.delete(f"/api/me/tokens/{created.data['id']}")
    assert revoked.status_code == 204
    assert not user.api_tokens.exists()


def test_the_token_list_is_paginated_like_every_list(authed, user):
    for name in ("one", "two", "three"):
        assert authed.post("/api/me/tokens", {"name": name}).status_code == 201
    ApiTokenFactory()  # someone else's token is never listed
    first = authed.get("/api/me/tokens", {"page_size": 2})
    assert first.status_code == 200
    assert set(first.data) == {"count", "next", "previous", "results"}
    assert first.data["count"] == 3 and first.data["previous"] is None
    assert [t["name"] for t in first.data["results"]] == ["three", "two"]
    second = authed.get(first.data["next"])
    assert [t["name"] for t in second.data["results"]] == ["one"]
    assert second.data["next"] is None


def test_token_revoke_refuses_someone_elses_token(authed):
    other = ApiTokenFactory()
    response = authed.delete(f"/api/me/tokens/{other.pk}")
    assert response.status_code == 404
    assert response.data["code"] == "unknown_token"
    assert ApiToken.objects.filter(pk=other.pk).exists()


def test_token_list_needs_authentication(client):
    response = client.get("/api/me/tokens")
    assert response.status_code in (401, 403)
    assert "code" in response.data


@pytest.mark.parametrize("keyword", ["Token", "Bearer", "bearer"])
def test_token_authentication_accepts_token_and_bearer_headers(client, user, keyword, token_auth):
    issued = client.post(
        "/api/auth/token", {"username": "alice", "password": "secret-pass-123"}
    ).data
    response = client.get("/api/me", HTTP_AUTHORIZATION=f"{keyword} {issued['key']}")
    assert response.status_code == 200
    assert response.data["username"] == "alice"


def test_token_authentication_refuses_an_unknown_key_with_401(client, user, token_auth):
    response = client.get("/api/me", HTTP_AUTHORIZATION="Token not-a-real-key")
    assert response.status_code == 401
    assert response.data["code"] == "authentication_failed"


def test_token_authentication_refuses_a_revoked_key(client, user, token_auth):
    issued = client.post(
        "/api/auth/token", {"username": "alice", "password": "secret-pass-123"}
    ).data
    ApiToken.objects.filter(pk=issued["id"]).delete()
    response = client.get("/api/me", HTTP_AUTHORIZATION=f"Bearer {issued['key']}")
    assert response.status_code == 401


def test_token_authentication_refuses_an_inactive_user(client, token_auth):
    token = ApiTokenFactory(key="inactive-user-key-0123456789", user=UserFactory(is_active=False))
    assert token.pk
    response = client.get("/api/me", HTTP_AUTHORIZATION="Token inactive-user-key-0123456789")
    assert response.status_code == 401


def test_token_authentication_refuses_a_malformed_header(client, token_auth):
    response = client.get("/api/me", HTTP_AUTHORIZATION="Token two words")
    assert response.status_code == 401


def test_token_authentication_writes_last_used_at_at_most_once_a_minute(client, user, token_auth):
    ApiTokenFactory(user=user, key="minute-key-0123456789abcdef")
    header = {"HTTP_AUTHORIZATION": "Token minute-key-0123456789abcdef"}
    assert client.get("/api/me", **header).status_code == 200
    first = ApiToken.objects.get(user=user).last_used_at
    assert first is not None
    client.get("/api/me", **header)
    assert ApiToken.objects.get(user=user).last_used_at == first
    earlier = timezone.now() - timedelta(minutes=2)
    ApiToken.objects.filter(user=user).update(last_used_at=earlier)
    client.get("/api/me", **header)
    assert ApiToken.objects.get(user=user).last_used_at > earlier


# --- profile ------------------------------------------------------------------------------


def test_me_shows_my_profile(authed):
    response = authed.get("/api/me")
    assert response.status_code == 200
    assert response.data["username"] == "alice"
    assert response.data["weekend_days"] == [5, 6]
    assert response.data["is_computer"] is False


def test_me_patch_changes_time_zone_weekend_and_computer_flag(authed, user):
    response = authed.patch(
        "/api/me",
        {"time_zone": "Asia/Tokyo", "weekend_days": [4], "is_computer": True},
    )
    assert response.status_code == 200, response.data
    user.refresh_from_db()
    assert (user.time_zone, user.weekend_days, user.is_computer) == ("Asia/Tokyo", [4], True)


def test_me_patch_allows_no_weekend_at_all(authed, user):
    assert authed.patch("/api/me", {"weekend_days": []}).status_code == 200
    user.refresh_from_db()
    assert user.weekend_days == []


def test_me_patch_refuses_an_unknown_time_zone(authed, user):
    response = authed.patch("/api/me", {"time_zone": "Nowhere/Land"})
    assert response.status_code == 400
    assert response.data["code"] == "bad_time_zone"
    user.refresh_from_db()
    assert user.time_zone == "UTC"


def test_me_patch_refuses_repeated_weekend_days(authed):
    response = authed.patch("/api/me", {"weekend_days": [5, 5]})
    assert response.status_code == 400
    assert response.data["code"] == "bad_weekend_days"


def test_me_patch_password_needs_the_current_one(authed, user):
    missing = authed.patch("/api/me", {"password": "new-password-1"})
    assert missing.status_code == 400
    assert missing.data["code"] == "current_password_required"
    refused = authed.patch(
        "/api/me", {"password": "new-password-1", "current_password": "not-the-password"}
    )
    assert refused.status_code == 403
    assert refused.data["code"] == "bad_credentials"
    accepted = authed.patch(
        "/api/me", {"password": "new-password-1", "current_password": "secret-pass-123"}
    )
    assert accepted.status_code == 200
    user.refresh_from_db()
    assert user.check_password("new-password-1")


def test_me_needs_authentication(client):
    assert client.get("/api/me").status_code in (401, 403)


# --- player pages -------------------------------------------------------------------------


def test_player_list_is_public_sorted_and_searchable(client):
    for name in ["zed", "anna", "annabel", "bob"]:
        UserFactory(username=name)
    UserFactory(username="annie", is_active=False)
    everyone = client.get("/api/players/")
    assert everyone.status_code == 200
    assert [p["username"] for p in everyone.data["results"]] == ["anna", "annabel", "bob", "zed"]
    found = client.get("/api/players/", {"search": "ANN"})
    assert [p["username"] for p in found.data["results"]] == ["anna", "annabel"]


def test_player_list_filters_computer_players(client):
    UserFactory(username="robot", is_computer=True)
    UserFactory(username="human")
    response = client.get("/api/players/", {"computer": "true"})
    assert [p["username"] for p in response.data["results"]] == ["robot"]


def test_player_page_counts_games_by_outcome(client, user):
    bob = UserFactory(username="bob")
    GameFactory(players=[user, bob])  # in progress
    GameFactory(players=[user, bob], status=Game.Status.FINISHED, winner_seats=[1])
    GameFactory(players=[bob, user], status=Game.Status.FINISHED, winner_seats=[1])
    GameFactory(players=[bob, user], status=Game.Status.FINISHED, winner_seats=[])
    response = client.get("/api/players/Alice/")
    assert response.status_code == 200
    games = response.data["games"]
    assert response.data["username"] == "alice"
    assert (games["total"], games["in_progress"], games["finished"]) == (4, 1, 3)
    assert (games["wins"], games["losses"], games["draws"]) == (1, 1, 1)
    assert "last_login" not in response.data  # private


def test_player_page_gives_the_players_abort_count(client):
    UserFactory(username="carol", aborts=2)
    assert client.get("/api/players/carol/").data["aborts"] == 2


def test_player_page_includes_extras_registered_by_other_apps(client, user, monkeypatch):
    monkeypatch.setattr(
        account_selectors,
        "PLAYER_PAGE_EXTRAS",
        [
            *account_selectors.PLAYER_PAGE_EXTRAS,  # the games' block, the ratings' one
            lambda u: {"ratings": [{"variant": "Pente", "owner": u.username}]},
        ],
    )
    response = client.get("/api/players/alice/")
    assert response.data["ratings"] == [{"variant": "Pente", "owner": "alice"}]


def test_player_page_of_an_unknown_player_is_404(client):
    response = client.get("/api/players/nobody/")
    assert response.status_code == 404
    assert response.data["code"] == "unknown_player"


def test_authentication_class_leaves_other_schemes_to_other_classes(user):
    from rest_framework.test import APIRequestFactory

    from accounts.authentication import ApiTokenAuthentication

    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION="Basic abc")
    assert ApiTokenAuthentication().authenticate(request) is None
    assert ApiTokenAuthentication().authenticate(APIRequestFactory().get("/")) is None


def test_authentication_class_returns_the_user_and_token(user):
    from rest_framework.test import APIRequestFactory

    from accounts.authentication import ApiTokenAuthentication

    token = ApiTokenFactory(user=user, key="direct-key-0123456789abcdef")
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION="Bearer direct-key-0123456789abcdef")
    assert ApiTokenAuthentication().authenticate(request) == (user, token)


def test_a_new_username_of_more_than_20_characters_is_refused():
    response = APIClient().post(
        "/api/auth/register/", {"username": "a" * 21, "password": "a-long-passphrase-42"}
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "username_too_long"
    assert "at most 20 characters" in body["detail"]
    assert not User.objects.filter(username="a" * 21).exists()


def test_a_new_username_of_20_characters_is_taken():
    response = APIClient().post(
        "/api/auth/register/", {"username": "a" * 20, "password": "a-long-passphrase-42"}
    )
    assert response.status_code == 201, response.content
