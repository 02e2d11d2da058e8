"""The vacation endpoints (games.clocks.views). This module is its own URLconf, so the tests
do not depend on where games/urls.py mounts the view."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import re_path
from django.utils import timezone
from rest_framework.test import APIClient

from games.clocks import views as clock_views
from tests.factories import UserFactory, make_game

urlpatterns = [
    re_path(r"^api/me/vacation/?$", clock_views.VacationView.as_view(), name="me-vacation"),
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_get_vacation_shows_this_years_balance():
    user = UserFactory(vacation_hours_left=100, vacation_year=timezone.now().year)
    response = client_for(user).get("/api/me/vacation")
    assert response.status_code == 200
    assert response.json()["hours_left"] == 100
    assert response.json()["year"] == timezone.now().year


def test_get_vacation_needs_a_logged_in_user():
    response = APIClient().get("/api/me/vacation")
    assert response.status_code in (401, 403)
    assert set(response.json()) == {"code", "detail"}


def test_post_vacation_pushes_my_turn_based_deadline_and_spends_hours():
    p1, p2 = UserFactory(), UserFactory()
    game = make_game(players=[p1, p2], time_control="turn", days_per_move=2)
    before = game.deadline
    response = client_for(p2).post("/api/me/vacation", {"hours": 48}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    game.refresh_from_db()
    assert body["hours_left"] == 192
    assert body["hours_spent"] == 48
    assert [g["id"] for g in body["games"]] == [game.pk]
    assert game.deadline - before >= timedelta(hours=48)
    p2.refresh_from_db()
    assert p2.vacation_hours_left == 192


def test_post_vacation_refuses_more_hours_than_left():
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=3, vacation_year=timezone.now().year)
    make_game(players=[p1, p2], time_control="turn", days_per_move=2)
    response = client_for(p2).post("/api/me/vacation", {"hours": 4}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "not_enough_vacation"


def test_post_vacation_without_a_game_to_pause_is_a_conflict():
    user = UserFactory()
    response = client_for(user).post("/api/me/vacation", {"hours": 4}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "no_games_to_pause"
    user.refresh_from_db()
    assert user.vacation_hours_left == 240


@pytest.mark.parametrize("body", [{"hours": 0}, {"hours": "many"}, {}])
def test_post_vacation_validates_the_hours(body):
    response = client_for(UserFactory()).post("/api/me/vacation", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
