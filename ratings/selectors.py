"""Reads of the ratings app: a player's ratings, history, statistics, leaderboards and ranks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import User
from pente_site.db import prepared_cursor
from ratings.elo import (
    CATEGORY_OF_SET,
    ESTABLISHED_RESULTS,
    START_RATING,
    rating_category,
    rating_class,
)
from ratings.models import (
    RANK_BUCKET_WIDTH,
    ComputerRating,
    Crown,
    Rating,
    RatingBucket,
    RatingChange,
)


def _rated_category(category: str) -> str:
    """The rating category of ``category``, a set's category accepted (untimed counts as
    normal)."""
    return rating_category(category) if category in CATEGORY_OF_SET else category


def rating_for(*, user: User, variant: str, category: str) -> tuple[float, int] | None:
    """``(rating, rated results)`` of ``user`` in a game and category (a set's category is
    accepted: untimed counts as normal), or None before the first rated result."""
    category = _rated_category(category)
    row = (
        Rating.objects.filter(user=user, variant=variant, category=category)
        .values_list("rating", "results")
        .first()
    )
    return (row[0], row[1]) if row else None


def rating_or_start(*, user: User, variant: str, category: str) -> tuple[float, int]:
    """``(rating, rated results)`` as :func:`rating_for`; ``(START_RATING, 0)`` before the first
    rated result."""
    found = rating_for(user=user, variant=variant, category=category)
    if found is None:
        return START_RATING, 0
    rating, results = found
    return float(rating), int(results)


def on_rating_asked(
    sender, *, user: User, variant: str, category: str, **kwargs
) -> tuple[float, int]:
    """The answer to ``games.challenges.signals.rating_asked``: :func:`rating_or_start`."""
    return rating_or_start(user=user, variant=variant, category=category)


def ratings_or_start(
    *, user_ids: list[int], variant: str, category: str
) -> dict[int, tuple[float, int]]:
    """:func:`rating_or_start` of many players in one query, by user id."""
    category = _rated_category(category)
    found = {
        user_id: (float(rating), int(results))
        for user_id, rating, results in Rating.objects.filter(
            user_id__in=user_ids, variant=variant, category=category
        ).values_list("user_id", "rating", "results")
    }
    return {user_id: found.get(user_id, (START_RATING, 0)) for user_id in user_ids}


def player_ratings(*, user: User) -> QuerySet[Rating]:
    return Rating.objects.filter(user=user).order_by("variant", "category", "id")


def rating_history(*, user: User, variant: str, category: str) -> QuerySet[RatingChange]:
    """Every change of one rating, oldest first."""
    return (
        RatingChange.objects.filter(
            rating__user=user, rating__variant=variant, rating__category=category
        )
        .select_related("opponent", "game_set")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True, slots=True)
class BoardFilter:
    """Who a leaderboard lists. Defaults: established humans, any time. A deactivated account
    is on no board."""

    variant: str
    category: str
    provisional: bool = False
    computers: bool = False
    active_days: int | None = None

    def active_since(self, now: datetime | None = None) -> datetime | None:
        if self.active_days is None:
            return None
        return (now or timezone.now()) - timedelta(days=self.active_days)

    def queryset(self, *, now: datetime | None = None) -> QuerySet[Rating]:
        rows = Rating.objects.filter(variant=self.variant, category=self.category, listed=True)
        if not self.provisional:
            rows = rows.filter(results__gte=ESTABLISHED_RESULTS)
        if not self.computers:
            rows = rows.filter(is_computer=False)
        since = self.active_since(now)
        if since is not None:
            rows = rows.filter(last_played_at__gte=since)
        return rows

    def admits(self, row: Rating, *, now: datetime | None = None) -> bool:
        since = self.active_since(now)
        return (
            row.variant == self.variant
            and row.category == self.category
            and row.listed
            and (self.provisional or row.established)
            and (self.computers or not row.is_computer)
            and (since is None or (row.last_played_at is not None and row.last_played_at >= since))
        )


#: The columns of a leaderboard row, in order (``last_played_at``: a naive datetime in UTC).
BOARD_COLUMNS = ("id", "rating", "results", "wins", "losses", "draws", "last_played_at", "username")
BoardRow = tuple[int, float, int, int, int, int, datetime | None, str]


class RankedRow(NamedTuple):
    """A player's rating and rank on a board (``rank`` None: not on the board)."""

    rating: float
    results: int
    rank: int | None

    @property
    def established(self) -> bool:
        return self.results >= ESTABLISHED_RESULTS


