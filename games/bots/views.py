"""The computer opponents API.

- ``GET  /api/bots/``                 the computer opponents
- ``POST /api/games/{id}/analysis``   ask for the computer's analysis of a finished game: 202
                                      with it (its ``Location``), or the existing one (200 once
                                      done, 202 while pending or running)
- ``GET  /api/games/{id}/analysis``   the analysis: status, progress, each ply, the summary
- ``GET  /api/games/{id}/hint``       the engine's move for you (unrated games against the
                                      computer only), counted by ``HINT_RATE``
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games.bots import analysis, analysis_selectors, selectors
from games.bots.models import Analysis
from games.bots.serializers import AnalysisSerializer, HintSerializer
from games.play.serializers import ErrorSerializer
from pente_site.fields import StrictCharField
from pente_site.lists import KnownQueryParameters
from pente_site.ratelimit import CountedThrottle


class BotOut(serializers.Serializer):
    username = StrictCharField()
    level = serializers.IntegerField(source="bot_level", help_text="1 (weakest) to 8.")
    games = serializers.SerializerMethodField(help_text="The names of the games it plays.")
    think_seconds = serializers.SerializerMethodField(help_text="Its time budget per move.")

    def get_games(self, obj: User) -> list[str]:
        return selectors.bot_games()

    def get_think_seconds(self, obj: User) -> float:
        return selectors.bot_think_seconds(level=obj.bot_level)


class BotListView(ListAPIView):
    """The server's computer opponents, weakest first. Challenge one directly (unrated): it
    accepts at once."""

    permission_classes = [AllowAny]
    serializer_class = BotOut
    filter_backends = [KnownQueryParameters]
    query_parameters = ()

    @extend_schema(responses={200: BotOut(many=True)})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.bots_list()


class HintThrottle(CountedThrottle):
    """Hints per user (a read, but each costs a search): ``HINT_RATE`` (``THROTTLE_HINTS_RATE``,
    30/min). Beyond it: 429 ``throttled``."""

    scope = "hints"

    def limit_for(self, request, view) -> tuple[str, str, str] | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None  # refused by the permission anyway
        return (self.scope, f"user:{user.pk}", settings.HINT_RATE)


def _analysis_response(request, job: Analysis, *, code: int) -> Response:
    location = request.build_absolute_uri(reverse("game-analysis", args=[job.game_id]))
    body = AnalysisSerializer(analysis_selectors.analysis_view(analysis=job)).data
    return Response(body, status=code, headers={"Location": location})


class GameAnalysisView(APIView):
    """The computer's analysis of a finished game: the engine's evaluation after each ply, its
    best move instead, and a judgement (inaccuracy, mistake, blunder) of each move, computed in
    the background. ``POST`` asks for it (one per game: asking again returns it); ``GET``
    shows it (anyone may read it, like the game)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={
            200: AnalysisSerializer,
            404: OpenApiResponse(ErrorSerializer, description="not_found, no_analysis"),
        }
    )
    def get(self, request, pk: int):
        job = analysis_selectors.analysis_get(game_id=pk)
        return _analysis_response(request, job, code=status.HTTP_200_OK)

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "Location",
                str,
                location=OpenApiParameter.HEADER,
                response=[200, 202],
                description="The URL of the analysis.",
            )
        ],
        responses={
            200: OpenApiResponse(AnalysisSerializer, description="The analysis, done."),
            202: OpenApiResponse(
                AnalysisSerializer, description="The analysis, pending or running."
            ),
            400: OpenApiResponse(ErrorSerializer, description="analysis_unavailable"),
            401: ErrorSerializer,
            403: ErrorSerializer,
            404: OpenApiResponse(ErrorSerializer, description="not_found"),
            409: OpenApiResponse(ErrorSerializer, description="game_not_finished, analysis_busy"),
        },
    )
    def post(self, request, pk: int):
        job, _ = analysis.analysis_request(game_id=pk, user=request.user)
        done = job.status == Analysis.Status.DONE
        return _analysis_response(
            request, job, code=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED
        )


class GameHintView(APIView):
    """The engine's move for you, the player to move, in an unrated game in progress against
    the computer (every opponent a computer opponent), with its evaluation for you; none in
    Go's marking of dead stones (409 ``marking_in_progress``). Computed in the request
    (``HINT_SECONDS``); counted per user (``HINT_RATE``)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [*APIView.throttle_classes, HintThrottle]

    @extend_schema(
        responses={
            200: HintSerializer,
            400: OpenApiResponse(ErrorSerializer, description="analysis_unavailable"),
            401: ErrorSerializer,
            403: OpenApiResponse(
                ErrorSerializer, description="not_a_participant, rated_game, no_computer"
            ),
            404: OpenApiResponse(ErrorSerializer, description="not_found"),
            409: OpenApiResponse(
                ErrorSerializer,
                description="not_your_turn, game_over, archived, marking_in_progress (Go)",
            ),
        }
    )
    def get(self, request, pk: int):
        hint = analysis.hint_for(game_id=pk, user=request.user)
        return Response(HintSerializer(hint).data)
