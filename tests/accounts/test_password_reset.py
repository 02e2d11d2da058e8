"""Forgotten passwords: a link e-mailed by a job, a new password chosen with it (the API and the
site's pages), the same answer for an address with no account, and limits per address."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core import mail
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from accounts.services import token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a brand new password 7"
LINK = re.compile(r"http://testserver/reset/(?P<uid>[^/\s]+)/(?P<token>[^/\s]+)/")


@pytest.fixture(autouse=True)
def _named_hosts(settings):
    """The server's names are listed (links may take the request's host), as in production
    without ``PUBLIC_URL``; the tests below that need ``*`` say so."""
    settings.ALLOWED_HOSTS = ["testserver", "evil.example", "127.0.0.1"]


def _client() -> APIClient:
    ip = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    return APIClient(REMOTE_ADDR=ip)


@pytest.fixture
def ann():
    """An account with an address of its own (the limits per address are counted in the cache,
    which outlives a test when it is Redis)."""
    return UserFactory(
        username="ann", email=f"Ann.{uuid.uuid4().hex[:10]}@Example.org", email_verified=True
    )


def _ask(client, email: str, capture):
    with capture(execute=True):
        return client.post("/api/auth/password-reset", {"email": email})


def _link() -> dict[str, str]:
    (message,) = mail.outbox
    return LINK.search(message.body).groupdict()


def test_asking_emails_a_link_to_the_account_with_that_address_in_any_case(
    ann, django_capture_on_commit_callbacks
):
    response = _ask(_client(), ann.email.lower(), django_capture_on_commit_callbacks)
    assert response.status_code == 202
    (message,) = mail.outbox
    assert message.to == [ann.email] and "ann" in message.subject
    assert LINK.search(message.body)


def test_an_address_without_an_account_gets_the_same_answer_and_no_email(
    ann, django_capture_on_commit_callbacks
):
    known = _ask(_client(), ann.email, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    unknown = _ask(
        _client(), f"nobody.{uuid.uuid4().hex}@example.org", django_capture_on_commit_callbacks
    )
    assert unknown.status_code == known.status_code == 202
    assert unknown.json() == known.json()
    assert mail.outbox == []


def test_the_request_itself_sends_nothing_the_job_does_after_the_commit(ann):
    response = _client().post("/api/auth/password-reset", {"email": ann.email})
    assert response.status_code == 202
    assert mail.outbox == []  # the on-commit callbacks of this test's transaction never ran


def test_the_link_sets_a_new_password_once(ann, django_capture_on_commit_callbacks):
    _ask(_client(), ann.email, django_capture_on_commit_callbacks)
    link = _link()
    client = _client()
    response = client.post("/api/auth/password-reset/confirm", {**link, "password": NEW_PASSWORD})
    assert response.status_code == 200 and response.json()["username"] == "ann"
    ann.refresh_from_db()
    assert ann.check_password(NEW_PASSWORD)
    again = client.post(
        "/api/auth/password-reset/confirm", {**link, "password": "yet another password 8"}
    )
    assert again.status_code == 400 and again.json()["code"] == "bad_reset_link"


def test_a_reset_revokes_every_api_token_and_ends_every_other_session(
    ann, client, django_capture_on_commit_callbacks
):
    """Whoever had got in (a stolen token, a session left open) is out after a reset."""
    keys = [token_create(user=ann, name=name).key for name in ("laptop", "phone")]
    client.force_login(ann)
    assert client.get("/api/me").status_code == 200
    _ask(_client(), ann.email, django_capture_on_commit_callbacks)
    response = _client().post(
        "/api/auth/password-reset/confirm", {**_link(), "password": NEW_PASSWORD}
    )
    assert response.status_code == 200
    for key in keys:
        refused = _client().get("/api/me", HTTP_AUTHORIZATION=f"Token {key}")
        assert refused.status_code == 401
    assert not ApiToken.objects.filter(user=ann).exists()
    assert client.get("/api/me").status_code in (401, 403)


def test_a_password_changed_with_the_current_one_keeps_the_tokens(ann):
    """Signed in, the owner sees their tokens and revokes the ones they choose."""
    key = token_create(user=ann).key
    ann.set_password("the old password 5")
    ann.save()
    response = _client().patch(
        "/api/me",
        {"password": NEW_PASSWORD, "current_password": "the old password 5"},
        HTTP_AUTHORIZATION=f"Token {key}",
        format="json",
    )
    assert response.status_code == 200
    assert _client().get("/api/me", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200


def test_with_public_url_set_the_link_ignores_the_host_the_request_named(
    ann, settings, django_capture_on_commit_callbacks
):
    """A stranger asking for someone's link with ``Host: evil.example`` must not get the
    token sent to their own site."""
    settings.PUBLIC_URL = "https://pente.example.org"
    client = _client()
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/api/auth/password-reset", {"email": ann.email}, HTTP_HOST="evil.example")
    (message,) = mail.outbox
    assert "https://pente.example.org/reset/" in message.body
    assert "evil.example" not in message.body + message.subject


def test_a_made_up_link_is_refused(ann):
    response = _client().post(
        "/api/auth/password-reset/confirm",
        {"uid": "MQ", "token": "abc-123", "password": NEW_PASSWORD},
    )
    assert response.status_code == 400 and response.json()["code"] == "bad_reset_link"


def test_a_weak_new_password_is_refused_and_the_old_one_stays(
    ann, django_capture_on_commit_callbacks
):
    _ask(_client(), ann.email, django_capture_on_commit_callbacks)
    response = _client().post("/api/auth/password-reset/confirm", {**_link(), "password": "x"})
    assert response.status_code == 400 and response.json()["code"] == "bad_password"
    ann.refresh_from_db()
    assert not ann.check_password("x")


def test_links_for_one_address_are_limited(ann, throttle_rates):
    throttle_rates(password_reset="2/hour")
    statuses = [
        _client().post("/api/auth/password-reset", {"email": ann.email}).status_code
        for _ in range(3)
    ]
    assert statuses == [202, 202, 429]


# --- the site's pages ------------------------------------------------------------------------


def test_the_sign_in_page_leads_to_the_forgotten_password_page(client):
    assert b'href="/password-reset/"' in client.get("/login/").content


def test_the_site_emails_a_link_and_its_page_sets_the_password_and_signs_in(
    client, ann, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/password-reset/", {"email": ann.email})
    assert b'id="password-reset-sent"' in response.content
    link = _link()
    page = f"/reset/{link['uid']}/{link['token']}/"
    assert b'id="new-password-form"' in client.get(page).content
    done = client.post(page, {"password": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/"
    home = client.get("/").content
    assert b'id="me"' in home and b"API tokens of this account were revoked" in home
    ann.refresh_from_db()
    assert ann.check_password(NEW_PASSWORD)
    used = client.get(page)
    assert used.status_code == 400 and b'id="bad-reset-link"' in used.content


def test_the_site_says_the_same_for_an_address_without_an_account(client):
    response = client.post("/password-reset/", {"email": f"nobody.{uuid.uuid4().hex}@example.org"})
    assert b'id="password-reset-sent"' in response.content


def test_signing_up_on_the_site_keeps_the_email_for_a_forgotten_password(client):
    client.post(
        "/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )
    assert User.objects.get(username="newcomer").email == "newcomer@example.org"


@pytest.mark.parametrize("host", ["evil.example", "pente.example.org:8000"])
def test_with_any_host_allowed_and_no_public_url_no_link_takes_the_requests_host(
    ann, settings, django_capture_on_commit_callbacks, host
):
    settings.ALLOWED_HOSTS, settings.DEBUG, settings.PUBLIC_URL = ["*"], False, ""
    client = _client()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/auth/password-reset", {"email": ann.email}, HTTP_HOST=host)
    assert response.status_code == 503 and response.json()["code"] == "public_url_unset"
    assert mail.outbox == []


def test_with_any_host_allowed_this_machines_own_name_still_gets_links(
    ann, settings, django_capture_on_commit_callbacks
):
    settings.ALLOWED_HOSTS, settings.DEBUG, settings.PUBLIC_URL = ["*"], False, ""
    with django_capture_on_commit_callbacks(execute=True):
        response = _client().post(
            "/api/auth/password-reset", {"email": ann.email}, HTTP_HOST="127.0.0.1:8000"
        )
    assert response.status_code == 202
    (message,) = mail.outbox
    assert "http://127.0.0.1:8000/reset/" in message.body


def test_the_sites_page_says_so_when_no_link_can_be_sent(ann, settings, client):
    settings.ALLOWED_HOSTS, settings.DEBUG, settings.PUBLIC_URL = ["*"], False, ""
    response = client.post("/password-reset/", {"email": ann.email}, HTTP_HOST="evil.example")
    assert response.status_code == 200 and b"PUBLIC_URL" in response.content
    assert mail.outbox == []