# The leaderboard and rank reads are the hot path of the ratings API: hand-written SQL, one
# round trip each, built once per board shape. The board's fixed conditions are literals (not
# parameters) so that PostgreSQL matches the partial index of the default board even when
# statements are prepared (a generic plan cannot prove a partial index predicate from $n), and
# so is a page's LIMIT (with ``LIMIT $n`` the generic plan looks dearer than a custom one, so
# PostgreSQL would go on planning the statement at every execution).
#
# On PostgreSQL these statements are prepared on the server (``pente_site.db.prepared_cursor``):
# parsing and planning them was most of the database's share of a request (the rest is an
# index-only scan of ~51 entries).


def _board_conditions(board: BoardFilter, alias: str) -> str:
    conditions = [f"{alias}.variant = %s", f"{alias}.category = %s", f"{alias}.listed"]
    if not board.provisional:
        conditions.append(f"{alias}.results >= {int(ESTABLISHED_RESULTS)}")
    if not board.computers:
        conditions.append(f"NOT {alias}.is_computer")
    if board.active_days is not None:
        conditions.append(f"{alias}.last_played_at >= %s")
    return " AND ".join(conditions)


def _board_params(board: BoardFilter, since: datetime | None) -> list[Any]:
    params: list[Any] = [board.variant, board.category]
    if since is not None:
        params.append(connection.ops.adapt_datetimefield_value(since))
    return params


def _tables() -> tuple[str, str, str]:
    quote = connection.ops.quote_name
    return (
        quote(Rating._meta.db_table),
        quote(User._meta.db_table),
        quote(RatingBucket._meta.db_table),
    )


@lru_cache(maxsize=256)
def _page_sql(shape: tuple[bool, bool, bool], after: bool, vendor: str, limit: int) -> str:
    provisional, computers, active = shape
    board = BoardFilter("", "", provisional, computers, 1 if active else None)
    rating, _, _ = _tables()
    keyset = " AND r.rating <= %s AND (r.rating < %s OR (r.rating = %s AND r.id > %s))"
    # A plain ``timestamp`` in UTC: psycopg's compiled loader reads it (Django replaces the
    # ``timestamptz`` one with a pure-Python loader, which was most of the cost of a page).
    # SQLite stores naive UTC text already.
    played = "r.last_played_at AT TIME ZONE 'UTC'" if vendor == "postgresql" else "r.last_played_at"
    return (
        f"SELECT r.id, r.rating, r.results, r.wins, r.losses, r.draws, {played}, r.username"
        f" FROM {rating} r WHERE {_board_conditions(board, 'r')}{keyset if after else ''}"
        f" ORDER BY r.rating DESC, r.id LIMIT {int(limit)}"
    )


def _shape(board: BoardFilter) -> tuple[bool, bool, bool]:
    return (board.provisional, board.computers, board.active_days is not None)


def leaderboard_page(
    *, board: BoardFilter, after: tuple[float, int] | None = None, limit: int
) -> list[BoardRow]:
    """Up to ``limit`` rows of the board, best first (rating desc, id), starting after
    ``(rating, id)`` when given: keyset pagination on the (variant, category, -rating, id)
    index. One prepared query (``prepared_cursor``); on the default board an index-only scan (the
    index covers the line).

    Rows are plain tuples of ``BOARD_COLUMNS`` (cheapest to make and unpack, 51 of them per
    page); ``last_played_at`` is a naive datetime in UTC (the caller writes its "Z")."""
    params = _board_params(board, board.active_since())
    if after is not None:
        rating, row_id = after
        params += [rating, rating, rating, row_id]
    vendor = connection.vendor
    with prepared_cursor() as cursor:
        cursor.execute(_page_sql(_shape(board), after is not None, vendor, limit), params)
        rows = cursor.fetchall()
    if vendor == "postgresql":
        return rows
    return [(*row[:6], _naive_utc(row[6]), row[7]) for row in rows]


