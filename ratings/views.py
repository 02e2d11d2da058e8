"""Ratings API: a player's ratings, history (JSON and SVG), statistics, leaderboards, ranks."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from accounts.models import User
from accounts.selectors import player_get
from games.engine import UnknownGame, get_variant
from pente_site.api import domain_error_response, read_only
from pente_site.errors import DomainError, Invalid, NotFound, Unauthenticated
from pente_site.lists import KnownQueryParameters, refuse_unknown_parameters
from ratings import selectors
from ratings.cursors import decode_cursor, encode_cursor
from ratings.elo import ESTABLISHED_RESULTS, RATING_CLASSES, rating_class
from ratings.models import RatingCategory
from ratings.serializers import (
    ComputerLeaderboardOut,
    LeaderboardPageOut,
    RankOut,
    RatingChangeOut,
    RatingOut,
    StatsOut,
)
from ratings.services import CATEGORY_OF_SET
from ratings.svg import history_chart

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}
DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE = 50, 500
#: The range of ``active_days``.
ACTIVE_DAYS = (1, 36500)


# --- query parameters ---------------------------------------------------------------------


#: The query parameters of the leaderboard and of the rank.
BOARD_PARAMETERS = frozenset({"game", "category", "provisional", "computers", "active_days"})
LEADERBOARD_PARAMETERS = BOARD_PARAMETERS | {"cursor", "page_size"}
RANK_PARAMETERS = BOARD_PARAMETERS | {"player"}


def _game_param(params) -> str:
    text = params.get("game", "").strip()
    if not text:
        raise Invalid("missing_parameter", "Give the game, e.g. ?game=Pente.")
    try:
        return get_variant(text).name
    except UnknownGame as exc:
        raise Invalid("unknown_game", str(exc)) from exc


def _category_param(params, *, default: str | None = "normal") -> str:
    text = params.get("category", "").strip().lower() or default
    if text is None:
        raise Invalid("missing_parameter", "Give the category: speed, normal or turn.")
    if text not in CATEGORY_OF_SET:
        raise Invalid("bad_category", f"Unknown category {text!r}: use speed, normal or turn.")
    return CATEGORY_OF_SET[text]


def _bool_param(params, name: str) -> bool:
    text = params.get(name, "").strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise Invalid("bad_parameter", f"{name} must be true or false.")


def _int_param(params, name: str, *, default: int | None, low: int, high: int) -> int | None:
    text = params.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise Invalid("bad_parameter", f"{name} must be a whole number from {low} to {high}.")
    return value


def _board_param(params) -> selectors.BoardFilter:
    return selectors.BoardFilter(
        variant=_game_param(params),
        category=_category_param(params),
        provisional=_bool_param(params, "provisional"),
        computers=_bool_param(params, "computers"),
        active_days=_int_param(
            params, "active_days", default=None, low=ACTIVE_DAYS[0], high=ACTIVE_DAYS[1]
        ),
    )


def _player(username: str, request=None) -> User:
    if username == "me" and request is not None:
        if not request.user.is_authenticated:
            raise Unauthenticated("not_authenticated", "Log in to ask for your own rank.")
        return request.user
    # The exact name first: it is on the unique index (player_get matches case-insensitively).
    user = User.objects.filter(is_active=True, username=username).first() or player_get(
        username=username
    )
    if user is None:
        raise NotFound("unknown_player", f"There is no player called {username!r}.")
    return user


_CLASS_FLOORS = tuple((floor, label) for floor, label, _colour in RATING_CLASSES)


def _class_label(rating: float, floors=_CLASS_FLOORS) -> str:
    """``rating_class(rating)[0]`` without building the tuple (the leaderboard's hot loop)."""
    for floor, label in floors:
        if rating >= floor:
            return label
    return rating_class(rating)[0]  # pragma: no cover - the last floor is -inf


# --- views --------------------------------------------------------------------------------

GAME = OpenApiParameter(
    "game",
    {"type": "string", "minLength": 1},
    required=True,
    description="Game name or slug, e.g. Pente (400 missing_parameter without it, "
    "unknown_game for a name that is no game).",
)
CATEGORY = OpenApiParameter(
    "category",
    {"type": "string", "enum": sorted(CATEGORY_OF_SET)},
    description="speed, normal (default) or turn",
)
BOARD_PARAMS = [
    GAME,
    CATEGORY,
    OpenApiParameter("provisional", bool, description="Include provisional players"),
    OpenApiParameter("computers", bool, description="Include computer players"),
    OpenApiParameter(
        "active_days",
        {"type": "integer", "minimum": ACTIVE_DAYS[0], "maximum": ACTIVE_DAYS[1]},
        description="Only players with a result in N days",
    ),
]


class LeaderboardView(APIView):
    """Best ratings first. Keyset-paginated: follow ``next`` (``cursor``); ``page_size`` <= 500.
    Players with equal ratings share a rank."""

    permission_classes = [AllowAny]
    query_parameters = tuple(sorted(LEADERBOARD_PARAMETERS))

    @extend_schema(
        parameters=[
            *BOARD_PARAMS,
            OpenApiParameter(
                "cursor", str, description="Where the page starts (the previous page's next link)."
            ),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
                description=f"Players per page (at most {MAX_PAGE_SIZE}).",
            ),
        ],
        responses={200: LeaderboardPageOut},
    )
    def get(self, request):
        params = request.query_params
        board = _board_param(params)
        size = _int_param(params, "page_size", default=DEFAULT_PAGE_SIZE, low=1, high=MAX_PAGE_SIZE)
        cursor = params.get("cursor")
        if cursor:
            prev_rating, last_id, rank, position = decode_cursor(cursor)
            after = (prev_rating, last_id)
        else:
            prev_rating, rank, position, after = None, 0, 0, None
        rows = selectors.leaderboard_page(board=board, after=after, limit=size + 1)
        more = len(rows) > size
        # The hot loop: locals only, one dict literal per line.
        lines = []
        append = lines.append
        established = ESTABLISHED_RESULTS
        class_of = _class_label
        for _id, rating, results, wins, losses, draws, last_played_at, name in rows[:size]:
            position += 1
            if rating != prev_rating:
                rank, prev_rating = position, rating
            append(
                {
                    "rank": rank,
                    "player": name,
                    "rating": round(rating, 2),
                    "results": results,
                    "wins": wins,
                    "losses": losses,
                    "draws": draws,
                    "established": results >= established,
                    "rating_class": class_of(rating),
                    # As DRF writes an aware UTC datetime: ISO 8601 with a "Z".
                    "last_played_at": (
                        None if last_played_at is None else last_played_at.isoformat() + "Z"
                    ),
                }
            )
        next_url = None
        if more:
            last_id, last_rating = rows[size - 1][:2]
            next_url = replace_query_param(
                request.build_absolute_uri(),
                "cursor",
                encode_cursor(rating=last_rating, row_id=last_id, rank=rank, position=position),
            )
        # Rows are built by hand (LeaderboardRowOut documents them): this is the hot path.
        return Response(
            {
                "game": board.variant,
                "category": board.category,
                "next": next_url,
                "results": lines,
            }
        )


