"""API plumbing shared by every app: error bodies, pagination and the domain error type.

Every 4xx body has the shape ``{"code": "...", "detail": "..."}``; validation errors add
``"fields": {...}`` with DRF's per-field messages.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500


class ApiError(exceptions.APIException):
    """A refusal with a machine-readable code, raised by services and views.

    ``extra`` is merged into the body (for example the current game state on a 409).
    """

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_request"
    default_detail = "Bad request."

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status_code: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail=detail, code=code)
        self.error_code = code
        self.error_detail = detail
        if status_code is not None:
            self.status_code = status_code
        self.extra = extra or {}


_DEFAULT_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    415: "unsupported_media_type",
    429: "throttled",
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApiError):
        body = {"code": exc.error_code, "detail": exc.error_detail, **exc.extra}
        return Response(body, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    status_code = response.status_code
    if isinstance(exc, exceptions.ParseError):
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
    if isinstance(fields, list) and fields:
        return _first_message(fields[0])
    return str(fields) or "Invalid input."
