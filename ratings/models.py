"""Ratings, their history, and tournament crowns.

One ``Rating`` row per player, game (variant, named as the engine names it) and category
(speed, normal or turn; untimed sets count as normal, as on Pente.org). The row is created on the
player's first rated result and also carries the statistics of that rating (wins, losses, draws,
streaks). Every change is kept as a ``RatingChange``, unique per (set, player): that constraint
is what makes applying a set's result happen exactly once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from ratings.elo import ESTABLISHED_RESULTS, START_RATING

# The values of RatingCategory, spelled out for the CHECK constraints (a Meta body cannot see
# them through the class; tests/ratings/test_constraints.py checks they match).
RATING_CATEGORIES = ("speed", "normal", "turn")


class RatingCategory(models.TextChoices):
    SPEED = "speed"
    NORMAL = "normal"
    TURN = "turn"


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=32)
    category = models.CharField(max_length=8, choices=RatingCategory.choices)
    rating = models.FloatField(default=START_RATING)
    results = models.PositiveIntegerField(default=0)  # rated results so far (wins+losses+draws)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)  # current run of set wins
    best_streak = models.PositiveIntegerField(default=0)
    # Copy of user.is_computer (kept in sync by a User post_save receiver) so that leaderboards
    # filter humans without a join.
    is_computer = models.BooleanField(default=False)
    # Copy of user.username, kept in sync the same way (and filled in by ``save``), so that a
    # leaderboard page is one index-only scan instead of one user lookup per line.
    username = models.CharField(max_length=150, default="", editable=False)
    # Copy of user.is_active, kept in sync the same way: a deactivated (banned) account leaves
    # every leaderboard and rank count, and comes back as it was when it is reactivated.
    listed = models.BooleanField(default=True, db_default=True, editable=False)
    last_played_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["variant", "category"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "category"], name="unique_rating_per_game_category"
            ),
            models.CheckConstraint(
                condition=Q(category__in=RATING_CATEGORIES), name="rating_category_valid"
            ),
            models.CheckConstraint(
                condition=Q(best_streak__gte=F("streak")), name="rating_best_streak_at_least_streak"
            ),
            models.CheckConstraint(
                condition=Q(
                    wins__lte=F("results"), losses__lte=F("results"), draws__lte=F("results")
                ),
                name="rating_outcomes_within_results",
            ),
        ]
        indexes = [
            # Every leaderboard / rank query: (variant, category) then rating, best first.
            models.Index(
                fields=["variant", "category", "-rating", "id"],
                name="rating_board",
                include=["results", "is_computer", "listed", "last_played_at"],
            ),
            # The default board (established humans) as a partial index that covers a whole
            # leaderboard line: a page is an index-only scan.
            models.Index(
                fields=["variant", "category", "-rating", "id"],
                name="rating_board_established",
                include=["results", "wins", "losses", "draws", "last_played_at", "username"],
                condition=Q(results__gte=ESTABLISHED_RESULTS, is_computer=False, listed=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant}/{self.category}: {self.rating:.0f} ({self.results})"

    def save(self, *args, **kwargs) -> None:
        if not self.username and self.user_id is not None:
            self.username = self.user.username
        super().save(*args, **kwargs)

    @property
    def established(self) -> bool:
        return self.results >= ESTABLISHED_RESULTS


class RatingChange(models.Model):
    class Result(models.TextChoices):
        WIN = "win"
        LOSS = "loss"
        DRAW = "draw"

    game_set = models.ForeignKey(
        "games.GameSet", on_delete=models.CASCADE, related_name="rating_changes"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    result = models.CharField(max_length=4, choices=Result.choices)
    games_count = models.PositiveSmallIntegerField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    results_before = models.PositiveIntegerField()
    opponent_rating_before = models.FloatField()
    opponent_results_before = models.PositiveIntegerField()
    created_at = models.DateTimeField()  # when the set finished

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game_set", "user"], name="unique_rating_change_per_set"
            ),
            models.CheckConstraint(
                condition=Q(result__in=("win", "loss", "draw")), name="rating_change_result_valid"
            ),
            models.CheckConstraint(
                condition=Q(games_count__in=(1, 2)), name="rating_change_games_count_range"
            ),
            models.CheckConstraint(
                condition=~Q(user=F("opponent")), name="rating_change_distinct_players"
            ),
        ]
        indexes = [models.Index(fields=["rating", "created_at", "id"], name="rating_history")]

    def __str__(self) -> str:
        return f"set {self.game_set_id} {self.user_id}: {self.rating_before:.0f}->{self.rating_after:.0f}"

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


class Crown(models.Model):
    """A tournament won. Created by the tournaments app (``ratings.services.crown_award``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="crowns"
    )
    tournament_name = models.CharField(max_length=200)
    tournament_id = models.PositiveBigIntegerField()
    variant = models.CharField(max_length=32)
    won_at = models.DateTimeField()

    class Meta:
        ordering = ["-won_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament_id", "user"], name="unique_crown_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} won {self.tournament_name}"