class LeaderboardRankView(APIView):
    """A player's rank on a leaderboard: 1 + the players on it rated higher.
    ``player=me`` is the logged-in user."""

    permission_classes = [AllowAny]
    query_parameters = tuple(sorted(RANK_PARAMETERS))

    @extend_schema(
        parameters=[
            *BOARD_PARAMS,
            OpenApiParameter(
                "player", str, required=True, description="A username, or me (with a token)."
            ),
        ],
        responses={200: RankOut},
    )
    def get(self, request):
        params = request.query_params
        board = _board_param(params)
        username = params.get("player", "").strip()
        if not username:
            raise Invalid("missing_parameter", "Give the player, e.g. ?player=me.")
        # One query in the common case: the exact name, its rating and its rank.
        ranked = None if username == "me" else selectors.board_rank(board=board, username=username)
        if ranked is None:  # "me", another spelling of the name, or no rating
            user = _player(username, request)
            username = user.username
            ranked = selectors.board_rank(board=board, user_id=user.pk)
            if ranked is None:
                raise NotFound(
                    "not_rated",
                    f"{user.username} has no {board.variant} {board.category} rating yet.",
                )
        if ranked.rank is None:
            raise NotFound(
                "not_ranked",
                f"{username} is not on this leaderboard (provisional, computer or inactive).",
                extra={"rating": round(ranked.rating, 2), "results": ranked.results},
            )
        # Built by hand (RankOut documents it), like the leaderboard rows: the hot path.
        return Response(
            {
                "player": username,
                "game": board.variant,
                "category": board.category,
                "rank": ranked.rank,
                "rating": round(ranked.rating, 2),
                "results": ranked.results,
                "established": ranked.established,
            }
        )


class PlayerRatingsView(ListAPIView):
    """Every rating of a player (one per game and category)."""

    permission_classes = [AllowAny]
    serializer_class = RatingOut
    filter_backends = [KnownQueryParameters]

    def get_queryset(self):
        return selectors.player_ratings(user=_player(self.kwargs["username"]))


class RatingHistoryView(ListAPIView):
    """Every change of one rating, oldest first: ``?game=Pente&category=speed``."""

    query_parameters = ("game", "category")
    permission_classes = [AllowAny]
    serializer_class = RatingChangeOut
    filter_backends = [KnownQueryParameters]

    @extend_schema(parameters=[GAME, CATEGORY])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        params = self.request.query_params
        return selectors.rating_history(
            user=_player(self.kwargs["username"]),
            variant=_game_param(params),
            category=_category_param(params),
        )


class PlayerStatsView(APIView):
    """Wins, losses, draws, streaks and rating class per game and category; crowns."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: StatsOut})
    def get(self, request, username: str):
        return Response(selectors.player_stats(user=_player(username)))


@read_only
def rating_history_svg(request, username: str) -> HttpResponse:
    """The history of one rating as an SVG line chart (errors are JSON like everywhere)."""
    try:
        refuse_unknown_parameters(request.GET, {"game", "category"})
        user = _player(username)
        variant = _game_param(request.GET)
        category = _category_param(request.GET)
    except DomainError as exc:
        return domain_error_response(exc)
    changes = selectors.rating_history(user=user, variant=variant, category=category)
    points = list(changes.values_list("created_at", "rating_after"))
    first = changes.values_list("rating_before", flat=True).first()
    svg = history_chart(
        points,
        title=f"{user.username}: {variant} {RatingCategory(category).label} rating",
        start=first if first is not None else 0.0,
    )
    return HttpResponse(svg, content_type="image/svg+xml")


class ComputerLeaderboardView(APIView):
    """The computer opponents' own leaderboard in one game and category, best first. Their
    ratings move with every game against a human (unrated for the human)."""

    permission_classes = [AllowAny]
    query_parameters = ("game", "category")

    @extend_schema(parameters=[GAME, CATEGORY], responses={200: ComputerLeaderboardOut})
    def get(self, request):
        params = request.query_params
        variant, category = _game_param(params), _category_param(params)
        rows = selectors.computer_leaderboard(variant=variant, category=category)
        data = {"game": variant, "category": category, "results": rows}
        return Response(ComputerLeaderboardOut(data).data)
