"""The rooms, chat, presence, ignore and report endpoints (the streams are ``live.streams``); the
routes are in ``live.urls`` and described in docs/api.md.
"""

from __future__ import annotations

from django.db import DatabaseError, connection
from drf_spectacular.utils import OpenApiParameter, extend_schema
from redis.exceptions import RedisError
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from games.play.selectors import game_get
from games.play.serializers import ErrorSerializer
from live import selectors, services
from live.bus import RedisBackend, backend
from live.channels import room_channel
from live.serializers import (
    ChatIn,
    ChatLineOut,
    HealthOut,
    IgnoreIn,
    IgnoreOut,
    PersonOut,
    ReportIn,
    ReportOut,
    RoomDetailOut,
    RoomOut,
    SpectatorsOut,
)
from pente_site import cache as shared_cache
from pente_site import counters
from pente_site.errors import Invalid
from pente_site.ratelimit import ChatBurstThrottle

ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404, 409, 429)}
CHAT_PAGE = [
    OpenApiParameter("before", int, description="Only lines before this line's id."),
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": 200},
        description="At most this many lines (1-200, default 50).",
    ),
]


def _page(request) -> tuple[int | None, int]:
    before, limit = request.query_params.get("before"), request.query_params.get("limit")
    try:
        before_id = int(before) if before not in (None, "") else None
        count = int(limit) if limit not in (None, "") else 50
    except ValueError:
        raise Invalid("bad_page", "before and limit are whole numbers.") from None
    if not 1 <= count <= 200:
        raise Invalid("bad_page", "limit is from 1 to 200.")
    return before_id, count


def _viewer(request):
    return request.user if request.user.is_authenticated else None


class RoomListView(APIView):
    """The main room, then the rooms of the tournaments not finished, with how many are in
    each."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RoomOut(many=True)})
    def get(self, request):
        rooms = list(selectors.rooms_list())
        counts = selectors.online_counts(places=[room_channel(r.name) for r in rooms])
        body = [
            {
                "name": r.name,
                "title": r.title,
                "tournament": r.tournament_id,
                "online": counts.get(room_channel(r.name), 0),
            }
            for r in rooms
        ]
        return Response(RoomOut(body, many=True).data)


class RoomDetailView(APIView):
    """A room: who is in it (with their ratings) and its last chat lines."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RoomDetailOut, 404: ErrorSerializer})
    def get(self, request, name: str):
        room = services.room_open(name=name)
        place = room_channel(room.name)
        lines = selectors.chat_lines(viewer=_viewer(request), room=room)
        body = {
            "name": room.name,
            "title": room.title,
            "tournament": room.tournament_id,
            "online": selectors.online_in(place=place),
            "anonymous": selectors.anonymous_count(place=place),
            "chat": [selectors.line_data(line) for line in lines],
        }
        return Response(RoomDetailOut(body).data)


class _ChatView(APIView):
    """``GET``: the lines of a room or game as you see them, oldest first. ``POST``: say a line
    (at most 300 characters; ``chat`` and ``chat_burst`` rate limits; the same line twice in
    30 s is 409 ``chat_repeated``)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    write_scope = "chat"
    throttle_classes = [*APIView.throttle_classes, ChatBurstThrottle]
    query_parameters = ("before", "limit")

    def where(self, **kwargs) -> dict:
        """``{"room": ...}`` or ``{"game": ...}`` of the URL."""
        raise NotImplementedError

    @extend_schema(parameters=CHAT_PAGE, responses={200: ChatLineOut(many=True), **ERRORS})
    def get(self, request, **kwargs):
        before, limit = _page(request)
        lines = selectors.chat_lines(
            viewer=_viewer(request), before=before, limit=limit, **self.where(**kwargs)
        )
        return Response(ChatLineOut([selectors.line_data(x) for x in lines], many=True).data)

    @extend_schema(request=ChatIn, responses={201: ChatLineOut, **ERRORS})
    def post(self, request, **kwargs):
        data = ChatIn(data=request.data)
        data.is_valid(raise_exception=True)
        text = data.validated_data["text"]
        where = self.where(**kwargs)
        if "room" in where:
            line = services.chat_say_room(author=request.user, room=where["room"], text=text)
        else:
            line = services.chat_say_game(author=request.user, game=where["game"], text=text)
        return Response(ChatLineOut(selectors.line_data(line)).data, status=status.HTTP_201_CREATED)


class RoomChatView(_ChatView):
    """A room's chat."""

    def where(self, *, name: str) -> dict:
        return {"room": services.room_open(name=name)}


