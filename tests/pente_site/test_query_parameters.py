"""Each endpoint takes the query parameters its schema documents and refuses any other with a 400
``unknown_parameter`` (``pente_site.queryparams``), before it looks anything up."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Served by the ASGI server only: under WSGI they answer 503 before looking at their parameters.
STREAMS = re.compile(r"/events/$")


def _operations(client) -> list[tuple[str, str, set[str]]]:
    """``(method, path, documented query parameters)`` of every operation of the served schema."""
    schema = client.get("/api/schema/", {"format": "json"}).json()
    return [
        (method.upper(), path, {p["name"] for p in op.get("parameters", []) if p["in"] == "query"})
        for path, operations in schema["paths"].items()
        for method, op in operations.items()
        if method in ("get", "post", "put", "patch", "delete") and not STREAMS.search(path)
    ]


def _url(path: str) -> str:
    return re.sub(r"\{\w+\}", "999999", path)


@pytest.fixture
def staff() -> APIClient:
    api = APIClient()
    api.force_authenticate(UserFactory(is_staff=True))
    return api


def _send(api: APIClient, method: str, url: str, params: dict):
    query = "&".join(f"{name}={value}" for name, value in params.items())
    return api.generic(method, f"{url}?{query}", "{}", content_type="application/json")


def test_every_operation_refuses_a_query_parameter_it_does_not_document(client, staff):
    taken = []
    for method, path, _documented in _operations(client):
        response = _send(staff, method, _url(path), {"zzz": "1"})
        body = response.json() if response["Content-Type"].startswith("application/json") else {}
        if (response.status_code, body.get("code")) != (400, "unknown_parameter"):
            taken.append(f"{method} {path}: {response.status_code} {body.get('code')}")
    assert taken == []


def test_every_operation_takes_the_query_parameters_it_documents(client, staff):
    refused = []
    for method, path, documented in _operations(client):
        for name in sorted(documented):
            response = _send(staff, method, _url(path), {name: "1"})
            if response["Content-Type"].startswith("application/json"):
                if response.json().get("code") == "unknown_parameter":
                    refused.append(f"{method} {path} ?{name}")
    assert refused == []


def test_the_refusal_names_what_the_endpoint_takes(staff):
    body = staff.get("/api/games/999999/board.svg", {"plies": "3"}).json()
    assert body["code"] == "unknown_parameter"
    assert body["allowed"] == ["ply"]
    assert "plies" in body["fields"]


def test_a_refusal_comes_before_authentication():
    response = APIClient().get("/api/me/", {"verbose": "1"})
    assert (response.status_code, response.json()["code"]) == (400, "unknown_parameter")


def test_pages_of_the_site_are_left_alone(client):
    assert client.get("/", {"utm_source": "mail"}).status_code == 200
