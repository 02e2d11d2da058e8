"""Every API request with a query parameter its endpoint does not take is a 400
``unknown_parameter``, before anything else is done (not authenticated, counted or looked up
first), so a misspelt filter is never silently ignored.

An endpoint declares what it takes on its view class: ``query_parameters`` (its ``GET``'s
names), ``write_query_parameters`` (its other methods'); a list with ``KnownQueryParameters``
among its filter backends also takes its pagination, ``ordering`` and filterset fields.
``tests/pente_site/test_query_parameters.py`` holds the declarations to the OpenAPI schema.
"""

from __future__ import annotations

from functools import cache

from rest_framework.generics import GenericAPIView
from rest_framework.views import APIView

from pente_site.api import domain_error_response
from pente_site.errors import Invalid
from pente_site.lists import KnownQueryParameters, refuse_unknown_parameters

_READS = frozenset({"GET", "HEAD"})


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
    parameter the resolved API view does not declare."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not request.GET:
            return None
        allowed = taken_parameters(view_func, request.method in _READS)
        if allowed is None:
            return None
        try:
            refuse_unknown_parameters(request.GET, allowed)
        except Invalid as exc:
            return domain_error_response(exc)
        return None