def _naive_utc(value: Any) -> datetime | None:
    """A datetime column read through a raw SQLite cursor (text, naive UTC)."""
    if value is None or isinstance(value, datetime):
        return value
    parsed = parse_datetime(value)
    if parsed is not None and parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


_RANK_LOOKUPS = {
    # The exact name on the unique index (the case-insensitive match is the caller's fallback).
    "username": "r.user_id = (SELECT u.id FROM {user} u WHERE u.username = %s AND u.is_active)",
    "user": "r.user_id = %s",
    "row": "r.id = %s",
}


@lru_cache(maxsize=64)
def _rank_sql(shape: tuple[bool, bool, bool], lookup: str) -> str:
    """One rating row and, when it is on the board, 1 + the rows on the board rated higher.

    Without an activity filter: the rank buckets above the row's bucket, plus a count inside
    its bucket (both small, whatever the number of players). With one: a count on the index.
    The row's bucket is ``ratings.elo.bucket_of``: FLOOR(rating / width), corrected when the
    division rounded up. No join, no CTE: the statement is cheap to plan as well as to run.
    """
    provisional, computers, active = shape
    board = BoardFilter("", "", provisional, computers, 1 if active else None)
    rating, user, bucket = _tables()
    width = int(RANK_BUCKET_WIDTH)
    estimate = f"FLOOR(r.rating / {width})"
    row_bucket = (
        f"(CASE WHEN r.rating < {estimate} * {width} THEN {estimate} - 1 ELSE {estimate} END)"
    )
    admitted = ["r.listed"]
    if not provisional:
        admitted.append(f"r.results >= {int(ESTABLISHED_RESULTS)}")
    if not computers:
        admitted.append("NOT r.is_computer")
    if active:
        admitted.append("r.last_played_at >= %s")
    others = _board_conditions(board, "o")
    if active:
        higher = f"(SELECT COUNT(*) FROM {rating} o WHERE {others} AND o.rating > r.rating)"
    else:
        flags = []
        if not provisional:
            flags.append(" AND b.established")
        if not computers:
            flags.append(" AND NOT b.is_computer")
        higher = (
            f"(SELECT COALESCE(SUM(b.players), 0) FROM {bucket} b WHERE b.variant = %s"
            f" AND b.category = %s AND b.bucket > {row_bucket}{''.join(flags)})"
            f" + (SELECT COUNT(*) FROM {rating} o WHERE {others}"
            f" AND o.rating > r.rating AND o.rating < ({row_bucket} + 1) * {width})"
        )
    rank = f"CASE WHEN {' AND '.join(admitted)} THEN 1 + {higher} END"
    return (
        f"SELECT r.rating, r.results, {rank} FROM {rating} r"
        f" WHERE {_RANK_LOOKUPS[lookup].format(user=user)} AND r.variant = %s AND r.category = %s"
    )


def _rank_params(board: BoardFilter, who: Any) -> list[Any]:
    since = board.active_since()
    params: list[Any] = []
    if since is not None:
        params.append(connection.ops.adapt_datetimefield_value(since))  # admitted
        params += _board_params(board, since)  # the count
    else:
        params += [board.variant, board.category]  # the buckets
        params += _board_params(board, None)  # the count inside the bucket
    return [*params, who, board.variant, board.category]


