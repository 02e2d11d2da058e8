"""Regression tests of the API QA pass: requests that used to give a 500 or an error body that
was not ``{"code": ..., "detail": ...}``. Each test names the request that broke."""

from __future__ import annotations

import pytest
from django.db import DataError
from django.test import RequestFactory, override_settings
from django.urls import include, path
from rest_framework.test import APIClient

from games.play.models import Game, Seat
from pente_site import api
from tests.clients import client_for
from tests.factories import GameFactory, GameSetFactory, UserFactory, make_game
from tests.games.records.importing import import_job

pytestmark = pytest.mark.django_db

# This module doubles as a root URLconf with the JSON handlers wired in (see the handler tests).
urlpatterns = [path("", include("pente_site.urls"))]
handler404 = "pente_site.api.handler404"
handler500 = "pente_site.api.handler500"

BIG_ID = "99999999999999999999999999"


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert isinstance(body.get("code"), str) and isinstance(body.get("detail"), str), body
    if code is not None:
        assert body["code"] == code, body
    return body


# --- game database filters ------------------------------------------------------------------


def test_set_filter_beyond_the_id_range_is_a_400_not_an_sqlite_overflow():
    assert_error(client_for().get("/api/games/", {"set": BIG_ID}), 400, "invalid")
    assert_error(client_for().get("/api/games/records", {"set": BIG_ID}), 400, "invalid")


def test_set_filter_refuses_a_fraction():
    body = assert_error(client_for().get("/api/games/", {"set": "-1.5"}), 400, "invalid")
    assert "set" in body["fields"]


def test_set_filter_still_finds_the_games_of_a_set():
    game_set = GameSetFactory()
    in_set = GameFactory(game_set=game_set)
    GameFactory()
    body = client_for().get("/api/games/", {"set": str(game_set.pk)}).json()
    assert [g["id"] for g in body["results"]] == [in_set.pk]


@pytest.mark.parametrize("name", ["rated", "imported"])
@pytest.mark.parametrize("value", ["maybe", "2", "yes please"])
def test_boolean_filters_refuse_words_that_are_not_booleans(name, value):
    body = assert_error(client_for().get("/api/games/", {name: value}), 400, "invalid")
    assert name in body["fields"]


def test_boolean_filters_accept_true_false_one_zero_in_any_case():
    make_game(players=[UserFactory(), UserFactory()])
    for value, expected in [("TRUE", 0), ("false", 1), ("1", 0), ("0", 1)]:
        response = client_for().get("/api/games/", {"imported": value})
        assert response.status_code == 200
        assert response.json()["count"] == expected, value


def test_an_empty_boolean_filter_is_refused_not_ignored():
    response = client_for().get("/api/games/", {"imported": ""})
    assert response.status_code == 400
    assert "imported" in response.json()["detail"]


# --- request bodies ---------------------------------------------------------------------------


@pytest.fixture
def game():
    return make_game(players=[UserFactory(username="alice"), UserFactory(username="bob")])


def test_json_nested_too_deeply_is_a_400_not_a_recursion_error(game):
    bob = game.seat_rows.get(seat=2).user
    body = b'{"ply": 1, "points": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    response = client_for(bob).post(
        f"/api/games/{game.pk}/moves", data=body, content_type="application/json"
    )
    assert_error(response, 400, "malformed_request")


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_json_body_over_the_upload_limit_is_a_413_with_a_code():
    response = client_for(UserFactory()).post(
        "/api/games/import", {"text": "x" * 2000}, format="json"
    )
    assert_error(response, 413, "request_too_large")


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_plain_text_import_over_the_upload_limit_is_a_413():
    response = client_for(UserFactory()).post(
        "/api/games/import", "x" * 2000, content_type="text/plain"
    )
    assert_error(response, 413, "request_too_large")
    assert Game.objects.count() == 0


