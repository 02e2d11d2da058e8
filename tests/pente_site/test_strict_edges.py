"""The API's edges refuse in plain words: bodies that are not UTF-8 (``bad_encoding``), numbers
too long to read (``bad_number``, never Python's ``sys.set_int_max_str_digits`` sentence), a
method an endpoint does not take (405, whatever its query). (JSON only with DEBUG off:
``test_settings_production`` and ``test_production_server``.)"""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from accounts.models import User
from live.models import ChatLine
from pente_site.negotiation import JsonWhateverAccepted
from tests.clients import client_for
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-9"
BIG = "9" * 5000
FORM = "application/x-www-form-urlencoded"


def assert_refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return body["detail"]


# --- bodies: strict UTF-8 ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"username=bad\xff\xfeutf&password=" + PASSWORD.encode(),  # raw bytes, not UTF-8
        b"username=bad%FF%FEutf&password=" + PASSWORD.encode(),  # escaped bytes, not UTF-8
    ],
    ids=["raw", "escaped"],
)
def test_a_sign_up_form_that_is_not_utf8_is_refused_and_no_user_is_made(body):
    response = client_for().post("/api/auth/register", body, content_type=FORM)
    detail = assert_refused(response, 400, "bad_encoding")
    assert "UTF-8" in detail
    assert not User.objects.filter(username__startswith="bad").exists()


def test_a_sign_up_in_json_that_is_not_utf8_is_refused_as_bad_encoding():
    body = b'{"username": "bad\xff\xfeutf", "password": "' + PASSWORD.encode() + b'"}'
    response = client_for().post("/api/auth/register", body, content_type="application/json")
    assert_refused(response, 400, "bad_encoding")
    assert not User.objects.filter(username__startswith="bad").exists()


def test_a_sign_up_form_in_utf8_still_signs_up():
    body = "username=joséé&password=" + PASSWORD
    response = client_for().post("/api/auth/register", body.encode(), content_type=FORM)
    assert response.status_code == 201, response.content[:300]
    assert User.objects.filter(username="joséé").exists()


def test_a_form_that_names_its_charset_is_read_in_it():
    body = "username=josé&password=".encode("latin-1") + PASSWORD.encode()
    response = client_for().post(
        "/api/auth/register", body, content_type=f"{FORM}; charset=latin-1"
    )
    assert response.status_code == 201, response.content[:300]
    assert User.objects.filter(username="josé").exists()


def test_a_multipart_sign_up_that_is_not_utf8_is_refused():
    boundary = "XyZ"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\n'.encode()
        + b"bad\xff\xfeutf\r\n"
        + f'--{boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n'.encode()
        + PASSWORD.encode()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    response = client_for().post(
        "/api/auth/register", body, content_type=f"multipart/form-data; boundary={boundary}"
    )
    assert_refused(response, 400, "bad_encoding")
    assert not User.objects.filter(username__startswith="bad").exists()


@pytest.mark.parametrize("content_type", [FORM, "application/json"])
def test_chat_that_is_not_utf8_is_refused_in_rooms_and_games(content_type):
    user = UserFactory()
    game = make_game(players=[user, UserFactory()])
    body = b"text=caf\xe9" if content_type == FORM else b'{"text": "caf\xe9"}'
    for url in ("/api/rooms/lobby/chat", f"/api/games/{game.pk}/chat"):
        response = client_for(user).post(url, body, content_type=content_type)
        assert_refused(response, 400, "bad_encoding")
    assert not ChatLine.objects.exists()


def test_the_sites_sign_up_page_refuses_a_form_that_is_not_utf8(client):
    body = b"username=bad\xff\xfeutf&password1=" + PASSWORD.encode()
    response = client.post("/signup/", body, content_type=FORM)
    assert response.status_code == 400
    assert b"UTF-8" in response.content
    assert not User.objects.filter(username__startswith="bad").exists()


# --- numbers too long to read ------------------------------------------------------------------


def assert_plain_number_refusal(response, status: int = 400, code: str = "bad_number") -> None:
    detail = assert_refused(response, status, code)
    assert "set_int_max_str_digits" not in detail and "Exceeds the limit" not in detail


