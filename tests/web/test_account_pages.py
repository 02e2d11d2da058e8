"""Sign up, sign in, sign out and settings in the browser's forms (Django's test client)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from live.models import Ignore
from live.services import ignore_add
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-1"


def test_signing_up_creates_the_account_and_signs_in(client):
    response = client.post(
        "/signup/", {"username": "newcomer", "password": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert User.objects.filter(username="newcomer").exists()
    assert b'id="me"' in client.get("/").content


def test_signing_up_with_a_taken_name_says_so_on_the_form(client):
    UserFactory(username="taken")
    response = client.post(
        "/signup/", {"username": "TAKEN", "password": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert b"already taken" in response.content


def test_signing_up_with_two_different_passwords_is_refused(client):
    response = client.post(
        "/signup/", {"username": "newcomer", "password": PASSWORD, "password2": PASSWORD + "x"}
    )
    assert b"The two passwords differ." in response.content
    assert not User.objects.filter(username="newcomer").exists()


def test_signing_up_shows_every_problem_at_once_beside_its_field(client):
    UserFactory(username="taken")
    response = client.post("/signup/", {"username": "Taken", "password": "x", "password2": "y"})
    form = response.context["form"]
    assert "already taken" in form.errors["username"][0]
    assert "too short" in form.errors["password"][0]
    assert form.errors["password2"] == ["The two passwords differ."]
    assert User.objects.filter(username__iexact="taken").count() == 1


def test_signing_up_with_a_name_of_more_than_20_characters_says_the_limit(client):
    page = client.get("/signup/").content.decode()
    assert "At most 20 letters and digits" in page and 'maxlength="20"' in page
    response = client.post(
        "/signup/", {"username": "n" * 21, "password": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert "A username is at most 20 characters" in response.content.decode()
    assert not User.objects.filter(username="n" * 21).exists()


def test_an_existing_name_longer_than_20_characters_still_signs_in(client):
    name = "L" * 150
    User.objects.create_user(username=name, password=PASSWORD)
    response = client.post("/login/", {"username": name, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(f"/players/{name}/").status_code == 200


def test_signing_up_refuses_a_username_with_spaces_or_markup(client):
    response = client.post(
        "/signup/", {"username": "two words <b>", "password": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert "valid username" in response.context["form"].errors["username"][0]
    assert not User.objects.filter(username__startswith="two").exists()


def test_an_empty_username_gets_the_forms_one_sentence(client):
    response = client.post(
        "/signup/", {"username": "", "password": PASSWORD, "password2": PASSWORD}
    )
    assert response.context["form"].errors["username"] == ["This field is required."]


def test_the_password_boxes_tell_password_managers_what_they_hold(client):
    signup_page = client.get("/signup/").content.decode()
    assert signup_page.count('autocomplete="new-password"') == 2
    assert 'autocomplete="username"' in signup_page
    assert 'autocomplete="current-password"' in client.get("/login/").content.decode()


def test_signing_in_goes_back_to_the_page_asked_for(client):
    UserFactory(username="ann", password=PASSWORD)
    response = client.post(
        "/login/", {"username": "ann", "password": PASSWORD, "next": "/leaderboards/"}
    )
    assert response["Location"] == "/leaderboards/"


def test_signing_in_never_sends_the_browser_to_another_site(client):
    UserFactory(username="ann", password=PASSWORD)
    response = client.post(
        "/login/", {"username": "ann", "password": PASSWORD, "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_a_wrong_password_is_refused_with_a_sentence(client):
    UserFactory(username="ann", password=PASSWORD)
    response = client.post("/login/", {"username": "ann", "password": "wrong"})
    assert response.status_code == 200
    assert b"not correct" in response.content


def test_sign_in_attempts_are_rate_limited(client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "auth_username": "2/min",
        },
    }
    UserFactory(username="ann", password=PASSWORD)
    for _ in range(2):
        client.post("/login/", {"username": "ann", "password": "wrong"})
    response = client.post("/login/", {"username": "ann", "password": PASSWORD})
    assert b"Too many attempts" in response.content


def test_the_limit_per_name_is_shared_by_the_site_and_the_api(client, throttle_rates):
    """Guessing one account's password through both doors does not double the attempts."""
    throttle_rates(auth_username="2/min")
    name = f"shared{uuid.uuid4().hex[:8]}"
    UserFactory(username=name, password=PASSWORD)
    for _ in range(2):
        client.post("/login/", {"username": name, "password": "wrong"})
    api = APIClient(REMOTE_ADDR="10.9.8.7")
    response = api.post("/api/auth/login", {"username": name.upper(), "password": PASSWORD})
    assert response.status_code == 429


def test_signing_out_needs_a_post_with_the_csrf_token():
    user = UserFactory()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    page = browser.get("/logout/")  # a page with the button, not a blank 405
    assert page.status_code == 200
    assert b'id="logout-form"' in page.content and b'method="post"' in page.content
    assert browser.post("/logout/").status_code == 403  # no CSRF token
    assert "_auth_user_id" in browser.session