RANK_BUCKET_WIDTH = 10  # rating points per RatingBucket


class RatingBucket(models.Model):
    """How many listed rating rows (of active accounts) fall in [bucket * 10, bucket * 10 + 10)
    for one game, category, established flag and computer flag. Kept in step with ``Rating`` by the services, so that a
    rank is a sum over a few hundred buckets plus a count inside one bucket, whatever the number
    of players."""

    variant = models.CharField(max_length=32)
    category = models.CharField(max_length=8, choices=RatingCategory.choices)
    established = models.BooleanField()
    is_computer = models.BooleanField()
    bucket = models.IntegerField()
    players = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "category", "established", "is_computer", "bucket"],
                name="unique_rating_bucket",
            ),
            models.CheckConstraint(
                condition=Q(category__in=RATING_CATEGORIES), name="rating_bucket_category_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.variant}/{self.category} {self.bucket * RANK_BUCKET_WIDTH}+: {self.players}"


class ComputerRating(models.Model):
    """The rating of one of the server's computer opponents (``User.bot_level``) in one game and
    category. Games against the computer are unrated for the humans who play them; each one moves
    the computer's rating here (Elo, one game at a time, against the human's rating as it stands,
    which does not change). A separate table from ``Rating``: the computers have a leaderboard
    of their own, and the humans' boards, ranks and replays never see them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="computer_ratings"
    )
    variant = models.CharField(max_length=32)
    category = models.CharField(max_length=8, choices=RatingCategory.choices)
    rating = models.FloatField(default=START_RATING)
    results = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-rating", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "category"], name="unique_computer_rating"
            ),
            models.CheckConstraint(
                condition=Q(category__in=RATING_CATEGORIES), name="computer_rating_category_valid"
            ),
            models.CheckConstraint(
                condition=Q(results=F("wins") + F("losses") + F("draws")),
                name="computer_rating_results_sum",
            ),
        ]
        indexes = [
            models.Index(fields=["variant", "category", "-rating"], name="computer_rating_board")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant}/{self.category}: {self.rating:.0f}"


class ComputerRatingChange(models.Model):
    """One game's change of a computer's rating, unique per (game, computer): applying a game
    happens exactly once."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    rating = models.ForeignKey(ComputerRating, on_delete=models.CASCADE, related_name="changes")
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    result = models.CharField(max_length=4, choices=RatingChange.Result.choices)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    results_before = models.PositiveIntegerField()
    opponent_rating_before = models.FloatField()
    opponent_results_before = models.PositiveIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"], name="unique_computer_change_per_game"
            ),
            models.CheckConstraint(
                condition=Q(result__in=("win", "loss", "draw")),
                name="computer_change_result_valid",
            ),
            models.CheckConstraint(
                condition=~Q(user=F("opponent")), name="computer_change_distinct_players"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"game {self.game_id} {self.user_id}: {self.rating_before:.0f}->{self.rating_after:.0f}"
        )
