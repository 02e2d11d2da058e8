"""API plumbing shared by every app: error bodies, the schema's negotiation, the API root.

Every 4xx body has the shape ``{"code": "...", "detail": "..."}``; validation errors add
``"fields": {...}`` with DRF's per-field messages.

Services raise ``pente_site.errors.DomainError``; :func:`exception_handler` maps its kind to the
HTTP status. Besides DRF's own exceptions, :func:`exception_handler` turns these into 4xx bodies instead of
500s: request bodies too large or with too many fields (Django's ``SuspiciousOperation``s),
JSON nested too deeply for the parser (``RecursionError`` raised while parsing), and values the
database cannot hold (``OverflowError`` from SQLite, ``DataError`` such as "integer out of range"
or a NUL byte for PostgreSQL). The last are a safety net: validate at the edge first.

:func:`handler404` / :func:`handler500` (and 400, 403) give the same shape for requests that
never reach a DRF view (an unknown URL under ``/api/``); they are wired as ``handler404 = ...``
in the root URLconf and apply when ``DEBUG`` is off.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DataError
from django.http import Http404, JsonResponse
from django.urls import Resolver404, resolve, reverse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from pente_site.errors import DomainError

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
        unit = "second" if wait == 1 else "seconds"
        response.data = {
            "code": "throttled",
            "detail": f"Too many requests: try again in {wait} {unit}.",
            "retry_after": wait,
        }
    elif isinstance(exc, exceptions.ParseError):
        response.data = {"code": "malformed_request", "detail": str(exc.detail)}
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


def _first_message(fields: Any) -> str:
    if isinstance(fields, dict):
        for key, value in fields.items():
            message = _first_message(value)
            return message if key == "non_field_errors" else f"{key}: {message}"
        return "Invalid input."
    if isinstance(fields, list):
        return _first_message(fields[0]) if fields else "Invalid input."
    return str(fields) or "Invalid input."


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
