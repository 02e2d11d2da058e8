"""API views of game records: a game's Pente.org record and its picture, records of a filtered
list, and the import of records.

- ``GET  /api/games/{id}/record``           text/plain Pente.org record
- ``GET  /api/games/{id}/board.svg``        SVG picture (``?ply=N`` for an earlier position)
- ``GET  /api/games/{id}/position``         the board as JSON (``?ply=N`` likewise)
- ``GET  /api/games/records``               text/plain records of a filtered list
- ``POST /api/games/import``                text/plain records (or ``{"text": ...}``): 202, a job
- ``GET  /api/games/imports/``              your import jobs, newest first
- ``GET  /api/games/imports/{id}``          one of your import jobs (progress, refusals, games)
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.parsers import BaseParser, FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import get_variant
from games.play import selectors as play_selectors
from games.play.filters import GAME_ORDERING, GameFilter
from games.play.positions import played_of
from games.play.serializers import ErrorSerializer, GameSummarySerializer, ImportRequestSerializer
from games.records import jobs, selectors
from games.records.pictures import board_svg, go_count
from games.records.serializers import (
    ImportJobListQuerySerializer,
    ImportJobSerializer,
    PositionSerializer,
)
from pente_site.api import AnyAccept
from pente_site.errors import Invalid, TooLarge
from pente_site.lists import KnownQueryParameters, Pagination


class PlainTextParser(BaseParser):
    media_type = "text/plain"

    def parse(self, stream, media_type=None, parser_context=None):
        charset = (parser_context or {}).get("encoding") or "utf-8"
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise TooLarge(
                "request_too_large",
                f"The text is larger than {limit} bytes; import it in parts.",
            )
        try:
            return raw.decode(charset)
        except UnicodeDecodeError as exc:
            raise Invalid("malformed_request", f"The text is not {charset}: {exc}") from None


def _record_text(game, viewer) -> str:
    return selectors.game_record_text(game=game, viewer=viewer)


class GameRecordView(APIView):
    """The game as a Pente.org record (text/plain)."""

    content_negotiation_class = AnyAccept
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR),
            404: ErrorSerializer,
        }
    )
    def get(self, request, pk: int):
        game = play_selectors.game_get(game_id=pk)
        body = _record_text(game, request.user)
        return HttpResponse(body, content_type="text/plain; charset=utf-8")


class GameSgfView(APIView):
    """A Go game as SGF (``application/x-go-sgf``), to open in any Go program; 409 ``not_go``
    for the other games."""

    content_negotiation_class = AnyAccept
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            (200, "application/x-go-sgf"): OpenApiResponse(OpenApiTypes.STR),
            404: ErrorSerializer,
            409: ErrorSerializer,
        }
    )
    def get(self, request, pk: int):
        game = play_selectors.game_get(game_id=pk)
        body = selectors.game_sgf(game=game, viewer=request.user)
        response = HttpResponse(body, content_type="application/x-go-sgf; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.sgf"'
        return response


PLY_PARAMETER = OpenApiParameter(
    "ply",
    {"type": "integer", "minimum": 0},
    required=False,
    description="The position after the first N actions (0: the empty board; none: the last "
    "one the viewer sees, a spectator delay hiding the last plies). At most the game's ply "
    "(less the plies a spectator delay hides): beyond is a 400 bad_ply.",
)


def _ply_asked(request) -> int | None:
    raw = request.query_params.get("ply")
    if raw in (None, ""):
        return None
    try:
        return int(raw)
    except ValueError:
        raise Invalid("bad_ply", "ply must be a whole number.") from None


class GamePositionView(APIView):
    """The board after the first N actions (``?ply=N``), as JSON, for a page to draw an
    earlier position on its own board; a spectator delay holds as on the picture."""

    permission_classes = [AllowAny]
    query_parameters = ("ply",)

    @extend_schema(
        parameters=[PLY_PARAMETER],
        responses={
            200: PositionSerializer,
            400: OpenApiResponse(ErrorSerializer, description="bad_ply"),
            404: ErrorSerializer,
        },
    )
    def get(self, request, pk: int):
        game = play_selectors.game_get(game_id=pk)
        ply = _ply_asked(request)
        rows, last, captures, shown = selectors.game_position_at(
            game=game, ply=ply, viewer=request.user
        )
        data = {
            "ply": shown,
            "size": len(rows),
            "rows": rows,
            "last_point": last,
            "captures": list(captures),
        }
        return Response(PositionSerializer(data).data)


class GameBoardSvgView(APIView):
    """An SVG picture of the position (``?ply=N``: after the first N actions)."""

    content_negotiation_class = AnyAccept
    permission_classes = [AllowAny]
    query_parameters = ("ply",)

    @extend_schema(
        parameters=[PLY_PARAMETER],
        responses={
            (200, "image/svg+xml"): OpenApiResponse(OpenApiTypes.STR),
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def get(self, request, pk: int):
        game = play_selectors.game_get(game_id=pk)
        ply = _ply_asked(request)
        rows, last, captures = selectors.game_rows_at(game=game, ply=ply, viewer=request.user)
        variant = get_variant(game.variant)
        counted = variant.scored_by_area and ply in (None, game.ply)
        final = played_of(game).position if counted else None
        svg = board_svg(
            rows,
            last_point=last,
            captures=captures,
            title=f"Game {game.pk}",
            go=variant.black_first,
            count=go_count(final),
        )
        return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


class GameRecordsExportView(generics.GenericAPIView):
    """Pente.org records of a filtered list of games (text/plain), same filters and paging as
    ``/api/games/``. The headers ``X-Total-Count`` and ``X-Page-Count`` tell how many."""

    content_negotiation_class = AnyAccept
    permission_classes = [AllowAny]
    filterset_class = GameFilter
    ordering_fields = GAME_ORDERING
    ordering = ["-id"]
    serializer_class = GameSummarySerializer  # for the filter parameters in the schema
    pagination_class = Pagination

    def get_queryset(self):
        return play_selectors.games_queryset()

    @extend_schema(
        responses={(200, "text/plain"): OpenApiResponse(OpenApiTypes.STR), 400: ErrorSerializer}
    )
    def get(self, request):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        games = page if page is not None else list(queryset)
        text = "\n".join(_record_text(g, request.user).rstrip("\n") + "\n" for g in games)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        if page is not None:
            response["X-Total-Count"] = str(self.paginator.page.paginator.count)
            response["X-Page-Count"] = str(self.paginator.page.paginator.num_pages)
        return response


class GameImportView(APIView):
    """Import Pente.org records (text/plain body, JSON ``{"text": ...}`` or a form field
    ``text``) as archived, unrated games, in the background: 202 with the job to poll (its URL
    in ``Location``). The request only checks the text's size and number of records and your
    imports queued or running; each record is read and replayed by the job, which refuses the
    records it cannot import, each with its reason, and imports the others."""

    write_scope = "imports"
    permission_classes = [IsAuthenticated]
    parser_classes = [PlainTextParser, JSONParser, FormParser, MultiPartParser]

    @extend_schema(
        request={"text/plain": OpenApiTypes.STR, "application/json": ImportRequestSerializer},
        parameters=[
            OpenApiParameter(
                "Location",
                str,
                location=OpenApiParameter.HEADER,
                response=[202],
                description="The URL of the job.",
            )
        ],
        responses={
            202: ImportJobSerializer,
            400: ErrorSerializer,
            409: OpenApiResponse(ErrorSerializer, description="import_busy"),
            413: OpenApiResponse(
                ErrorSerializer, description="request_too_large, too_large, too_many_records"
            ),
        },
    )
    def post(self, request):
        # Only a text/plain body is the text itself: a JSON string (``"AAA"``) is no object
        # with a ``text``, as the schema says, and is refused like any other shape.
        # (An empty body is parsed by no parser: the serializer says the text is missing.)
        plain = request.content_type.partition(";")[0].strip().lower() == PlainTextParser.media_type
        if plain and isinstance(request.data, str):
            text = request.data
        else:
            data = ImportRequestSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            text = data.validated_data["text"]
        job = jobs.import_job_create(owner=request.user, text=text)
        location = request.build_absolute_uri(reverse("game-import-job", args=[job.pk]))
        return Response(
            ImportJobSerializer(job).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": location},
        )


class ImportJobListView(generics.ListAPIView):
    """Your import jobs, newest first (``?status=`` for one status), paginated."""

    permission_classes = [IsAuthenticated]
    serializer_class = ImportJobSerializer
    filter_backends = [KnownQueryParameters]
    query_parameters = ("status",)

    @extend_schema(
        parameters=[ImportJobListQuerySerializer],
        responses={200: ImportJobSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        params = ImportJobListQuerySerializer(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        return selectors.import_jobs_of(
            owner=self.request.user, status=params.validated_data.get("status")
        )


class ImportJobView(APIView):
    """One of your import jobs: its status, progress, counts, refusals and the games created
    (anyone else's is a 404)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ImportJobSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        job = selectors.import_job_get(job_id=pk, owner=request.user)
        return Response(ImportJobSerializer(job).data)