@override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=5)
def test_form_with_too_many_fields_is_a_400_with_a_code(game):
    bob = game.seat_rows.get(seat=2).user
    form = "&".join(f"f{i}=1" for i in range(50))
    response = client_for(bob).post(
        f"/api/games/{game.pk}/moves",
        data=form,
        content_type="application/x-www-form-urlencoded",
    )
    assert_error(response, 400, "bad_request")


# --- import -----------------------------------------------------------------------------------


def test_import_refuses_a_nul_character_in_plain_text():
    text = '[Game "Pente"]\n[Player 1 Name "a\x00b"]\n\n1. K10 *\n'
    response = client_for(UserFactory()).post("/api/games/import", text, content_type="text/plain")
    assert_error(response, 400, "bad_record")
    assert Game.objects.count() == 0


def test_import_cuts_a_player_name_longer_than_the_column():
    text = f'[Game "Pente"]\n[Player 1 Name "{"x" * 5000}"]\n\n1. K10 *\n'
    job = import_job(client_for(UserFactory()), text)
    assert (job["status"], job["imported"]) == ("done", 1), job
    assert Seat.objects.get(seat=1).name == "x" * 150


def test_import_error_does_not_echo_a_huge_bad_token():
    job = import_job(client_for(UserFactory()), "y" * 100_000)
    (refusal,) = job["refusals"]
    assert refusal["code"] == "bad_token" and len(refusal["detail"]) <= 300


# --- accounts ---------------------------------------------------------------------------------


def test_player_search_with_a_nul_character_is_a_400():
    body = assert_error(client_for().get("/api/players", {"search": "a\x00b"}), 400, "invalid")
    assert "search" in body["fields"]


def test_player_list_refuses_a_computer_flag_that_is_not_a_boolean():
    assert_error(client_for().get("/api/players", {"computer": "maybe"}), 400, "invalid")


def test_player_list_still_filters_by_computer_and_search():
    UserFactory(username="robot", is_computer=True)
    UserFactory(username="human")
    names = [
        p["username"] for p in client_for().get("/api/players?computer=true").json()["results"]
    ]
    assert names == ["robot"]
    names = [p["username"] for p in client_for().get("/api/players?search=hum").json()["results"]]
    assert names == ["human"]


# --- the exception handler's safety net -------------------------------------------------------


def _handle(exc: Exception):
    return api.exception_handler(exc, {"request": None, "view": None})


@pytest.mark.parametrize(
    "exc",
    [
        OverflowError("Python int too large to convert to SQLite INTEGER"),
        DataError("value too long for type character varying(150)"),
        ValueError("A string literal cannot contain NUL (0x00) characters."),
    ],
    ids=["sqlite-overflow", "postgres-data-error", "psycopg-nul"],
)
def test_unstorable_values_become_a_400_invalid_value(exc):
    response = _handle(exc)
    assert response is not None and response.status_code == 400
    assert response.data["code"] == "invalid_value" and response.data["detail"]


def test_other_errors_still_reach_the_500_handler():
    assert _handle(ValueError("a bug")) is None
    assert _handle(RecursionError("a bug, not the parser")) is None


def test_first_message_of_an_empty_validation_error_is_readable():
    assert api._first_message({}) == "Invalid input."
    assert api._first_message({"field": []}) == "field: Invalid input."


# --- Django-level handlers (unknown URLs under /api/) -----------------------------------------


@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
@pytest.mark.parametrize("url", ["/api/nonexistent/", "/api/games/abc/", "/api/games/-1/"])
def test_unknown_api_url_is_a_json_404_once_the_handler_is_wired(url):
    assert_error(client_for().get(url), 404, "not_found")


def test_handler404_keeps_html_outside_the_api():
    request = RequestFactory().get("/admin/nothing")
    response = api.handler404(request, None)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_handler500_under_the_api_is_json():
    response = api.handler500(RequestFactory().get("/api/games/"))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"


# --- OpenAPI schema ---------------------------------------------------------------------------


