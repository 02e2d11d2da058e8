"""Schemathesis against the app's own OpenAPI schema, in process, with a token and without:
no answer is a server error, and every answer matches the schema (its status code is one the
operation documents, its content type and body are the documented ones). Bounded: a few examples per
operation (the suite's time budget); run more by hand with HYPOTHESIS settings or the CLI."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import token_create
from pente_site.wsgi import application
from tests.factories import UserFactory, make_game

#: Every operation's examples together take minutes, several operations over 5 s alone.
pytestmark = pytest.mark.slow

# The event streams are served by the ASGI server only (in process, under WSGI, they answer
# 503 streams_need_asgi): tests/live test them through the ASGI application.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).exclude(
    path_regex=r"/events/$"
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Calling the WSGI app directly closes the database connection when a request starts and ends,
    which would end the test's transaction; Django's test client switches that off the same way."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def token(db):
    alice = UserFactory(username="alice")
    make_game(players=[alice, UserFactory(username="bob")])
    return token_create(user=alice, name="schemathesis").key


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.parametrize("authenticated", [True, False], ids=["token", "anonymous"])
def test_no_answer_is_a_server_error_or_breaks_the_schema(case, token, authenticated):
    headers = {"Authorization": f"Token {token}"} if authenticated else {}
    case.call_and_validate(headers=headers, checks=CHECKS)
