"""Lists of the API: pagination, strict ordering and known query parameters (named in
``REST_FRAMEWORK``).

This module imports no DRF views: DRF imports it while it is still loading its generic views.
"""

from __future__ import annotations

import django_filters
from rest_framework.exceptions import NotFound
from rest_framework.filters import BaseFilterBackend, OrderingFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.settings import api_settings

from pente_site.errors import Invalid
from pente_site.errors import NotFound as Missing


class Pagination(PageNumberPagination):
    """``?page=`` (from 1) and ``?page_size=`` (up to 500; more is read as 500). Either one not
    a whole number from 1 is a 400 ``bad_page``; a page past the last is a 404
    ``no_such_page`` (``page=last``: the last page; DRF's own answers: a 404 for both, and a bad size silently ignored)."""

    page_size_query_param = "page_size"
    max_page_size = 500

    def paginate_queryset(self, queryset, request, view=None):
        for name in (self.page_query_param, self.page_size_query_param):
            raw = request.query_params.get(name)
            if raw is None or (name == self.page_query_param and raw in self.last_page_strings):
                continue
            if not (raw.isascii() and raw.isdigit() and int(raw) >= 1):
                raise Invalid("bad_page", f"{name} must be a whole number from 1, not {raw!r}.")
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            raise Missing(
                "no_such_page", "There is no such page: the list's count says how many there are."
            ) from None

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] in (self.page_query_param, self.page_size_query_param):
                parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = (
                    f"Results per page, from 1 (at most {self.max_page_size}: more is read as "
                    f"{self.max_page_size})."
                )
        return parameters


class StrictFilterSet(django_filters.FilterSet):
    """A ``FilterSet`` that refuses an empty value (``?date_after=``) for any filter but a text
    one: django-filter reads it as "no filter", which the schema does not say (an empty string
    is no date, number, choice or boolean), so a client that meant to filter gets everything.
    A 400 ``invalid`` names the parameter and says to leave it out."""

    def is_valid(self):
        valid = super().is_valid()
        if not self.is_bound:
            return valid
        for name, field in self.filters.items():
            if isinstance(field, django_filters.CharFilter) or name not in self.data:
                continue
            getlist = getattr(self.data, "getlist", None)
            values = getlist(name) if getlist else [self.data[name]]
            if all(value == "" for value in values):
                self.form.add_error(
                    name, f"{name} is empty: give a value, or leave the parameter out."
                )
                valid = False
        return valid


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


def refuse_unknown_parameters(params, allowed: set[str] | frozenset[str]) -> None:
    """A 400 ``unknown_parameter`` naming every query parameter not in ``allowed``."""
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        known = ", ".join(sorted(allowed)) or "none"
        raise Invalid(
            "unknown_parameter",
            f"Unknown query parameter {names}: this endpoint takes {known}.",
            extra={
                "fields": {name: ["Unknown parameter."] for name in unknown},
                "allowed": sorted(allowed),
            },
        )


class KnownQueryParameters(BaseFilterBackend):
    """Marks a list whose query parameters are its pagination (``page``, ``page_size``),
    ``ordering`` when it may be ordered, the fields of its ``filterset_class``, and the names in
    its ``query_parameters`` (``allowed``). ``pente_site.queryparams``' middleware refuses any
    other (400 ``unknown_parameter``) before the view runs, so nothing is left to filter here."""

    def filter_queryset(self, request, queryset, view):
        return queryset

    @staticmethod
    def allowed(view) -> set[str]:
        names = set(getattr(view, "query_parameters", ()))
        paginator = getattr(view, "paginator", None)
        if paginator is not None:
            for attr in ("page_query_param", "page_size_query_param", "cursor_query_param"):
                if getattr(paginator, attr, None):
                    names.add(getattr(paginator, attr))
        if getattr(view, "ordering_fields", None) is not None:
            names.add(api_settings.ORDERING_PARAM)
        filterset = getattr(view, "filterset_class", None)
        if filterset is not None:
            names.update(filterset.base_filters)
        return names
