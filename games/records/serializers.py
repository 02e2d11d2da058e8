"""Serializers of record import jobs (``POST /api/games/import``, ``GET /api/games/imports/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.play.serializers import ErrorSerializer
from games.records.models import ImportJob
from pente_site.fields import QuerySerializer, StrictCharField


class PositionSerializer(serializers.Serializer):
    """``GET /api/games/{id}/position``: the board after the first ``ply`` actions."""

    ply = serializers.IntegerField(help_text="The actions played to reach it.")
    size = serializers.IntegerField()
    rows = serializers.ListField(
        child=StrictCharField(),
        help_text="Top row first: '.' an empty point, a digit a stone of that colour.",
    )
    last_point = serializers.IntegerField(
        allow_null=True, help_text="The index of the last stone's point, or null."
    )
    captures = serializers.ListField(
        child=serializers.IntegerField(), help_text="Stones captured by each colour."
    )


class ImportRefusalSerializer(serializers.Serializer):
    record = serializers.IntegerField(help_text="The record's number in the text, from 1.")
    line = serializers.IntegerField(
        help_text="The line where the record starts, or where reading it failed."
    )
    code = StrictCharField(
        help_text="Why: the reader's or the engine's code (bad_token, occupied, ...), "
        "not_stored, or duplicate (the game is here already, or earlier in the text)."
    )
    detail = StrictCharField(
        help_text="The reason in a sentence; a duplicate names the game here (Game 812 ...) "
        "or the record of the text it repeats."
    )


class ImportProgressSerializer(serializers.Serializer):
    processed = serializers.IntegerField(
        source="records_processed", help_text="Records imported or refused so far."
    )
    total = serializers.IntegerField(source="records_total", help_text="Records in the text.")


class ImportJobSerializer(serializers.Serializer):
    """An import job: poll it (``GET /api/games/imports/{id}``) until ``status`` is ``done`` or
    ``failed``."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=ImportJob.Status.choices,
        help_text="queued, running, done (every record imported or refused) or failed (see "
        "error; the records counted as processed stay imported).",
    )
    progress = ImportProgressSerializer(source="*")
    size_bytes = serializers.IntegerField()
    imported = serializers.IntegerField(source="imported_count")
    refused = serializers.IntegerField(source="refused_count")
    refusals = ImportRefusalSerializer(
        many=True, help_text="The records refused, each with its reason (the first 1,000)."
    )
    refusals_truncated = serializers.SerializerMethodField(
        help_text="True when more records were refused than the refusals listed."
    )
    games = serializers.ListField(
        child=serializers.IntegerField(),
        source="game_ids",
        help_text="Ids of the games created, in the order of their records.",
    )
    error = serializers.SerializerMethodField(help_text="Why a failed import stopped.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_refusals_truncated(self, job: ImportJob) -> bool:
        return job.refused_count > len(job.refusals)

    @extend_schema_field(ErrorSerializer(allow_null=True))
    def get_error(self, job: ImportJob) -> dict[str, str] | None:
        if not job.error_code:
            return None
        return {"code": job.error_code, "detail": job.error_detail}


class ImportJobListQuerySerializer(QuerySerializer):
    status = serializers.ChoiceField(choices=ImportJob.Status.choices, required=False)