def test_signing_in_accepts_the_name_in_any_case(client):
    UserFactory(username="Alice", password=PASSWORD)
    response = client.post("/login/", {"username": "ALICE", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "Alice"


def test_the_sign_up_page_tells_a_signed_in_player_so(client):
    client.force_login(UserFactory(username="ann"))
    html = client.get("/signup/").content.decode()
    assert 'id="signed-in"' in html and "signed in as <b>ann</b>" in html
    assert 'id="signup-form"' not in html
    response = client.post(
        "/signup/", {"username": "other", "password": PASSWORD, "password2": PASSWORD}
    )
    assert not User.objects.filter(username="other").exists()
    assert response.status_code == 200


def test_the_settings_page_needs_a_signed_in_player(client):
    response = client.get("/settings/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_settings_change_the_time_zone_and_weekend(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        "/settings/",
        {"action": "profile", "time_zone": "Europe/Paris", "weekend_days": ["4", "5"]},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "Europe/Paris" and list(user.weekend_days) == [4, 5]


def test_a_new_api_token_is_shown_once_and_can_be_revoked(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post("/settings/", {"action": "token", "name": "my bot"})
    # Post/redirect/get: reloading the page it leads to makes no second token.
    assert response.status_code == 302 and response["Location"] == "/settings/"
    shown = client.get("/settings/").content
    token = ApiToken.objects.get(user=user)
    assert b'id="new-token"' in shown
    assert b'id="new-token"' not in client.get("/settings/").content
    assert ApiToken.objects.filter(user=user).count() == 1
    client.post("/settings/", {"action": "revoke", "token": str(token.pk)})
    assert not ApiToken.objects.filter(user=user).exists()


def test_vacation_taken_from_the_settings_page_is_spent(client):
    user = UserFactory()
    make_game(players=[UserFactory(), user], time_control="turn", days_per_move=3)
    client.force_login(user)
    client.post("/settings/", {"action": "vacation", "hours": "5"})
    page = client.get("/settings/").content.decode()
    assert "<b>235</b>" in page


def test_vacation_with_no_game_waiting_says_why_not(client):
    client.force_login(UserFactory())
    response = client.post("/settings/", {"action": "vacation", "hours": "5"}, follow=True)
    assert b"It is not your turn in any turn-based game" in response.content


def _change_password(client, current: str, new: str, again: str):
    return client.post(
        "/settings/",
        {"action": "password", "current_password": current, "password": new, "password2": again},
    )


def test_the_settings_page_changes_the_password_and_keeps_one_signed_in(client):
    user = UserFactory(password=PASSWORD)
    client.force_login(user)
    response = _change_password(client, PASSWORD, "another good one 5", "another good one 5")
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another good one 5")
    assert b'id="me"' in client.get("/").content


def test_a_new_password_typed_differently_twice_is_refused(client):
    user = UserFactory(password=PASSWORD)
    client.force_login(user)
    response = _change_password(client, PASSWORD, "another good one 5", "another good one 6")
    assert response.context["password"].errors["password2"] == ["The two passwords differ."]
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_a_wrong_current_password_is_refused_with_a_sentence(client):
    user = UserFactory(password=PASSWORD)
    client.force_login(user)
    response = _change_password(client, "not it", "another good one 5", "another good one 5")
    assert response.status_code == 200
    assert b"current password" in response.content.lower()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def _delete_account(client, password: str, confirm: bool = True):
    data = {"action": "delete", "current_password": password}
    if confirm:
        data["confirm"] = "on"
    return client.post("/settings/", data)


def test_the_settings_page_deletes_the_account_and_signs_out(client):
    user = UserFactory(password=PASSWORD)
    client.force_login(user)
    response = _delete_account(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/"
    user.refresh_from_db()
    assert user.deleted_at is not None and user.username == f"deleted-{user.pk}"
    assert client.get("/settings/").status_code == 302  # signed out: to the sign-in page


@pytest.mark.parametrize(
    ("password", "confirm", "sentence"),
    [("wrong password 1", True, b"The password is not correct."), (PASSWORD, False, b"required")],
)
def test_deleting_the_account_needs_the_password_and_the_box_ticked(
    client, password, confirm, sentence
):
    user = UserFactory(password=PASSWORD)
    client.force_login(user)
    response = _delete_account(client, password, confirm)
    assert response.status_code == 200 and sentence in response.content
    user.refresh_from_db()
    assert user.is_active and user.deleted_at is None


def test_password_checks_on_the_settings_page_share_the_apis_account_limit(client, throttle_rates):
    throttle_rates(account="2/min")
    user = UserFactory(password=PASSWORD)
    client.force_login(user)
    answers = [_delete_account(client, "wrong password 1").status_code for _ in range(2)]
    assert answers == [200, 200]
    refused = _delete_account(client, PASSWORD)
    assert refused.status_code == 302
    user.refresh_from_db()
    assert user.is_active  # the third attempt was not even tried


def test_the_settings_list_the_players_ignored_and_stop_ignoring_one(client):
    from_here = UserFactory(username="alice")
    for name in ("troll", "pest"):
        UserFactory(username=name)
        ignore_add(user=from_here, username=name)
    client.force_login(from_here)
    panel = client.get("/settings/").content.decode()
    panel = panel[panel.index('id="ignores"') : panel.index('id="delete-account"')]
    assert panel.index('href="/players/pest/"') < panel.index('href="/players/troll/"')
    response = client.post("/settings/", {"action": "unignore", "username": "troll"})
    assert response.status_code == 302 and response["Location"] == "/settings/"
    assert list(
        Ignore.objects.filter(user=from_here).values_list("ignored__username", flat=True)
    ) == ["pest"]
    page = client.get("/settings/").content.decode()
    assert "You no longer ignore troll." in page


def test_stopping_to_ignore_someone_not_ignored_is_said_on_the_settings(client):
    client.force_login(UserFactory(username="alice"))
    response = client.post("/settings/", {"action": "unignore", "username": "nobody"}, follow=True)
    assert "You are not ignoring &#x27;nobody&#x27;." in response.content.decode()
