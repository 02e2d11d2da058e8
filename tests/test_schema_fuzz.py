"""Schemathesis against the app's own OpenAPI schema, in process: the schema is the contract.

Every operation (but the event streams, which only the ASGI server serves: tests/live test
them) is called with a token and without, on a database seeded with games in progress and
finished, finished rated sets (so ratings and leaderboards have rows), tournaments (one running,
one finished), challenges, chat lines and an import job. Schemathesis generates both valid and
invalid requests (its coverage phase: boundaries, missing and wrongly typed values; then
random ones) and every answer must pass every check of the pinned version that judges one
answer:

- ``not_a_server_error``: no 5xx;
- ``status_code_conformance``: the status is one the operation documents;
- ``content_type_conformance``, ``response_schema_conformance``,
  ``response_headers_conformance``: the body and headers are the documented ones;
- ``negative_data_rejection``: a request the schema forbids is refused (4xx), not accepted;
- ``missing_required_header``, ``unsupported_method``: a required header left out and a method
  the path does not declare (with a query parameter too) are refused.

``positive_data_acceptance`` is left out on purpose: it wants every request the schema allows
accepted, and no schema can state every rule (a legal move, an existing player's name, a
tournament's state), so the server's 400s for those are right.

The stateful test then follows links between operations (schemathesis infers them from the
schema: an id a list or a create returns is used by the operations that take it), with the
seeded data behind them.

Bounded and repeatable: Hypothesis is derandomized (the same examples every run), and
``SCHEMATHESIS_EXAMPLES`` (default ``DEFAULT_EXAMPLES``) sets the random examples per
operation, ``SCHEMATHESIS_STEPS`` the stateful scenarios. The module prints how long it took.
"""

from __future__ import annotations

import os
import time

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    missing_required_header,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from accounts.services import token_create
from games.records.models import ImportJob
from live.services import chat_say_game
from pente_site.wsgi import application
from tests.factories import ChallengeFactory, UserFactory, make_game
from tests.ratings.factories import play_set
from tests.tournaments.support import jobs_run, make_tournament, play_all, play_round

#: Every operation's examples together take minutes.
pytestmark = [pytest.mark.slow, pytest.mark.django_db]

DEFAULT_EXAMPLES = 5
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", DEFAULT_EXAMPLES))
STEPS = int(os.environ.get("SCHEMATHESIS_STEPS", 20))

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
    response_headers_conformance,
    negative_data_rejection,
    missing_required_header,
    unsupported_method,
]

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module", autouse=True)
def _report_the_time(request):
    """Prints how long the module took (collection aside) once it is done."""
    started = time.monotonic()
    yield
    line = f"schemathesis: {time.monotonic() - started:.1f} s ({EXAMPLES} examples an operation)"
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(f"\n{line}")


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Calling the WSGI app directly closes the database connection when a request starts and ends,
    which would end the test's transaction; Django's test client switches that off the same way."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def seed() -> str:
    """Games, sets, tournaments, challenges, chat and an import job; alice's token."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = make_game(players=[alice, bob])
    chat_say_game(author=alice, game=game, text="good luck")
    make_game(players=[bob, alice], variant="Go (9x9)")
    play_set(alice, bob, "player1")
    play_set(bob, alice, "draw", time_control="turn", days_per_move=3)
    ChallengeFactory(created_by=bob)
    with jobs_run():
        running = make_tournament(players=4)
        play_round(running)
        finished = make_tournament(players=3, format="round_robin")
        play_all(finished)
        make_tournament(players=2, start=False, format="single_elimination")
    ImportJob.objects.create(
        owner=alice, text="", status=ImportJob.Status.DONE, finished_at=timezone.now()
    )
    return token_create(user=alice, name="schemathesis").key


@pytest.fixture(scope="module")
def token(django_db_setup, django_db_blocker):
    """Seeded once for the module, in a transaction rolled back at its end: each test runs in
    a savepoint inside it (pytest-django's own atomic block), so a test's writes are undone and
    no other module sees the seed."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield seed()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@schema.parametrize()
@SETTINGS
@pytest.mark.parametrize("authenticated", [True, False], ids=["token", "anonymous"])
def test_every_answer_keeps_the_contract(case, token, authenticated):
    headers = {"Authorization": f"Token {token}"} if authenticated else {}
    case.call_and_validate(headers=headers, checks=CHECKS)


def test_linked_operations_keep_the_contract(token):
    """Schemathesis' state machine over the links it infers, with alice's token."""
    headers = {"Authorization": f"Token {token}"}

    class Linked(schema.as_state_machine()):
        # Each scenario starts from the seeded database and its writes are undone after it, so
        # that the answers a scenario's links draw from are the same when Hypothesis replays it
        # (else its data generation depends on the scenarios before: FlakyStrategyDefinition).
        def setup(self):
            self.scenario = transaction.atomic()
            self.scenario.__enter__()

        def teardown(self):
            transaction.set_rollback(True)
            self.scenario.__exit__(None, None, None)

        def get_call_kwargs(self, case):
            return {"headers": headers}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS, headers=headers)

    Linked.run(settings=settings(SETTINGS, max_examples=STEPS, stateful_step_count=10))
