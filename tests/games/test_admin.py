"""The operators' admin: accounts are banned, never deleted outright (their games are their
opponents' too)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.challenges.models import Challenge
from tests.factories import ChallengeFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_an_account_cannot_be_deleted_from_the_admin(operator):
    player = UserFactory()
    page = operator.get(f"/admin/accounts/user/{player.pk}/change/").content.decode()
    assert f"/admin/accounts/user/{player.pk}/delete/" not in page
    assert (
        operator.post(f"/admin/accounts/user/{player.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert User.objects.filter(pk=player.pk).exists()


def test_the_ban_action_deactivates_and_what_follows_a_ban_happens(operator):
    player = UserFactory()
    challenge = ChallengeFactory(created_by=player)
    response = operator.post(
        "/admin/accounts/user/", {"action": "ban", "_selected_action": [player.pk]}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert not player.is_active
    assert Challenge.objects.get(pk=challenge.pk).status == "cancelled"
    operator.post("/admin/accounts/user/", {"action": "unban", "_selected_action": [player.pk]})
    player.refresh_from_db()
    assert player.is_active
