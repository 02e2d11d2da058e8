"""The OpenAPI schema states the rules the server enforces, and the server refuses what the
schema forbids: one test for each disagreement schemathesis found (``tests/test_schema_fuzz.py``
runs it against every operation), and a guard that every text field of every serializer refuses
what is not text."""

from __future__ import annotations

import importlib
import json
import pkgutil

import pytest
from django.apps import apps
from rest_framework import serializers
from rest_framework.test import APIClient

from accounts.services import token_create
from pente_site.fields import StrictStringMixin
from tests.factories import UserFactory, make_game
from tests.tournaments.support import make_tournament

pytestmark = pytest.mark.django_db

#: The serializers of these packages (with their sub-packages).
APPS = ("accounts", "games", "ratings", "tournaments", "live", "explorer", "web", "pente_site")


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def _operations(schema: dict):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "responses" in operation:
                yield path, method, operation


def _query(operation: dict, name: str) -> dict | None:
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "query" and parameter["name"] == name:
            return parameter
    return None


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def authed(alice) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=alice, name='t').key}")
    return client


# --- what the schema states ------------------------------------------------------------------


def test_every_page_page_size_and_limit_starts_at_one(schema):
    seen = 0
    for path, method, operation in _operations(schema):
        for name in ("page", "page_size", "limit"):
            parameter = _query(operation, name)
            if parameter is not None:
                seen += 1
                assert parameter["schema"].get("minimum") == 1, (method, path, name)
    assert seen > 20


@pytest.mark.parametrize(
    "path",
    [
        "/api/leaderboards/",
        "/api/leaderboards/rank/",
        "/api/leaderboards/computers/",
        "/api/players/{username}/ratings/history/",
        "/api/players/{username}/ratings/history.svg",
    ],
)
def test_the_game_is_a_required_parameter_of_ratings_boards(schema, path):
    game = _query(schema["paths"][path]["get"], "game")
    assert game["required"] is True
    assert game["schema"]["minLength"] == 1


def test_unstated_rules_are_in_the_schema(schema):
    components = schema["components"]["schemas"]
    challenge = components["ChallengeInRequest"]["properties"]
    assert (challenge["days_per_move"]["minimum"], challenge["days_per_move"]["maximum"]) == (0, 30)
    assert "1 to 30" in challenge["days_per_move"]["description"]
    for name in ("RegisterInRequest", "PatchedProfilePatchInRequest"):
        weekend = components[name]["properties"]["weekend_days"]
        assert weekend["items"] == {"type": "integer", "minimum": 0, "maximum": 6}
        assert weekend["uniqueItems"] is True
    explorer = schema["paths"]["/api/games/explorer/"]["get"]
    assert "Not with position" in _query(explorer, "moves")["description"]
    svg = schema["paths"]["/api/games/{id}/board.svg"]["get"]
    ply = _query(svg, "ply")
    assert ply["schema"]["minimum"] == 0 and "bad_ply" in ply["description"]


def test_an_elimination_has_no_trf_as_documented(schema):
    trf = schema["paths"]["/api/tournaments/{id}/trf/"]["get"]
    assert "no_trf" in trf["responses"]["409"]["description"]
    t = make_tournament(players=2, start=False, format="single_elimination")
    response = APIClient().get(f"/api/tournaments/{t.pk}/trf/")
    assert response.status_code == 409
    assert response.json()["code"] == "no_trf"


@pytest.mark.parametrize("path", ["bracket/", "bracket.svg"])
def test_a_swiss_has_no_bracket_as_documented(schema, path):
    operation = schema["paths"][f"/api/tournaments/{{id}}/{path}"]["get"]
    assert "no_bracket" in operation["responses"]["409"]["description"]
    t = make_tournament(players=2, start=False)
    response = APIClient().get(f"/api/tournaments/{t.pk}/{path}")
    assert response.status_code == 409
    assert response.json()["code"] == "no_bracket"


def test_a_round_of_other_digits_is_a_400_not_a_500():
    t = make_tournament(players=2, start=False)
    response = APIClient().get(f"/api/tournaments/{t.pk}/trf/", {"round": "\u00b2"})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_round"


