"""Thin API views of the games app. Business logic lives in ``games.services``; reads in
``games.selectors``. Every refusal is ``{"code": ..., "detail": ...}`` (see services for codes).

Endpoints:

- ``GET  /api/games/``                      game database: filter, order, paginate
- ``GET  /api/games/{id}/``                 full game state
- ``POST /api/games/{id}/moves``            ``{"ply": 3, "point": "K12", "message": "gl"}``
                                            (Connect6: ``"points": ["K12", "L12"]``)
- ``POST /api/games/{id}/decision``         ``{"ply": 4, "choice": "swap"}``
- ``POST /api/games/{id}/resign``
- ``POST|DELETE /api/games/{id}/cancel``    ask / agree; withdraw / decline
- ``POST|DELETE /api/games/{id}/undo``      ask / agree; withdraw / decline
- ``GET  /api/games/{id}/record``           text/plain Pente.org record
- ``GET  /api/games/{id}/board.svg``        SVG picture (``?ply=N`` for an earlier position)
- ``GET  /api/games/records``               text/plain records of a filtered list
- ``POST /api/games/import``                text/plain records (or ``{"text": ...}``)
- ``GET  /api/sets/{id}/``                  a set with its games
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.parsers import BaseParser, FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.filters import GameFilter
from games.serializers import (
    DecisionRequestSerializer,
    ErrorSerializer,
    GameStateSerializer,
    GameSummarySerializer,
    ImportRequestSerializer,
    ImportResultSerializer,
    MoveRequestSerializer,
    SetSerializer,
    StaleErrorSerializer,
)
from pente_site.api import ApiError, Pagination

ERRORS = {
    400: ErrorSerializer,
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
    409: StaleErrorSerializer,
}
GAME_ORDERING = ["id", "created_at", "started_at", "finished_at", "ply", "variant"]


class PlainTextParser(BaseParser):
    media_type = "text/plain"

    def parse(self, stream, media_type=None, parser_context=None):
        charset = (parser_context or {}).get("encoding") or "utf-8"
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise ApiError(
                "request_too_large",
                f"The text is larger than {limit} bytes; import it in parts.",
                status_code=413,
            )
        try:
            return raw.decode(charset)
        except UnicodeDecodeError as exc:
            raise ApiError("malformed_request", f"The text is not {charset}: {exc}") from None


def _state(request, game) -> Response:
    return Response(selectors.game_state(game=game, viewer=request.user))


def _parse_points(raw_points) -> list[int]:
    from games.engine import IllegalMove, parse_point

    try:
        return [parse_point(p) for p in raw_points]
    except IllegalMove as exc:
        raise ApiError(exc.code, exc.detail) from None


class GameListView(generics.ListAPIView):
    """The game database: every game, newest first. Filters: see ``GameFilter``
    (player, opponent, variant, rated, imported, status, end_reason, result, winner,
    date_after, date_before, set); ``ordering`` (e.g. ``-finished_at``); ``page``/``page_size``."""

    permission_classes = [AllowAny]
    serializer_class = GameSummarySerializer
    filterset_class = GameFilter
    ordering_fields = GAME_ORDERING
    ordering = ["-id"]

    def get_queryset(self):
        return selectors.games_queryset()


class GameDetailView(APIView):
    """The full state of a game: board, captures, who is to move, pending decision, clocks,
    moves (messages only for participants until the game is over), requests."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: GameStateSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return _state(request, selectors.game_get(game_id=pk))


class GameMovesView(APIView):
    """Play a stone (or Connect6's two) with the ply you saw. Sending the same move twice is
    harmless (200 with the state); a stale ply is 409 ``stale_ply`` with the current ``game``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=MoveRequestSerializer, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = MoveRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.move_play(
            game_id=pk,
            user=request.user,
            ply=data.validated_data["ply"],
            points=_parse_points(data.validated_data["points"]),
            message=data.validated_data.get("message", ""),
        )
        return _state(request, game)


class GameDecisionView(APIView):
    """Make the pending D-Pente / Swap2 decision."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=DecisionRequestSerializer, responses={200: GameStateSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = DecisionRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_decide(
            game_id=pk,
            user=request.user,
            ply=data.validated_data["ply"],
            choice=data.validated_data["choice"],
        )
        return _state(request, game)


