"""Lists of the API: pagination and strict ordering (named in ``REST_FRAMEWORK``).

This module imports no DRF views: DRF imports it while it is still loading its generic views.
"""

from __future__ import annotations

from rest_framework.filters import OrderingFilter
from rest_framework.pagination import PageNumberPagination

from pente_site.errors import Invalid


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500


class StrictOrderingFilter(OrderingFilter):
    """DRF's ``OrderingFilter`` (``?ordering=-finished_at,id``), but an unknown field is a 400
    ``{"code": "invalid", "detail": ..., "fields": {"ordering": [...]}, "allowed": [...]}``
    instead of being dropped silently. The fields a list may be ordered by are the view's
    ``ordering_fields`` (``"__all__"``: every model field); a view that declares none cannot be
    ordered at all (DRF would fall back to the serializer's fields, some of which are no
    database columns). An empty ``ordering`` keeps the view's default order."""

    def get_valid_fields(self, queryset, view, context=None):
        if getattr(view, "ordering_fields", self.ordering_fields) is None:
            return []
        return super().get_valid_fields(queryset, view, context)

    def remove_invalid_fields(self, queryset, fields, view, request):
        allowed = [item[0] for item in self.get_valid_fields(queryset, view, {"request": request})]
        terms = [term for term in fields if term]
        unknown = [term for term in terms if term.removeprefix("-") not in allowed]
        if unknown:
            names = ", ".join(repr(term) for term in unknown)
            if allowed:
                detail = (
                    f"Unknown ordering {names}: order by {', '.join(allowed)} "
                    "(a leading - for descending, several separated by commas)."
                )
            else:
                detail = f"Unknown ordering {names}: this list cannot be ordered."
            raise Invalid(
                "invalid",
                detail,
                extra={"fields": {self.ordering_param: [detail]}, "allowed": allowed},
            )
        return terms

    def get_schema_operation_parameters(self, view):
        allowed = getattr(view, "ordering_fields", self.ordering_fields)
        if allowed is None:
            return []
        parameters = super().get_schema_operation_parameters(view)
        if isinstance(allowed, list | tuple):
            names = [item if isinstance(item, str) else item[0] for item in allowed]
            for parameter in parameters:
                parameter["description"] = (
                    f"Order by {', '.join(names)}: a leading - for descending, several separated "
                    "by commas. Any other field is a 400."
                )
        return parameters