def test_schema_describes_token_and_bearer_authentication():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"] == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": 'Token-based authentication with required prefix "Token"',
    }
    assert schemes["bearerAuth"] == {"type": "http", "scheme": "bearer"}
    moves = schema["paths"]["/api/games/{id}/moves/"]["post"]
    assert {"tokenAuth": []} in moves["security"] and {"bearerAuth": []} in moves["security"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/games/abc/", "/api/games/-1/", "/api/nothing-here"])
def test_unknown_api_urls_get_a_json_404_with_code_and_detail(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert path in response.json()["detail"]


@pytest.mark.django_db
def test_list_urls_work_without_their_trailing_slash(client):
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/tournaments").status_code == 200
    response = client.post("/api/challenges", {}, content_type="application/json")
    assert response.status_code in (401, 403)
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.django_db
def test_a_post_without_the_trailing_slash_reaches_the_view_with_token_auth():
    from rest_framework.test import APIClient

    from accounts.services import token_create
    from tests.factories import UserFactory

    key = token_create(user=UserFactory(), name="t").key
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.post("/api/tournaments", {"name": "x"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


# --- plain views and CSRF under /api/ ---------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/api/rooms/main/events", "/api/me/events", "/api/players/alice/ratings/history.svg"]
)
@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_a_write_to_a_read_only_plain_view_is_a_json_405(path, method):
    UserFactory(username="alice")
    response = getattr(APIClient(), method)(path)
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
    assert response["Allow"] == "GET, HEAD"


def test_a_refused_csrf_check_under_the_api_is_json_and_elsewhere_the_page():
    refused = api.csrf_failure(RequestFactory().post("/api/games/1/moves"), reason="no token")
    assert refused.status_code == 403 and refused["Content-Type"] == "application/json"
    page = api.csrf_failure(RequestFactory().post("/settings/"), reason="no token")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


# --- pictures and texts answer the type they serve, whatever Accept names ---------------------


@pytest.mark.parametrize(
    ("path", "accept"),
    [
        ("/api/games/{game}/board.svg", "image/svg+xml"),
        ("/api/games/{game}/board.svg", "image/*"),
        ("/api/games/{game}/record", "text/plain"),
        ("/api/games/records", "text/plain"),
        ("/api/tournaments/{tournament}/bracket.svg", "image/svg+xml"),
        ("/api/tournaments/{tournament}/trf", "text/plain"),
    ],
)
def test_a_picture_or_text_asked_for_by_its_own_type_is_served(path, accept):
    from tests.tournaments.support import make_tournament

    game = make_game()
    kind = "swiss" if path.endswith("trf") else "single_elimination"
    tournament = make_tournament(players=2, format=kind)
    url = path.format(game=game.pk, tournament=tournament.pk)
    response = APIClient().get(url, HTTP_ACCEPT=accept)
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"].split(";")[0] == accept.replace("image/*", "image/svg+xml")


def test_a_refused_picture_is_json_whatever_accept_names():
    response = APIClient().get("/api/games/999999/board.svg", HTTP_ACCEPT="image/svg+xml")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


_NOT_OBJECTS = [("5", "int"), ("[1, 2]", "list"), ('"x"', "str")]


@pytest.mark.parametrize(
    ("path", "body", "said"),
    [
        *(
            (path, body, said)
            for path in ("/api/challenges/", "/api/me/ignores")
            for body, said in _NOT_OBJECTS
        ),
        # An import takes a JSON string as its records' text.
        *(("/api/games/import", body, said) for body, said in _NOT_OBJECTS[:2]),
    ],
)
def test_a_body_that_is_not_a_json_object_is_told_to_be_one(path, body, said):
    response = client_for(UserFactory()).post(path, body, content_type="application/json")
    error = assert_error(response, 400, "invalid")
    assert error["detail"] == (
        f'Send a JSON object of named fields ({{"name": value, ...}}), not {said}.'
    )
