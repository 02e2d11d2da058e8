"""Every list refuses a query parameter it does not take: 400 ``unknown_parameter`` naming it
(``?position=`` on the game list used to be ignored silently)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.factories import UserFactory, make_game
from tests.tournaments.support import make_tournament

pytestmark = pytest.mark.django_db

ENDPOINTS = [
    "/api/games/",
    "/api/games/records",
    "/api/challenges/",
    "/api/challenges/open/",
    "/api/challenges/incoming/",
    "/api/challenges/outgoing/",
    "/api/players/",
    "/api/bots/",
    "/api/me/tokens",
    "/api/tournaments/",
    "/api/tournaments/{tournament}/rounds/",
    "/api/tournaments/{tournament}/standings/",
    "/api/players/{player}/ratings/",
    "/api/players/{player}/ratings/history?game=Pente&category=normal",
    "/api/leaderboards/?game=Pente",
    "/api/leaderboards/rank?game=Pente&player={player}",
]


@pytest.fixture
def client():
    user = UserFactory(username="alice")
    make_game(players=[user, UserFactory()])
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_an_unknown_query_parameter_is_a_400_that_names_it(client, endpoint):
    tournament = make_tournament(players=2)
    url = endpoint.format(tournament=tournament.pk, player="alice")
    url += ("&" if "?" in url else "?") + "position=K10"
    response = client.get(url)
    assert response.status_code == 400, (url, response.content)
    body = response.json()
    assert body["code"] == "unknown_parameter" and "'position'" in body["detail"]
    assert "position" in body["fields"]


def test_the_parameters_a_list_takes_still_work(client):
    assert (
        client.get("/api/games/", {"player": "alice", "ordering": "-id", "page": 1}).status_code
        == 200
    )
    assert client.get("/api/tournaments/", {"format": "swiss", "page_size": 5}).status_code == 200
    assert client.get("/api/challenges/", {"variant": "Pente"}).status_code == 200
    assert client.get("/api/players/", {"search": "al", "computer": "false"}).status_code == 200
