"""Every list refuses a query parameter it does not take: 400 ``unknown_parameter`` naming it
(``?position=`` on the game list used to be ignored silently). ``ENDPOINTS`` names them by
hand; ``test_every_list_in_the_schema_refuses_an_unknown_parameter`` finds every list (and
every endpoint that takes query parameters) in the OpenAPI schema, so a new one is covered
without being listed."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.factories import UserFactory, make_game
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


def _schema_endpoints() -> list[str]:
    """GET paths of the schema that answer a list (an array, or a page with ``results``) or
    take query parameters."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    paths = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None:
            continue
        content = get["responses"].get("200", {}).get("content", {})
        body = next(iter(content.values()), {}).get("schema", {})
        while "$ref" in body:
            body = components[body["$ref"].rsplit("/", 1)[-1]]
        is_list = body.get("type") == "array" or "results" in body.get("properties", {})
        takes = any(p["in"] == "query" for p in get.get("parameters", []))
        if is_list or takes:
            paths.append(path)
    return paths


SCHEMA_ENDPOINTS = _schema_endpoints()


@pytest.mark.parametrize("path", SCHEMA_ENDPOINTS)
def test_every_list_in_the_schema_refuses_an_unknown_parameter(client, path):
    user = UserFactory(username="carol")
    game = make_game(players=[user, UserFactory()])
    tournament = make_tournament(players=2)
    url = path.format(
        id=tournament.pk if path.startswith("/api/tournaments/") else game.pk,
        username="carol",
        user_id=user.pk,
        name="main",
        challenge_id=1,
        slug="pente-turn",
    )
    response = client.get(url, {"zz_unknown": "1"})
    assert response.status_code == 400, (url, response.status_code, response.content[:300])
    body = response.json()
    assert body["code"] == "unknown_parameter" and "'zz_unknown'" in body["detail"]


@pytest.mark.parametrize(
    "query", ["page=abc", "page=0", "page=-1", "page=null", "page_size=0", "page_size=ten"]
)
def test_a_page_or_page_size_that_is_not_a_whole_number_from_one_is_a_400(client, query):
    response = client.get(f"/api/games/?{query}")
    assert response.status_code == 400 and response.json()["code"] == "bad_page"


def test_a_page_past_the_last_is_a_404_with_its_own_code(client):
    response = client.get("/api/games/?page=99")
    assert response.status_code == 404 and response.json()["code"] == "no_such_page"


def test_the_last_page_may_be_asked_for_by_name(client):
    response = client.get("/api/games/?page=last&page_size=1")
    assert response.status_code == 200 and len(response.json()["results"]) == 1