# --- what the server refuses -----------------------------------------------------------------


def test_an_import_body_that_is_a_json_string_is_refused(authed):
    response = authed.post("/api/games/import/", '"AAA"', content_type="application/json")
    assert response.status_code == 400, response.content


def test_an_import_as_plain_text_or_an_object_is_still_taken(authed):
    for body, content_type in (("AAA", "text/plain"), ('{"text": "AAA"}', "application/json")):
        response = authed.post("/api/games/import/", body, content_type=content_type)
        assert response.status_code == 202, response.content


@pytest.mark.parametrize("name", [0, 1.5, True, None, [], {}])
def test_a_token_name_that_is_not_text_is_refused(authed, name):
    response = authed.post("/api/me/tokens/", {"name": name}, format="json")
    assert response.status_code == 400, response.content


def test_a_token_name_that_is_text_is_taken(authed):
    response = authed.post("/api/me/tokens/", {"name": "laptop"}, format="json")
    assert response.status_code == 201


@pytest.mark.parametrize("text", [5, False])
def test_game_chat_text_that_is_not_text_is_refused(authed, alice, text):
    game = make_game(players=[alice, UserFactory()])
    response = authed.post(f"/api/games/{game.pk}/chat/", {"text": text}, format="json")
    assert response.status_code == 400, response.content
    assert "must be text" in json.dumps(response.json())


def test_a_form_body_is_text_and_still_taken(authed):
    response = authed.post("/api/me/tokens/", {"name": "0"})
    assert response.status_code == 201


@pytest.mark.parametrize("name", ["date_after", "date_before", "rated", "set", "status"])
def test_an_empty_filter_value_is_a_400_that_says_so(name):
    response = APIClient().get("/api/games/", {name: ""})
    assert response.status_code == 400, response.content
    assert "is empty" in json.dumps(response.json())


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/api/games/imports/", {"status": ""}),
        ("/api/players/", {"computer": ""}),
        ("/api/games/explorer/", {"game": "Pente", "date_after": ""}),
    ],
)
def test_an_empty_query_parameter_read_by_a_serializer_is_a_400(authed, path, query):
    response = authed.get(path, query)
    assert response.status_code == 400, response.content
    assert "is empty" in json.dumps(response.json())


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/api/players/", {"computer": "null"}),
        ("/api/games/explorer/", {"game": "Pente", "rated": "null"}),
    ],
)
def test_null_is_no_boolean(path, query):
    response = APIClient().get(path, query)
    assert response.status_code == 400, response.content


def test_an_empty_text_filter_is_no_filter():
    assert APIClient().get("/api/games/", {"player": ""}).status_code == 200


def _serializer_modules():
    for name in APPS:
        package = importlib.import_module(name)
        yield package
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
            if info.name.rsplit(".", 1)[-1] in ("serializers", "views", "filters"):
                yield importlib.import_module(info.name)


def _text_fields(field: serializers.Field, where: str):
    if isinstance(field, serializers.ListSerializer):
        yield from _text_fields(field.child, where)
    elif isinstance(field, serializers.Serializer):
        for name, inner in field.fields.items():
            if not inner.read_only:
                yield from _text_fields(inner, f"{where}.{name}")
    elif isinstance(field, serializers.ListField | serializers.DictField):
        yield from _text_fields(field.child, f"{where}[]")
    elif isinstance(field, serializers.CharField):
        yield where, field


def test_every_text_field_of_every_serializer_refuses_what_is_not_text():
    """DRF's ``CharField`` reads ``0`` as ``"0"``; ``pente_site.fields`` has the strict ones."""
    assert apps.ready
    modules = {module.__name__ for module in _serializer_modules()}
    found, lenient = 0, []

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    for cls in set(subclasses(serializers.Serializer)):
        if cls.__module__ not in modules:
            continue
        try:
            instance = cls()
        except TypeError:  # a serializer that needs arguments to be built
            continue
        for where, field in _text_fields(instance, f"{cls.__module__}.{cls.__qualname__}"):
            found += 1
            if not isinstance(field, StrictStringMixin):
                lenient.append(where)
    assert found > 30
    assert not lenient, f"text fields that read a number as text: {lenient}"
