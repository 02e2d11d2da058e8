"""The e-mail choices on the settings page, and the page of the link at the end of every
notification that turns its kind off without signing in (Django's test client)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.links import unsubscribe_token
from tests.clients import page_client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_settings_page_shows_the_email_choices_as_they_are():
    user = UserFactory(email_verified=True, email_on_challenge=False)
    page = page_client_for(user).get("/settings/").content.decode()
    assert 'id="notifications"' in page
    assert "E-mail me when it is my turn in a turn-based game" in page
    assert 'name="email_on_turn" id="id_email_on_turn" checked' in page
    assert 'name="email_on_challenge" id="id_email_on_challenge">' in page
    assert 'name="email_on_game_over" id="id_email_on_game_over">' in page


def test_the_settings_page_saves_the_email_choices():
    user = UserFactory(email_verified=True)
    response = page_client_for(user).post(
        "/settings/", {"action": "notifications", "email_on_game_over": "on"}
    )
    assert response.status_code == 302 and response["Location"] == "/settings/"
    user.refresh_from_db()
    assert (user.email_on_turn, user.email_on_challenge, user.email_on_game_over) == (
        False,
        False,
        True,
    )


def test_the_settings_page_says_the_emails_wait_for_a_confirmed_address():
    user = UserFactory(email="someone@example.org", email_verified=False)
    page = page_client_for(user).get("/settings/").content.decode()
    assert "They go to someone@example.org once it is confirmed." in page


def test_opening_an_unsubscribe_link_changes_nothing_and_asks():
    user = UserFactory(email_verified=True)
    token = unsubscribe_token(user=user, kind="turn")
    response = Client().get(f"/unsubscribe/{token}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="unsubscribe-form"' in page and 'method="post"' in page
    assert "Stop the e-mails sent when it is your turn in a turn-based game?" in page
    user.refresh_from_db()
    assert user.email_on_turn


def test_the_button_of_an_unsubscribe_link_turns_that_kind_off_without_signing_in():
    user = UserFactory(email_verified=True, email_on_game_over=True)
    token = unsubscribe_token(user=user, kind="game_over")
    # A mail program's one-click POST (RFC 8058) carries no CSRF token: the signed token is
    # the credential.
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and 'id="unsubscribed"' in response.content.decode()
    user.refresh_from_db()
    assert (user.email_on_turn, user.email_on_challenge, user.email_on_game_over) == (
        True,
        True,
        False,
    )


def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing():
    user = UserFactory(email_verified=True)
    value, _signature = unsubscribe_token(user=user, kind="turn").rsplit(":", 1)
    for method in ("get", "post"):
        response = getattr(Client(), method)(f"/unsubscribe/{value}:forged/")
        assert response.status_code == 400
        assert 'id="bad-unsubscribe-link"' in response.content.decode()
    user.refresh_from_db()
    assert user.email_on_turn
