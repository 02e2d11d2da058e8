"""Serializer fields for text that take text only.

DRF's ``CharField`` (and the fields built on it: e-mail, regex, slug, URL) turns a JSON number
into its digits (``{"name": 0}`` is read as ``"0"``), while the OpenAPI schema it writes says
``type: string``: a client sending a number has a bug the server should name, not hide. Every
serializer of the project takes its text fields from here (``tests/test_schema_strict_strings.py``
walks them all); a number, a boolean, a list or an object where text is expected is a 400
saying so. Form and multipart bodies are text already, so they are unaffected.
"""

from __future__ import annotations

from django.db import models
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

NOT_TEXT = "This must be text (a JSON string), not {kind}."


def _kind(data: object) -> str:
    if isinstance(data, bool):
        return "a boolean"
    if isinstance(data, int | float):
        return "a number"
    if isinstance(data, list | tuple):
        return "a list"
    if isinstance(data, dict):
        return "an object"
    return type(data).__name__


class StrictStringMixin:
    """Refuses anything but ``str`` before the field's own parsing."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError(
                NOT_TEXT.format(kind=_kind(data)), code="not_a_string"
            )
        return super().to_internal_value(data)


class StrictCharField(StrictStringMixin, serializers.CharField):
    pass


class StrictEmailField(StrictStringMixin, serializers.EmailField):
    pass


class StrictRegexField(StrictStringMixin, serializers.RegexField):
    pass


class StrictSlugField(StrictStringMixin, serializers.SlugField):
    pass


class StrictURLField(StrictStringMixin, serializers.URLField):
    pass


def stated_range(*, minimum: int, maximum: int) -> type[serializers.IntegerField]:
    """An ``IntegerField`` whose OpenAPI schema states ``minimum`` and ``maximum`` while the
    service behind it checks the range and refuses with its own code (``bad_time_control``,
    ``bad_seats``, ...), which DRF's ``min_value``/``max_value`` would replace by a generic one.
    The schema is the contract: a rule the server enforces is written in it."""

    @extend_schema_field({"type": "integer", "minimum": minimum, "maximum": maximum})
    class StatedRangeIntegerField(serializers.IntegerField):
        pass

    return StatedRangeIntegerField


class StrictModelSerializer(serializers.ModelSerializer):
    """A ``ModelSerializer`` whose text fields made from the model's are the strict ones."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.EmailField: StrictEmailField,
        models.SlugField: StrictSlugField,
        models.URLField: StrictURLField,
    }


@extend_schema_field({"type": "boolean"})
class QueryBooleanField(serializers.BooleanField):
    """A query parameter's ``true``/``false`` (DRF's spellings: 1/0, yes/no, on/off); left out
    it is ``None`` (any), and ``null`` or an empty value is a 400 like any other word (DRF reads
    them as ``None``, which the schema, saying boolean, does not allow)."""

    NULL_VALUES: frozenset = frozenset()

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(allow_null=True, default=None, **kwargs)


class QuerySerializer(serializers.Serializer):
    """The query parameters of a read. DRF reads an empty optional value (``?status=``) as if
    the parameter were left out, so a client that meant to filter gets everything; here it is a
    400 that names it (unless the field takes blank text)."""

    def to_internal_value(self, data):
        getlist = getattr(data, "getlist", None)
        errors = {}
        for field in self._writable_fields:
            name = field.field_name
            if name not in data or getattr(field, "allow_blank", False):
                continue
            values = getlist(name) if getlist else [data[name]]
            if all(value == "" for value in values):
                errors[name] = [f"{name} is empty: give a value, or leave the parameter out."]
        if errors:
            raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
