"""API plumbing shared by every app: error bodies, the schema's negotiation, the API root.

Every 4xx body is ``{"code": "...", "detail": "..."}`` (validation errors add ``"fields"``).
:func:`exception_handler` maps a ``DomainError``'s kind to its HTTP status, and turns into 4xx
bodies what would otherwise be a 500: bodies too large or with too many fields, JSON nested too
deeply, values the database cannot hold (a safety net: validate at the edge first).
:func:`handler404` / :func:`handler500` (and 400, 403) give the same shape for requests no DRF
view answers; they apply when ``DEBUG`` is off.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable
from copy import deepcopy
from functools import wraps
from inspect import iscoroutinefunction
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DataError
from django.http import Http404, JsonResponse
from django.urls import Resolver404, resolve, reverse
from django.views import defaults
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from pente_site.errors import DomainError
from pente_site.ratelimit import refusal_sentence

logger = logging.getLogger(__name__)


_DEFAULT_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "request_too_large",
    415: "unsupported_media_type",
    429: "throttled",
}


def domain_error_body(exc: DomainError) -> dict[str, Any]:
    """The JSON body of a domain error: ``code``, ``detail`` and the error's ``extra``."""
    return {"code": exc.code, "detail": exc.detail, **exc.extra}


def domain_error_response(exc: DomainError) -> JsonResponse:
    """A domain error as a plain Django response (for views outside DRF, such as pictures)."""
    return JsonResponse(domain_error_body(exc), status=exc.kind.http_status)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The one place that maps refusals to HTTP: domain errors by their kind, DRF's own
    exceptions and a few Django ones to the same ``{"code", "detail"}`` body."""
    if isinstance(exc, DomainError):
        return Response(domain_error_body(exc), status=exc.kind.http_status)
    converted = _convert_non_api_exception(exc)
    if converted is not None:
        return converted
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    status_code = response.status_code
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, int(exc.wait or 1))
        response.data = {
            "code": "throttled",
            "detail": refusal_sentence(context.get("request"), wait=wait),
            "retry_after": wait,
        }
    elif isinstance(exc, exceptions.ParseError):
        response.data = _parse_error_body(exc)
    elif isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        first = _first_message(fields)
        response.data = {"code": "invalid", "detail": first, "fields": fields}
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        code = codes if isinstance(codes, str) else _DEFAULT_CODES.get(status_code, "error")
        response.data = {"code": code, "detail": str(detail)}
    return response


#: DRF's sentence for a body that is not an object (``5``, ``[...]``): said in plainer words.
_NOT_AN_OBJECT = "Invalid data. Expected a dictionary, but got "


def _first_message(fields: Any) -> str:
    if isinstance(fields, str) and fields.startswith(_NOT_AN_OBJECT):
        got = fields[len(_NOT_AN_OBJECT) :].rstrip(".")
        return f'Send a JSON object of named fields ({{"name": value, ...}}), not {got}.'
    if isinstance(fields, dict):
        for key, value in fields.items():
            message = _first_message(value)
            return message if key == "non_field_errors" else f"{key}: {message}"
        return "Invalid input."
    if isinstance(fields, list):
        return _first_message(fields[0]) if fields else "Invalid input."
    return str(fields) or "Invalid input."


#: The words of Python's refusal of a whole number longer than ``sys.get_int_max_str_digits()``.
_TOO_MANY_DIGITS = "integer string conversion"
_BAD_NUMBER = (
    "A number in the request has more than {limit:,} digits, beyond any value this API takes: "
    "send each number in its range (see the API docs)."
)


def _too_many_digits(exc: BaseException | None) -> bool:
    return isinstance(exc, ValueError) and _TOO_MANY_DIGITS in str(exc)


def _bad_number() -> dict[str, str]:
    return {"code": "bad_number", "detail": _BAD_NUMBER.format(limit=sys.get_int_max_str_digits())}


def _parse_error_body(exc: exceptions.ParseError) -> dict[str, str]:
    """A body the parser refused: not text in its charset (``bad_encoding``), a number too long
    to read (``bad_number``), or malformed."""
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, UnicodeDecodeError):
        return {
            "code": "bad_encoding",
            "detail": "The request body is not valid UTF-8: send text in UTF-8, or name its "
            "charset in the Content-Type header.",
        }
    if _too_many_digits(cause):
        return _bad_number()
    return {"code": "malformed_request", "detail": str(exc.detail)}


def _raised_while_parsing(exc: BaseException) -> bool:
    """True when ``exc`` was raised inside a request parser (DRF's or the json module)."""
    for frame in traceback.extract_tb(exc.__traceback__):
        filename = frame.filename.replace("\\", "/")
        if filename.endswith(("rest_framework/parsers.py", "/json/decoder.py")):
            return True
    return False


def _error(code: str, detail: str, status_code: int) -> Response:
    return Response({"code": code, "detail": detail}, status=status_code)


def _convert_non_api_exception(exc: Exception) -> Response | None:
    """4xx responses for exceptions that are the client's doing but are not DRF exceptions."""
    if isinstance(exc, RequestDataTooBig):
        return _error("request_too_large", str(exc) or "The request body is too large.", 413)
    if isinstance(exc, SuspiciousOperation):
        # TooManyFieldsSent, TooManyFilesSent, a broken multipart body, ...
        return _error("bad_request", str(exc) or "Bad request.", 400)
    if _too_many_digits(exc):
        return Response(_bad_number(), status=400)
    if isinstance(exc, RecursionError) and _raised_while_parsing(exc):
        return _error("malformed_request", "The request body is nested too deeply.", 400)
    if isinstance(exc, OverflowError | DataError) or _is_nul_byte_error(exc):
        logger.warning("Unstorable value in a request reached the database", exc_info=exc)
        return _error(
            "invalid_value",
            "A value in the request is out of range, too long or has characters that cannot "
            "be stored (such as NUL).",
            400,
        )
    return None


def _is_nul_byte_error(exc: Exception) -> bool:
    # psycopg refuses strings with NUL bytes with a plain ValueError before sending the query.
    return isinstance(exc, ValueError) and "NUL (0x00)" in str(exc)


def validated(serializer: serializers.Serializer, *, rights: Callable[[], object]) -> Any:
    """The serializer's validated data. When the body is not valid, ``rights`` runs first: it
    raises the caller's refusal (401, 403, 404) if they may not act at all, so that only those
    who may act learn the body's rules. A valid body costs nothing more (the service checks the
    rights in its own transaction)."""
    if not serializer.is_valid():
        rights()
        serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- Django-level handlers (no DRF view matched, or the failure came before one) ----------------


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def handler400(request, exception=None):
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    return JsonResponse({"code": "bad_request", "detail": "Bad request."}, status=400)


def handler403(request, exception=None):
    if not _is_api(request):
        return defaults.permission_denied(request, exception)
    return JsonResponse(
        {"code": "permission_denied", "detail": "You do not have permission to do this."},
        status=403,
    )


def handler404(request, exception=None):
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse(
        {"code": "not_found", "detail": f"There is nothing at {request.path}."}, status=404
    )


def csrf_failure(request, reason: str = ""):
    """``CSRF_FAILURE_VIEW``: under ``/api/`` a JSON 403 that says what to send (Django's page
    elsewhere)."""
    if not _is_api(request):
        return django_csrf_failure(request, reason)
    return JsonResponse(
        {
            "code": "csrf_failed",
            "detail": "A write with a session needs its CSRF token (the X-CSRFToken header); "
            "or authenticate with an API token.",
        },
        status=403,
    )


_READ_METHODS = ("GET", "HEAD")


def _not_allowed(request) -> JsonResponse:
    response = JsonResponse(
        {
            "code": "method_not_allowed",
            "detail": f"Method {request.method} is not allowed here: only GET.",
        },
        status=405,
    )
    response["Allow"] = ", ".join(_READ_METHODS)
    return response


def read_only(view):
    """For the API's plain Django views that only read (pictures, event streams): any other
    method is a JSON 405 (not a CSRF page, which such a view never needs)."""
    if iscoroutinefunction(view):

        @wraps(view)
        async def wrapped(request, *args, **kwargs):
            if request.method not in _READ_METHODS:
                return _not_allowed(request)
            return await view(request, *args, **kwargs)

    else:

        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method not in _READ_METHODS:
                return _not_allowed(request)
            return view(request, *args, **kwargs)

    return csrf_exempt(wrapped)


def handler500(request):
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse(
        {"code": "server_error", "detail": "Something went wrong on the server."}, status=500
    )


# --- the schema ---------------------------------------------------------------------------


class SchemaFormatNegotiation(DefaultContentNegotiation):
    """``/api/schema/?format=json`` (or ``yaml``) picks the schema's representation. Elsewhere
    ``format`` is an ordinary query parameter (``URL_FORMAT_OVERRIDE`` is off)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return super().select_renderer(
            request, renderers, format_suffix or request.query_params.get("format")
        )


class AnyAccept(DefaultContentNegotiation):
    """For views that answer a picture or a text of their own (SVG, records, SGF, TRF): any
    ``Accept`` is taken (a client asking for ``image/svg+xml`` gets it, not a 406), and a
    refusal is JSON like every other."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


#: Django's username rule as a regular expression: Python's ``\w`` is Unicode, a JSON Schema
#: validator's is ASCII, so the pattern would refuse names the server accepts.
_USERNAME_PATTERN = r"^[\w.@+-]+$"
_USERNAME_RULE = "Letters and digits of any script, and . @ + - _"


def unicode_username_patterns(result, generator, request, public):
    """Schema post-processing: usernames (fields and path parameters) say their rule in words
    instead of a pattern that only ASCII-minded validators would read."""
    stack: list[Any] = [result]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("pattern") == _USERNAME_PATTERN:
                del node["pattern"]
                words = [node.get("description"), _USERNAME_RULE]
                node["description"] = " ".join(filter(None, words))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return result


def _param(name: str, where: str, description: str, schema: dict | None = None) -> dict:
    return {
        "in": where,
        "name": name,
        "required": where == "path",
        "schema": schema or {"type": "string"},
        "description": description,
    }


_TEXT = {"schema": {"type": "string"}}
_STREAM_PARAMS = [
    _param(
        "last_event_id",
        "query",
        "Go on after this event (the id of the last one read; the Last-Event-ID header does "
        "the same): the events missed come first, or a reset event when they are no longer kept.",
    )
]


def _stream(operation_id: str, description: str, params: list[dict], tag: str) -> dict:
    return {
        "get": {
            "operationId": operation_id,
            "description": description
            + " Server-Sent Events; with Accept: application/x-ndjson, one JSON object a line."
            " Served by the ASGI server (under WSGI: 503 streams_need_asgi).",
            "parameters": params + _STREAM_PARAMS,
            "tags": [tag],
            "responses": {
                "200": {
                    "description": "The stream: each event's id, kind and JSON data.",
                    "content": {"text/event-stream": _TEXT, "application/x-ndjson": _TEXT},
                },
                "503": {
                    "description": "The server holds as many streams as it can, or is not "
                    "served by an ASGI server.",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                },
            },
        }
    }


#: The API's plain Django views (streams, a picture), which drf-spectacular cannot see.
_PLAIN_VIEWS = {
    "/api/games/{id}/events/": _stream(
        "games_events",
        "A game's events as they happen (moves, clocks, requests, chat, its end), for players "
        "and spectators (with the game's spectator delay).",
        [_param("id", "path", "The game's id.", {"type": "integer"})],
        "games",
    ),
    "/api/me/events/": _stream(
        "me_events",
        "Your own events: challenges to you and their answers, your games starting, turns.",
        [],
        "me",
    ),
    "/api/rooms/{name}/events/": _stream(
        "rooms_events",
        "A room's events: chat lines, who enters and leaves.",
        [_param("name", "path", "The room's name.")],
        "rooms",
    ),
    "/api/players/{username}/ratings/history.svg": {
        "get": {
            "operationId": "players_ratings_history_svg",
            "description": "The history of one rating as an SVG line chart: "
            "``?game=Pente&category=speed``.",
            "parameters": [
                _param("username", "path", "The player's name."),
                {
                    **_param(
                        "game",
                        "query",
                        "Game name or slug, e.g. Pente",
                        {"type": "string", "minLength": 1},
                    ),
                    "required": True,
                },
                _param(
                    "category",
                    "query",
                    "speed, normal (default) or turn",
                    {"type": "string", "enum": ["normal", "speed", "turn", "untimed"]},
                ),
            ],
            "tags": ["players"],
            "responses": {
                "200": {"description": "The chart.", "content": {"image/svg+xml": _TEXT}}
            },
        }
    },
}


def document_plain_views(result, generator, request, public):
    """Schema post-processing: the operations of ``_PLAIN_VIEWS``."""
    for path, operations in _PLAIN_VIEWS.items():
        result.setdefault("paths", {}).setdefault(path, deepcopy(operations))
    return result


#: The refusals any operation may answer, beyond those it documents itself, with when each
#: applies: every one may be throttled (429) and refuse a bad, expired or inactive account's
#: token (401) or what the caller may not do (403), or a query parameter it does not take (400);
#: one with a path parameter may name nothing, a list's page may be past its end (404); a write may conflict with the state (409);
#: one with a body may send it too large (413) or in a type it does not read (415).
_ERRORS = {
    "400": ("always", "Refused: the request is not valid (its `code` and a sentence say why)."),
    "401": ("always", "The credentials sent are not valid, or this needs an account."),
    "403": (
        "always",
        "Not allowed for this account (or a session's write without its CSRF token).",
    ),
    "404": (
        "path",
        "Nothing has the id or name in the path (or you may not see it), or "
        "there is no such page of the list.",
    ),
    "409": ("write", "Refused by the current state of what it acts on (the `code` says what)."),
    "413": ("body", "The body is larger than the server takes."),
    "415": ("body", "The body's content type is not one this operation reads."),
    "429": ("always", "Too many requests: `Retry-After` says when to try again."),
}
_READS = {"get", "head", "options"}


def _error_applies(when: str, method: str, operation: dict[str, Any]) -> bool:
    if when == "path":
        return any(
            p.get("in") == "path" or p.get("name") == "page"
            for p in operation.get("parameters", [])
        )
    if when == "write":
        return method not in _READS
    if when == "body":
        return "requestBody" in operation
    return True


def document_errors(result, generator, request, public):
    """Schema post-processing: every operation lists the refusals it may answer (``_ERRORS``),
    each an ``Error`` body, besides the answers its view documents."""
    error = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for code, (when, description) in _ERRORS.items():
                if code not in responses and _error_applies(when, method, operation):
                    responses[code] = {
                        "description": description,
                        "content": {"application/json": {"schema": error}},
                    }
    return result


# --- the API root ----------------------------------------------------------------------------

#: The main collections linked from ``GET /api/``: URL names of the apps' URLconfs, with the
#: query a collection needs to answer (the leaderboard is per game; this links Pente's).
API_ROOT_LINKS = {
    "docs": ("docs", ""),
    "schema": ("schema", ""),
    "games": ("game-list", ""),
    "challenges": ("challenge-list", ""),
    "players": ("player-list", ""),
    "bots": ("bot-list", ""),
    "leaderboards": ("leaderboard", "?game=Pente"),
    "tournaments": ("tournament-list", ""),
    "me": ("me", ""),
}


class ApiRootView(APIView):
    """``GET /api/``: what this API is and where its main collections are (absolute URLs)."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: inline_serializer(
                "ApiRoot",
                {
                    "name": serializers.CharField(),
                    "version": serializers.CharField(),
                    "links": inline_serializer(
                        "ApiRootLinks",
                        {key: serializers.URLField() for key in API_ROOT_LINKS},
                    ),
                },
            )
        }
    )
    def get(self, request):
        spectacular = getattr(settings, "SPECTACULAR_SETTINGS", {})
        # Every collection answers with or without its trailing slash: show the slashed form.
        links = {
            key: request.build_absolute_uri(reverse(name).rstrip("/") + "/" + query)
            for key, (name, query) in API_ROOT_LINKS.items()
        }
        return Response(
            {
                "name": spectacular.get("TITLE", "Pente server API"),
                "version": spectacular.get("VERSION", ""),
                "links": links,
            }
        )


@csrf_exempt  # the view it hands over to enforces CSRF itself (DRF's session authentication)
def api_fallback(request, *args, **kwargs):
    """The last route under ``/api/``: a path that only lacks its trailing slash is served by the
    view it names (any method, no redirect that would drop a POST body); anything else is a JSON
    404."""
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_fallback:
            return match.func(request, *match.args, **match.kwargs)
    return handler404(request)
