"""The OpenAPI schema served by the app generates cleanly and every endpoint is in it."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command


def test_openapi_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for path in (
        "/api/games/{id}/moves",
        "/api/challenges/",
        "/api/leaderboards/",
        "/api/tournaments/",
    ):
        assert path in text


@pytest.mark.django_db
def test_schema_and_interactive_docs_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.django_db
def test_usernames_in_the_schema_admit_every_name_the_server_accepts(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    text = json.dumps(schema)
    assert r"^[\\w.@+-]+$" not in text  # an ECMA \w is ASCII only
    player = schema["paths"]["/api/players/{username}/"]["get"]["parameters"][0]
    assert "pattern" not in player["schema"] and "any script" in player["schema"]["description"]
    registered = client.post(
        "/api/auth/register",
        {"username": "Jörg_Łukasz", "password": "a long enough password 1"},
        content_type="application/json",
    )
    assert registered.status_code == 201, registered.content
    assert client.get("/api/players/Jörg_Łukasz/").status_code == 200


@pytest.mark.django_db
def test_a_game_actions_409_may_come_without_the_game(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    stale = schema["components"]["schemas"]["StaleError"]
    assert stale["required"] == ["code", "detail"]


@pytest.mark.django_db
def test_a_tournament_s_initial_colour_may_be_empty_as_the_answers_give_it(client):
    """Until it is drawn by lot at the start, a tournament's ``initial_colour`` is ``""``."""
    schema = client.get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    for name in ("Tournament", "TournamentDetail"):
        field = components[name]["properties"]["initial_colour"]
        admitted = set()
        for option in field.get("oneOf", field.get("allOf", [])):
            admitted |= set(components[option["$ref"].rsplit("/", 1)[-1]]["enum"])
        assert admitted == {"", "white", "black"}, name


def _operations(client) -> list[tuple[str, dict]]:
    """``("GET /api/...", operation)`` for every operation of the served schema."""
    schema = client.get("/api/schema/", {"format": "json"}).json()
    return [
        (f"{method.upper()} {path}", operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


@pytest.mark.django_db
def test_every_operation_in_the_schema_says_what_it_does(client):
    """The interactive docs are what an app developer reads first: no endpoint is a bare name."""
    bare = [
        name
        for name, operation in _operations(client)
        if not (operation.get("description") or operation.get("summary"))
    ]
    assert bare == []


@pytest.mark.django_db
def test_every_query_parameter_in_the_schema_is_explained(client):
    bare = [
        f"{name} ?{parameter['name']}"
        for name, operation in _operations(client)
        for parameter in operation.get("parameters", [])
        if parameter.get("in") == "query" and not parameter.get("description")
    ]
    assert bare == []


@pytest.mark.django_db
def test_every_operation_documents_the_refusals_it_may_answer(client):
    for name, operation in _operations(client):
        codes = set(operation["responses"])
        assert {"400", "401", "403", "429"} <= codes, name
        if any(p["in"] == "path" for p in operation.get("parameters", [])):
            assert "404" in codes, name
        if "requestBody" in operation:
            assert {"409", "413", "415"} <= codes, name


@pytest.mark.django_db
def test_the_event_streams_and_the_rating_chart_are_in_the_schema(client):
    names = {name for name, _operation in _operations(client)}
    assert {
        "GET /api/games/{id}/events/",
        "GET /api/me/events/",
        "GET /api/rooms/{name}/events/",
        "GET /api/players/{username}/ratings/history.svg",
    } <= names