class GameResignView(APIView):
    """Resign the game (any time, on your own turn or not)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        return _state(request, services.game_resign(game_id=pk, user=request.user))


class GameCancelView(APIView):
    """POST: ask to cancel, or agree when the opponent asked (the game is cancelled, unrated).
    DELETE: withdraw your request or decline the opponent's. Tournament games cannot be
    cancelled (409 ``cancel_forbidden``)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        return _state(request, services.game_cancel_request(game_id=pk, user=request.user))

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def delete(self, request, pk: int):
        return _state(request, services.game_cancel_withdraw(game_id=pk, user=request.user))


class GameUndoView(APIView):
    """POST: the player who just moved asks to take it back; the opponent's POST agrees (Connect6:
    the whole turn). DELETE: withdraw or decline. Not during an opening protocol."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        return _state(request, services.game_undo_request(game_id=pk, user=request.user))

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def delete(self, request, pk: int):
        return _state(request, services.game_undo_withdraw(game_id=pk, user=request.user))


def _record_text(game) -> str:
    return selectors.game_record_text(game=game)


class GameRecordView(APIView):
    """The game as a Pente.org record (text/plain)."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR),
            404: ErrorSerializer,
        }
    )
    def get(self, request, pk: int):
        game = selectors.game_get(game_id=pk)
        return HttpResponse(_record_text(game), content_type="text/plain; charset=utf-8")


class GameBoardSvgView(APIView):
    """An SVG picture of the position (``?ply=N``: after the first N actions)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("ply", int, required=False)],
        responses={
            (200, "image/svg+xml"): OpenApiResponse(OpenApiTypes.STR),
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def get(self, request, pk: int):
        from games.svg import board_svg

        game = selectors.game_get(game_id=pk)
        raw = request.query_params.get("ply")
        ply = None
        if raw not in (None, ""):
            try:
                ply = int(raw)
            except ValueError:
                raise ApiError("bad_ply", "ply must be a whole number.") from None
        rows, last, captures = selectors.game_rows_at(game=game, ply=ply)
        svg = board_svg(rows, last_point=last, captures=captures, title=f"Game {game.pk}")
        return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


class GameRecordsExportView(generics.GenericAPIView):
    """Pente.org records of a filtered list of games (text/plain), same filters and paging as
    ``/api/games/``. The headers ``X-Total-Count`` and ``X-Page-Count`` tell how many."""

    permission_classes = [AllowAny]
    filterset_class = GameFilter
    ordering_fields = GAME_ORDERING
    ordering = ["-id"]
    serializer_class = GameSummarySerializer  # for the filter parameters in the schema
    pagination_class = Pagination

    def get_queryset(self):
        return selectors.games_queryset()

    @extend_schema(
        responses={(200, "text/plain"): OpenApiResponse(OpenApiTypes.STR), 400: ErrorSerializer}
    )
    def get(self, request):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        games = page if page is not None else list(queryset)
        text = "\n".join(_record_text(g).rstrip("\n") + "\n" for g in games)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        if page is not None:
            response["X-Total-Count"] = str(self.paginator.page.paginator.count)
            response["X-Page-Count"] = str(self.paginator.page.paginator.num_pages)
        return response


class GameImportView(APIView):
    """Import Pente.org records (text/plain body, or JSON ``{"text": ...}``) as archived,
    unrated games. 201 with the games created."""

    permission_classes = [IsAuthenticated]
    parser_classes = [PlainTextParser, JSONParser, FormParser, MultiPartParser]

    @extend_schema(
        request={"text/plain": OpenApiTypes.STR, "application/json": ImportRequestSerializer},
        responses={201: ImportResultSerializer, 400: ErrorSerializer},
    )
    def post(self, request):
        if isinstance(request.data, str):
            text = request.data
        else:
            data = ImportRequestSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            text = data.validated_data["text"]
        games = services.games_import(text=text, user=request.user)
        loaded = selectors.games_queryset().in_bulk([g.pk for g in games])  # one query, not N
        body = {"count": len(games), "games": [selectors.game_summary(loaded[g.pk]) for g in games]}
        return Response(body, status=status.HTTP_201_CREATED)


class SetDetailView(APIView):
    """A set (one or two games with colours swapped) with its games and result."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: SetSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.set_detail(game_set=selectors.set_get(set_id=pk)))


__all__ = [
    "GameBoardSvgView",
    "GameCancelView",
    "GameDecisionView",
    "GameDetailView",
    "GameImportView",
    "GameListView",
    "GameMovesView",
    "GameRecordView",
    "GameRecordsExportView",
    "GameResignView",
    "GameUndoView",
    "SetDetailView",
]
