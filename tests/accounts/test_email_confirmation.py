"""Confirming an e-mail address: a link is e-mailed when an address is given (at sign-up or in
the profile), links to choose a new password only go to confirmed addresses, and a link stops
working once used or once the address changes."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a good long password 3"
LINK = re.compile(r"http://testserver/confirm-email/(?P<uid>[^/\s]+)/(?P<token>[^/\s]+)/")


@pytest.fixture(autouse=True)
def _named_hosts(settings):
    settings.ALLOWED_HOSTS = ["testserver"]


def _address() -> str:
    return f"someone.{uuid.uuid4().hex[:10]}@example.org"


def _client(user=None) -> APIClient:
    ip = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    client = APIClient(REMOTE_ADDR=ip)
    if user is not None:
        client.force_authenticate(user)
    return client


def _links() -> list[dict[str, str]]:
    return [LINK.search(m.body).groupdict() for m in mail.outbox if LINK.search(m.body)]


def test_an_address_given_at_sign_up_is_sent_a_link_and_confirmed_once(
    django_capture_on_commit_callbacks,
):
    address = _address()
    with django_capture_on_commit_callbacks(execute=True):
        response = _client().post(
            "/api/auth/register", {"username": "dora", "password": PASSWORD, "email": address}
        )
    assert response.status_code == 201 and response.json()["email_verified"] is False
    (link,) = _links()
    assert mail.outbox[0].to == [address]
    confirmed = _client().post("/api/auth/email-confirm", link)
    assert confirmed.status_code == 200 and confirmed.json()["email_verified"] is True
    again = _client().post("/api/auth/email-confirm", link)
    assert again.status_code == 400 and again.json()["code"] == "bad_confirm_link"


def test_no_link_to_choose_a_password_goes_to_an_unconfirmed_address(
    django_capture_on_commit_callbacks,
):
    user = UserFactory(email=_address(), email_verified=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = _client().post("/api/auth/password-reset", {"email": user.email})
    assert response.status_code == 202 and mail.outbox == []


def test_a_new_address_is_unconfirmed_and_the_old_addresss_link_stops_working(
    django_capture_on_commit_callbacks,
):
    user = UserFactory(email=_address(), email_verified=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert _client(user).post("/api/me/email-confirmation").status_code == 202
    (old_link,) = _links()
    mail.outbox.clear()
    user.email_verified = True
    user.save()
    with django_capture_on_commit_callbacks(execute=True):
        patched = _client(user).patch("/api/me", {"email": _address()}, format="json")
    assert patched.status_code == 200 and patched.json()["email_verified"] is False
    (new_link,) = _links()
    assert _client().post("/api/auth/email-confirm", old_link).status_code == 400
    assert _client().post("/api/auth/email-confirm", new_link).status_code == 200


def test_saving_the_same_address_keeps_it_confirmed_and_sends_nothing(
    django_capture_on_commit_callbacks,
):
    user = UserFactory(email=_address(), email_verified=True)
    with django_capture_on_commit_callbacks(execute=True):
        _client(user).patch("/api/me", {"email": user.email, "time_zone": "Asia/Tokyo"})
    user.refresh_from_db()
    assert user.email_verified and mail.outbox == []


@pytest.mark.parametrize(
    ("email", "verified", "code"), [("", False, "no_email"), (None, True, "email_verified")]
)
def test_asking_for_a_link_again_needs_an_unconfirmed_address(email, verified, code):
    user = UserFactory(email=_address() if email is None else email, email_verified=verified)
    response = _client(user).post("/api/me/email-confirmation")
    assert response.status_code == 409 and response.json()["code"] == code


def test_the_sites_link_shows_a_button_and_the_post_confirms(django_capture_on_commit_callbacks):
    browser = Client()
    with django_capture_on_commit_callbacks(execute=True):
        browser.post(
            "/signup/",
            {"username": "eve", "password": PASSWORD, "password2": PASSWORD, "email": _address()},
        )
    (link,) = _links()
    page = f"/confirm-email/{link['uid']}/{link['token']}/"
    assert b'id="confirm-email-form"' in browser.get(page).content
    assert not User.objects.get(username="eve").email_verified  # looking confirms nothing
    assert browser.post(page).status_code == 302
    assert User.objects.get(username="eve").email_verified
    assert browser.get(page).status_code == 400


def test_one_address_gets_a_few_links_an_hour_whoever_asks(
    throttle_rates, django_capture_on_commit_callbacks
):
    throttle_rates(email_confirm="2/hour")
    address = _address()
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            patched = _client(UserFactory()).patch("/api/me", {"email": address}, format="json")
        assert patched.status_code == 200  # the address is saved; past the limit, no link
    assert len(mail.outbox) == 2
    again = _client(UserFactory(email=address)).post("/api/me/email-confirmation")
    assert again.status_code == 429 and again.json()["code"] == "too_many_links"
