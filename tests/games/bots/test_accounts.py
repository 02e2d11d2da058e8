"""The computer opponents' accounts: ``manage.py bots_create`` and ``GET /api/bots/``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import include, path
from rest_framework.test import APIClient

from accounts.models import User
from games.bots.accounts import bots_ensure
from games.engine import GAMES

urlpatterns = [path("api/", include("games.bots.urls"))]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def bots_create() -> str:
    out = StringIO()
    call_command("bots_create", stdout=out)
    return out.getvalue()


def test_the_command_creates_eight_computers_one_per_level():
    output = bots_create()
    bots = list(User.objects.filter(bot_level__isnull=False).order_by("bot_level"))
    assert [(u.username, u.bot_level) for u in bots] == [(f"computer{n}", n) for n in range(1, 9)]
    assert all(u.is_computer and u.is_active and not u.has_usable_password() for u in bots)
    assert "computer8: level 8" in output


def test_the_command_is_idempotent_and_repairs_the_accounts():
    first = bots_create()
    User.objects.filter(username="computer5").update(is_active=False, bot_level=None)
    user = User.objects.get(username="computer2")
    user.set_password("guessable")
    user.save()
    assert bots_create() == first
    assert User.objects.filter(bot_level__isnull=False).count() == 8
    assert User.objects.filter(username__startswith="computer").count() == 8
    assert User.objects.get(username="computer5").is_active
    assert User.objects.get(username="computer5").bot_level == 5
    assert not User.objects.get(username="computer2").has_usable_password()
    assert [u.pk for u in bots_ensure()] == list(
        User.objects.filter(bot_level__isnull=False)
        .order_by("bot_level")
        .values_list("pk", flat=True)
    )


def test_the_list_shows_the_computers_with_their_levels_and_games():
    bots_create()
    User.objects.create(username="marked", is_computer=True)  # a player's own computer: not listed
    response = APIClient().get("/api/bots/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["count"] == 8
    first, last = body["results"][0], body["results"][-1]
    assert first["username"] == "computer1" and first["level"] == 1
    assert last["username"] == "computer8" and last["level"] == 8
    assert first["games"] == list(GAMES) and "Pente" in first["games"] and "Go" in first["games"]
    assert 0 < first["think_seconds"] < last["think_seconds"]


def test_the_list_is_paginated():
    bots_create()
    body = APIClient().get("/api/bots", {"page_size": 3, "page": 2}).json()
    assert [bot["level"] for bot in body["results"]] == [4, 5, 6]
    assert body["count"] == 8 and body["next"] and body["previous"]


def test_an_unknown_parameter_is_a_400():
    response = APIClient().get("/api/bots/", {"level": 3})
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_parameter"
