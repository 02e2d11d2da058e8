"""The OpenAPI schema served by the app generates cleanly and every endpoint is in it."""

from __future__ import annotations

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