class GameChatView(_ChatView):
    """A game's chat, players and spectators (a player of a rated game in progress does not see
    the spectators' lines)."""

    def where(self, *, pk: int) -> dict:
        return {"game": game_get(game_id=pk)}


class GameSpectatorsView(APIView):
    """How many people follow a game without being seated in it, and who (logged in)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: SpectatorsOut, 404: ErrorSerializer})
    def get(self, request, pk: int):
        game = game_get(game_id=pk)
        body = {
            "count": selectors.spectators_count(game_id=game.pk),
            "people": selectors.spectators_of(game_id=game.pk),
        }
        return Response(SpectatorsOut(body).data)


class OnlineView(APIView):
    """Everyone with a stream open (logged in), by name, with their ratings."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PersonOut(many=True)})
    def get(self, request):
        return Response(PersonOut(selectors.online_in(), many=True).data)


class IgnoreListView(APIView):
    """``GET``: the people whose chat you do not see. ``POST``: ignore one more."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: IgnoreOut(many=True)})
    def get(self, request):
        return Response(IgnoreOut(selectors.ignores_of(user=request.user), many=True).data)

    @extend_schema(request=IgnoreIn, responses={201: IgnoreOut, **ERRORS})
    def post(self, request):
        data = IgnoreIn(data=request.data)
        data.is_valid(raise_exception=True)
        found = services.ignore_add(user=request.user, username=data.validated_data["username"])
        return Response(IgnoreOut(found).data, status=status.HTTP_201_CREATED)


class IgnoreDetailView(APIView):
    """See someone's chat again."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, username: str):
        services.ignore_remove(user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ChatReportView(APIView):
    """Report a chat line to the staff (once per line)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReportIn, responses={201: ReportOut, **ERRORS})
    def post(self, request, pk: int):
        data = ReportIn(data=request.data)
        data.is_valid(raise_exception=True)
        line = selectors.chat_line_get(line_id=pk)
        report = services.report_create(
            reporter=request.user, line=line, reason=data.validated_data["reason"]
        )
        return Response(ReportOut(report).data, status=status.HTTP_201_CREATED)


class ChatLineView(APIView):
    """Take a chat line down (staff only): its readers get ``chat_removed``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, pk: int):
        line = selectors.chat_line_get(line_id=pk)
        services.chat_remove(line=line, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except DatabaseError:
        return False


class HealthView(APIView):
    """How this web process is doing: whether the database and Redis answer, and what it did
    without Redis since it started (rate limits counted in the process, cache reads and writes
    given up, live events kept in the database outbox). 200 while the database answers, even
    with Redis away (the process still serves everything); 503 when it does not."""

    permission_classes = [AllowAny]
    throttle_classes: list = []

    @extend_schema(responses={200: HealthOut, 503: HealthOut})
    def get(self, request):
        bus = backend()
        redis_up: bool | None = None
        events = None
        if isinstance(bus, RedisBackend):
            try:
                redis_up = bool(bus.client.ping())
            except (RedisError, OSError):
                redis_up = False
            events = dict(bus.stats)
        database = _database_answers()
        body = {
            "status": "ok" if database and redis_up is not False else "degraded",
            "database": database,
            "redis": redis_up,
            "rate_limits_in_process": counters.fallback_stats(),
            "cache_skipped": shared_cache.outage.skipped,
            "events": events,
        }
        if not database:
            body["status"] = "down"
        code = status.HTTP_200_OK if database else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(HealthOut(body).data, status=code)
