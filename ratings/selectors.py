"""Reads of the ratings app: a player's ratings, history, statistics, leaderboards and ranks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.models import User
from ratings.elo import ESTABLISHED_RESULTS, bucket_of, rating_class
from ratings.models import RANK_BUCKET_WIDTH, Crown, Rating, RatingBucket, RatingChange
from ratings.services import CATEGORY_OF_SET, rating_category


def rating_for(*, user: User, variant: str, category: str) -> tuple[float, int] | None:
    """``(rating, rated results)`` of ``user`` in a game and category (a set's category is
    accepted: untimed counts as normal), or None before the first rated result."""
    category = rating_category(category) if category in CATEGORY_OF_SET else category
    row = (
        Rating.objects.filter(user=user, variant=variant, category=category)
        .values_list("rating", "results")
        .first()
    )
    return (row[0], row[1]) if row else None


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
    """Who a leaderboard lists. Defaults: established humans, any time."""

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
        rows = Rating.objects.filter(variant=self.variant, category=self.category)
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
            and (self.provisional or row.established)
            and (self.computers or not row.is_computer)
            and (since is None or (row.last_played_at is not None and row.last_played_at >= since))
        )


LEADERBOARD_FIELDS = (
    "id",
    "rating",
    "results",
    "wins",
    "losses",
    "draws",
    "last_played_at",
    "user__username",
)


def leaderboard(*, board: BoardFilter, after: tuple[float, int] | None = None) -> QuerySet:
    """The board's rows as dicts of ``LEADERBOARD_FIELDS``, best first (rating desc, id),
    starting after ``(rating, id)`` when given (keyset pagination on the
    (variant, category, -rating, id) index)."""
    rows = board.queryset()
    if after is not None:
        rating, row_id = after
        rows = rows.filter(rating__lte=rating).filter(
            Q(rating__lt=rating) | Q(rating=rating, id__gt=row_id)
        )
    return rows.order_by("-rating", "id").values(*LEADERBOARD_FIELDS)


def leaderboard_rank(*, board: BoardFilter, row: Rating) -> int | None:
    """1 + the number of rows on the board rated higher; None when the row is not on it.

    Without an activity filter: the rank buckets above the row's bucket, plus a count inside
    its bucket (both small, whatever the number of players). With one: a count on the index.
    """
    now = timezone.now()
    if not board.admits(row, now=now):
        return None
    higher = board.queryset(now=now).filter(rating__gt=row.rating)
    if board.active_days is not None:
        return 1 + higher.count()
    # One round trip: the bucket sum and the count inside the row's bucket.
    bucket = bucket_of(row.rating, RANK_BUCKET_WIDTH)
    conditions = ["variant = %s", "category = %s", "bucket > %s"]
    if not board.provisional:
        conditions.append("established")
    if not board.computers:
        conditions.append("NOT is_computer")
    same_sql, same_params = (
        higher.filter(rating__lt=(bucket + 1) * RANK_BUCKET_WIDTH)
        .order_by()
        .values("id")
        .query.sql_with_params()
    )
    sql = (
        "SELECT (SELECT COALESCE(SUM(players), 0) FROM "
        f"{RatingBucket._meta.db_table} WHERE {' AND '.join(conditions)})"
        f" + (SELECT COUNT(*) FROM ({same_sql}) AS same_bucket)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [board.variant, board.category, bucket, *same_params])
        (higher_count,) = cursor.fetchone()
    return 1 + int(higher_count)


def rating_row_by_username(*, username: str, variant: str, category: str) -> Rating | None:
    """The rating of the active player called exactly ``username``, with its user."""
    return (
        Rating.objects.select_related("user")
        .filter(user__username=username, user__is_active=True, variant=variant, category=category)
        .first()
    )


def player_rating_row(*, user: User, variant: str, category: str) -> Rating | None:
    return Rating.objects.filter(user=user, variant=variant, category=category).first()


def player_crowns(*, user: User) -> QuerySet[Crown]:
    return Crown.objects.filter(user=user).order_by("-won_at", "-id")


def rating_summary(row: Rating) -> dict[str, Any]:
    label, colour = rating_class(row.rating)
    return {
        "game": row.variant,
        "category": row.category,
        "rating": round(row.rating, 2),
        "results": row.results,
        "established": row.established,
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
    """The ratings block of a player's page (``games.accounts.selectors.PLAYER_PAGE_EXTRAS``)."""
    return {
        "ratings": [rating_summary(row) for row in player_ratings(user=user)],
        "crowns": Crown.objects.filter(user=user).count(),
    }