def board_rank(
    *,
    board: BoardFilter,
    username: str | None = None,
    user_id: int | None = None,
    row_id: int | None = None,
) -> RankedRow | None:
    """In one query: the rating, on ``board``'s game and category, of the active player called
    exactly ``username`` (or of the user ``user_id``, or the rating row ``row_id``) and its
    rank on the board; None when there is no such row."""
    lookups = {"username": username, "user": user_id, "row": row_id}
    given = [(name, value) for name, value in lookups.items() if value is not None]
    if len(given) != 1:
        raise TypeError("board_rank needs exactly one of username, user_id and row_id")
    ((lookup, value),) = given
    with prepared_cursor() as cursor:
        cursor.execute(_rank_sql(_shape(board), lookup), _rank_params(board, value))
        row = cursor.fetchone()
    if row is None:
        return None
    rating, results, rank = row
    return RankedRow(rating, results, None if rank is None else int(rank))


def leaderboard_rank(*, board: BoardFilter, row: Rating) -> int | None:
    """1 + the number of rows on the board rated higher; None when the row is not on it."""
    ranked = board_rank(board=board, row_id=row.pk)  # None too when on another board
    return None if ranked is None else ranked.rank


def player_crowns(*, user: User) -> QuerySet[Crown]:
    return Crown.objects.filter(user=user).order_by("-won_at", "-id")


def rating_summary(row: Rating | ComputerRating) -> dict[str, Any]:
    label, colour = rating_class(row.rating)
    return {
        "game": row.variant,
        "category": row.category,
        "rating": round(row.rating, 2),
        "results": row.results,
        "established": row.results >= ESTABLISHED_RESULTS,
        "rating_class": label,
        "colour": colour,
    }


def player_stats(*, user: User) -> dict[str, Any]:
    """Wins, losses, draws, streaks and rating class per game and category, totals, crowns."""
    per_rating = []
    totals = {"sets": 0, "wins": 0, "losses": 0, "draws": 0, "best_streak": 0}
    for row in player_ratings(user=user):
        per_rating.append(
            {
                **rating_summary(row),
                "wins": row.wins,
                "losses": row.losses,
                "draws": row.draws,
                "current_streak": row.streak,
                "best_streak": row.best_streak,
                "last_played_at": row.last_played_at,
            }
        )
        totals["sets"] += row.results
        totals["wins"] += row.wins
        totals["losses"] += row.losses
        totals["draws"] += row.draws
        totals["best_streak"] = max(totals["best_streak"], row.best_streak)
    crowns = [
        {
            "tournament_id": c.tournament_id,
            "tournament_name": c.tournament_name,
            "game": c.variant,
            "won_at": c.won_at,
        }
        for c in player_crowns(user=user)
    ]
    return {"player": user.username, "totals": totals, "ratings": per_rating, "crowns": crowns}


def player_page_ratings(user: User) -> dict[str, Any]:
    """The ratings block of a player's page (``accounts.selectors.PLAYER_PAGE_EXTRAS``):
    a server's computer opponent shows its own ratings (``computer_ratings``)."""
    rows = player_ratings(user=user) if user.bot_level is None else computer_ratings(user=user)
    return {
        "ratings": [rating_summary(row) for row in rows],
        "crowns": Crown.objects.filter(user=user).count(),
    }


def computer_leaderboard(*, variant: str, category: str) -> list[ComputerRating]:
    """The server's computer opponents rated in one game and category, best first, each with a
    ``rank`` (equal ratings share one). Their ratings come from their games against humans
    (unrated for the humans) and are kept apart from the players' boards."""
    rows = list(
        ComputerRating.objects.filter(
            variant=variant, category=category, user__bot_level__isnull=False
        )
        .select_related("user")
        .order_by("-rating", "user__bot_level", "id")
    )
    previous = None
    for position, row in enumerate(rows, start=1):
        row.rank = (
            previous.rank if previous is not None and previous.rating == row.rating else position
        )
        previous = row
    return rows


def computer_ratings(*, user: User) -> QuerySet[ComputerRating]:
    """The ratings of one of the server's computer opponents (its ``ComputerRating`` rows, one
    per game and category it has played against people), by game then category; none for any
    other account."""
    return ComputerRating.objects.filter(user=user, user__bot_level__isnull=False).order_by(
        "variant", "category"
    )
