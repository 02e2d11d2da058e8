"""The API views of playing games: the game database, a game's state and actions (moves,
decisions, Go's marking and count, resign, cancel, undo), sets and my games. Thin: the services
and selectors of ``games.play`` do the work. The endpoints: docs/api.md, "Endpoints".
"""

from __future__ import annotations

from functools import partial

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.play import access, actions, requests, selectors, sets
from games.play.filters import GAME_ORDERING, GameFilter
from games.play.serializers import (
    DeadRequestSerializer,
    DecisionRequestSerializer,
    ErrorSerializer,
    GameStateSerializer,
    GameSummarySerializer,
    GoScoreSerializer,
    MoveRequestSerializer,
    MyGameSerializer,
    SetSerializer,
    StaleErrorSerializer,
)
from pente_site.api import validated
from pente_site.ratelimit import MessageThrottle

#: The most games ``GET /api/me/games/`` lists.
MY_GAMES_LIMIT = 100

ERRORS = {
    400: ErrorSerializer,
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
    409: StaleErrorSerializer,
}


def _require_player(*, game_id: int, user) -> None:
    """404 for no such game, 403 for a caller not seated in it (before the body's rules)."""
    access.require_participant(
        selectors.seats_with_users(selectors.game_get(game_id=game_id)), user
    )


def _state(request, game) -> HttpResponse:
    """The game state as JSON, its moves (``"moves"``, last) spliced in as the cache keeps them."""
    head, moves = selectors.game_state_head_and_moves_json(game=game, viewer=request.user)
    body = b"".join((head, b',"moves":', moves.encode(), b"}"))
    return HttpResponse(body, content_type="application/json")


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
        return _state(request, selectors.game_to_show(game_id=pk))


class GameMovesView(APIView):
    """Play a stone (or Connect6's two) with the ply you saw. Sending the same move twice is
    harmless (200 with the state), unless it then carries a message the move was played
    without (409 ``already_played``); a stale ply is 409 ``stale_ply`` with the current
    ``game``."""

    write_scope = "moves"
    throttle_classes = [*APIView.throttle_classes, MessageThrottle]
    permission_classes = [IsAuthenticated]

    @extend_schema(request=MoveRequestSerializer, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = MoveRequestSerializer(data=request.data)
        validated(data, rights=partial(_require_player, game_id=pk, user=request.user))
        game = actions.move_play(
            game_id=pk,
            user=request.user,
            ply=data.validated_data["ply"],
            points=data.validated_data["points"],
            message=data.validated_data.get("message", ""),
        )
        return _state(request, game)


class GameDecisionView(APIView):
    """Make the pending D-Pente / Swap2 decision."""

    write_scope = "moves"
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=DecisionRequestSerializer, responses={200: GameStateSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = DecisionRequestSerializer(data=request.data)
        validated(data, rights=partial(_require_player, game_id=pk, user=request.user))
        game = actions.game_decide(
            game_id=pk,
            user=request.user,
            ply=data.validated_data["ply"],
            choice=data.validated_data["choice"],
            disputed=data.validated_data["disputed"],
        )
        return _state(request, game)


class GameDeadView(APIView):
    """Go, after two passes: the player who passed first proposes the dead stones
    (``{"ply", "points": ["C3", ...]}``, ``[]`` for none); the opponent answers with
    ``decision`` ``accept`` (the game is counted) or ``reject`` (play resumes)."""

    write_scope = "moves"
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DeadRequestSerializer, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = DeadRequestSerializer(data=request.data)
        validated(data, rights=partial(_require_player, game_id=pk, user=request.user))
        game = actions.game_mark_dead(
            game_id=pk,
            user=request.user,
            ply=data.validated_data["ply"],
            points=data.validated_data["points"],
        )
        return _state(request, game)


class GameCountView(APIView):
    """Go, in the marking phase: the count as it would be with the stones ``dead`` taken off
    (the shape of the state's ``go.score``), for a page to show while the dead stones are being
    marked. A read: nothing is proposed. Players and spectators alike (a spectator delay: on
    the board they see)."""

    permission_classes = [AllowAny]
    query_parameters = ("dead", "groups")

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "dead",
                str,
                required=False,
                description="The stones counted dead, by name, separated by commas "
                "(`C3,D4`; none: the count as the board stands).",
            ),
            OpenApiParameter(
                "groups",
                str,
                required=False,
                description="Stones whose whole groups are counted dead too, one stone a "
                "group, separated by commas: a group is the stone's chain and the stones of "
                "its colour across the same empty region, as the game page marks them.",
            ),
        ],
        responses={
            200: GoScoreSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="bad_coordinate, off_board, bad_dead"
            ),
            404: OpenApiResponse(ErrorSerializer, description="not_found"),
            409: OpenApiResponse(ErrorSerializer, description="not_marking"),
        },
    )
    def get(self, request, pk: int):
        dead, groups = (
            [
                name.strip()
                for given in request.query_params.getlist(key)
                for name in given.split(",")
                if name.strip()
            ]
            for key in ("dead", "groups")
        )
        count = selectors.go_count_preview(
            game_id=pk, viewer=request.user, dead=dead, groups=groups
        )
        return Response(GoScoreSerializer(count).data)


class GameResignView(APIView):
    """Resign the game (any time, on your own turn or not)."""

    write_scope = "moves"
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        return _state(request, actions.game_resign(game_id=pk, user=request.user))


class GameCancelView(APIView):
    """POST: ask to cancel, or agree when the opponent asked (the game is cancelled, unrated).
    DELETE: withdraw your request or decline the opponent's. Tournament games cannot be
    cancelled (409 ``cancel_forbidden``)."""

    write_scope = "moves"
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        return _state(request, requests.game_cancel_request(game_id=pk, user=request.user))

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def delete(self, request, pk: int):
        return _state(request, requests.game_cancel_withdraw(game_id=pk, user=request.user))


class GameUndoView(APIView):
    """POST: the player who just moved asks to take it back; the opponent's POST agrees (Connect6:
    the whole turn). DELETE: withdraw or decline. Not during an opening protocol."""

    write_scope = "moves"
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def post(self, request, pk: int):
        return _state(request, requests.game_undo_request(game_id=pk, user=request.user))

    @extend_schema(request=None, responses={200: GameStateSerializer, **ERRORS})
    def delete(self, request, pk: int):
        return _state(request, requests.game_undo_withdraw(game_id=pk, user=request.user))


class SetDetailView(APIView):
    """A set (one or two games with colours swapped) with its games and result."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: SetSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.set_detail(game_set=selectors.set_get(set_id=pk)))


class MyGamesView(APIView):
    """The signed-in player's games in progress (at most 100), the most urgent first: the
    games where it is their turn, then the least time left (the clock of the player to move in
    a live game, the time to the deadline in a turn-based one; untimed games last). Each says
    whose turn it is and the time left."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MyGameSerializer(many=True), 401: ErrorSerializer})
    def get(self, request):
        rows = selectors.my_games_by_urgency(user=request.user, limit=MY_GAMES_LIMIT)
        return Response(MyGameSerializer(rows, many=True).data)


class SetReadyView(APIView):
    """A live set is played one game at a time: while the countdown to its next game runs,
    each player says here that they are back at the table; when both are, the game starts
    at once (the answer's ``games`` has it)."""

    write_scope = "moves"
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: SetSerializer, **ERRORS})
    def post(self, request, pk: int):
        game_set = sets.set_ready(game_set_id=pk, user=request.user)
        return Response(selectors.set_detail(game_set=selectors.set_get(set_id=game_set.pk)))
