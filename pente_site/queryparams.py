"""Every API request with a query parameter its endpoint does not take is a 400
``unknown_parameter``, before anything else is done (not authenticated, counted or looked up
first), so a misspelt filter is never silently ignored. A method the endpoint does not take is
left to the view, which answers 405 ``method_not_allowed`` whatever the query.

Numbers too long for Python to read (more than ``sys.get_int_max_str_digits()`` digits, 4,300)
are refused here too, in plain words: in the path a 404 (no id is that long), in the query a
400 ``bad_number`` naming the parameter.

An endpoint declares what it takes on its view class: ``query_parameters`` (its ``GET``'s
names), ``write_query_parameters`` (its other methods'); a list with ``KnownQueryParameters``
among its filter backends also takes its pagination, ``ordering`` and filterset fields.
``tests/pente_site/test_query_parameters.py`` holds the declarations to the OpenAPI schema.
"""

from __future__ import annotations

import re
import sys
from functools import cache

from rest_framework.generics import GenericAPIView
from rest_framework.views import APIView

from pente_site.api import domain_error_response
from pente_site.errors import Invalid, NotFound
from pente_site.lists import KnownQueryParameters, refuse_unknown_parameters

_READS = frozenset({"GET", "HEAD"})
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def too_long_a_number(value: object) -> bool:
    """True for a whole number written with more digits than Python reads (``int()`` would
    raise the ``sys.set_int_max_str_digits`` error)."""
    limit = sys.get_int_max_str_digits()
    return (
        isinstance(value, str)
        and len(value) > limit
        and limit > 0
        and _WHOLE_NUMBER.fullmatch(value.strip()) is not None
    )


def number_refusal(name: str) -> Invalid:
    """The 400 ``bad_number`` of a parameter given a number too long to be anything."""
    limit = sys.get_int_max_str_digits()
    return Invalid(
        "bad_number",
        f"{name} must be a whole number in its range (see the API docs); "
        f"one of more than {limit:,} digits is beyond any value it takes.",
        extra={"fields": {name: ["A whole number in range."]}},
    )


def takes_method(view_func, method: str) -> bool:
    """Whether the view behind ``view_func`` has a handler for ``method`` (``HEAD`` is served
    by ``GET``); True for a view that is not a class (it answers for itself)."""
    view_class = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
    if view_class is None:
        return True
    name = method.lower()
    if name not in view_class.http_method_names:
        return False
    return hasattr(view_class, name) or (name == "head" and hasattr(view_class, "get"))


@cache
def taken_parameters(view_func, read: bool) -> frozenset[str] | None:
    """The query parameters the view behind ``view_func`` (what a URL pattern routes to, made
    once) takes on a read (``GET``/``HEAD``) or on any other method; None for a view this check
    leaves alone."""
    view_class = getattr(view_func, "cls", None)
    if (
        view_class is None
        or not issubclass(view_class, APIView)
        or view_class.__module__.startswith("drf_spectacular")
    ):
        return None
    if not read:
        return frozenset(getattr(view_class, "write_query_parameters", ()))
    view = view_class(**getattr(view_func, "initkwargs", {}))
    if isinstance(view, GenericAPIView) and KnownQueryParameters in view.filter_backends:
        return frozenset(KnownQueryParameters.allowed(view))
    return frozenset(getattr(view_class, "query_parameters", ()))


class KnownQueryParametersMiddleware:
    """Answers 400 ``unknown_parameter`` (naming the parameters the endpoint takes) for a query
    parameter the resolved API view does not declare, unless the view does not take the method
    at all (its 405 comes first); and refuses numbers too long to read, in the path (404) and in
    the query (400 ``bad_number``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not request.path.startswith("/api/"):
            return None
        if any(too_long_a_number(value) for value in (*view_args, *view_kwargs.values())):
            missing = NotFound("not_found", "There is nothing at this path: no id is that long.")
            return domain_error_response(missing)
        if not request.GET:
            return None
        try:
            for name, values in request.GET.lists():
                if any(too_long_a_number(value) for value in values):
                    raise number_refusal(name)
            allowed = taken_parameters(view_func, request.method in _READS)
            if allowed is not None and takes_method(view_func, request.method):
                refuse_unknown_parameters(request.GET, allowed)
        except Invalid as exc:
            return domain_error_response(exc)
        return None