def test_a_move_with_a_5000_digit_ply_is_refused_in_plain_words():
    user = UserFactory()
    game = make_game(players=[user, UserFactory()])
    body = '{"ply": ' + BIG + ', "points": ["K10"]}'
    response = client_for(user).post(
        f"/api/games/{game.pk}/moves", body, content_type="application/json"
    )
    assert_plain_number_refusal(response)


def test_a_5000_digit_query_number_names_its_parameter():
    game = make_game()
    response = client_for().get(f"/api/games/{game.pk}/position", {"ply": BIG})
    assert_plain_number_refusal(response)
    assert "ply" in response.json()["detail"]
    for name in ("page", "page_size"):
        response = client_for().get("/api/games/", {name: BIG})
        assert_plain_number_refusal(response)
        assert response.json()["detail"].startswith(name)


def test_a_5000_digit_id_in_a_path_is_nothing_there():
    assert_plain_number_refusal(client_for().get(f"/api/games/{BIG}/"), 404, "not_found")
    assert_plain_number_refusal(client_for().get(f"/api/tournaments/{BIG}/"), 404, "not_found")


def test_no_endpoint_answers_a_5000_digit_number_with_a_500_or_pythons_sentence(settings):
    """Every operation of the schema, with every path parameter and then every query parameter
    a 5000-digit number, and every body a JSON object of such numbers."""
    settings.PUBLIC_URL = "https://pente.example.org"  # e-mailed links work
    schema = SchemaGenerator().get_schema(request=None, public=True)
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(UserFactory(is_staff=True))
    game = make_game()
    body = "{" + ", ".join(f'"{k}": {BIG}' for k in ("ply", "round", "hours", "id")) + "}"
    wrong = []
    for path, operations in schema["paths"].items():
        if path.endswith("/events/"):
            continue  # served by the ASGI server only (a 503 under the test client)
        for method in operations:
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            parameters = operations[method].get("parameters", [])
            asks = [(re.sub(r"\{\w+\}", BIG, path), {})]
            asks += [
                (re.sub(r"\{\w+\}", str(game.pk), path), {p["name"]: BIG})
                for p in parameters
                if p["in"] == "query"
            ]
            for url, query in asks:
                if method == "get":
                    response = client.get(url, query)
                else:
                    response = client.generic(method.upper(), url, body, "application/json")
                if response.status_code >= 500 or b"max_str_digits" in response.content:
                    wrong.append(f"{method} {url[:60]} {list(query)}: {response.status_code}")
    assert wrong == []


# --- 405 before the query's check ----------------------------------------------------------------


def test_a_method_an_endpoint_does_not_take_is_a_405_whatever_its_query():
    game = make_game()
    response = client_for(UserFactory()).put(f"/api/games/{game.pk}/?zzz=1")
    assert_refused(response, 405, "method_not_allowed")
    assert_refused(client_for().delete("/api/games/?page=1&zzz=2"), 405, "method_not_allowed")


def test_every_path_answers_405_to_a_method_it_does_not_document_even_with_a_query():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    client = APIClient()
    client.force_authenticate(UserFactory(is_staff=True))
    wrong = []
    for path, operations in schema["paths"].items():
        url = re.sub(r"\{\w+\}", "1", path) + "?zzz=1"
        for method in ("post", "put", "patch", "delete"):
            if method in operations:
                continue
            response = client.generic(method.upper(), url, "{}", "application/json")
            if response.status_code != 405:
                wrong.append(f"{method} {path}: {response.status_code} {response.content[:80]!r}")
    assert wrong == []


def test_an_unknown_parameter_is_still_refused_on_a_method_the_endpoint_takes():
    assert_refused(client_for().get("/api/games/?zzz=1"), 400, "unknown_parameter")


# --- JSON whatever the Accept header --------------------------------------------------------------


def test_an_accept_header_the_api_cannot_meet_gets_json_not_a_406():
    request = Request(APIRequestFactory().get("/api/", HTTP_ACCEPT="text/html"))
    renderer, media_type = JsonWhateverAccepted().select_renderer(request, [JSONRenderer()])
    assert isinstance(renderer, JSONRenderer) and media_type == "application/json"
