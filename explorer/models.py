"""The explorer's position index: one row per position a stored game went through."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from games.choices import CATEGORIES, Category, choice_check
from games.play.models import Game


class PositionRow(models.Model):
    """Game ``game`` reached the position ``key`` after ``ply`` actions (the centre stone the
    server places counts: a Pente game's first row has ply 1), and then played ``next_point``.

    ``key`` is ``games.engine.positionkey``'s canonical key as a signed 64-bit int, and
    ``next_point`` the next stone moved into the position's canonical orientation (Go's pass:
    one past the board's last point; null when the game ended there, or the next action was a
    decision or a marking).
    The other columns copy what the explorer filters and counts by, so that a position's
    statistics are read from its rows alone: ``winner`` (the colour that won, 0 for a draw,
    null when the game has no result), ``rating`` (the rating of the player to move, who chose
    ``next_point``), ``rating_low`` / ``rating_high`` (the lowest and highest rating of the
    game's players), ``rated``, ``imported``, ``category`` and ``played_on`` (the day it
    started)."""

    pk = models.CompositePrimaryKey("key", "game", "ply")
    key = models.BigIntegerField()
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveSmallIntegerField()
    next_point = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_low = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_high = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    imported = models.BooleanField(default=False)
    category = models.CharField(max_length=8, choices=Category.choices, default=Category.UNTIMED)
    played_on = models.DateField(null=True, blank=True)

    class Meta:
        indexes = [
            # The next moves of a position, counted from the index alone with or without the
            # filters that are columns here (PostgreSQL: an index-only scan once vacuumed).
            models.Index(
                fields=["key", "next_point"],
                include=[
                    "winner",
                    "rating",
                    "game",
                    "rated",
                    "imported",
                    "category",
                    "played_on",
                    "rating_low",
                    "rating_high",
                ],
                name="explorer_position_moves",
            ),
            # A game's rows, to replace them when it is indexed again.
            models.Index(fields=["game"], name="explorer_position_game"),
        ]
        constraints = [
            choice_check("category", CATEGORIES, "explorer_position_category_valid"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__lte=6),
                name="explorer_position_winner_colour",
            ),
            models.CheckConstraint(
                condition=Q(rating_low__isnull=True)
                | Q(rating_high__isnull=True)
                | Q(rating_low__lte=models.F("rating_high")),
                name="explorer_position_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} game {self.game_id} ply {self.ply}"
