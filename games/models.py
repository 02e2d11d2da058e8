"""Models of the games app. Positions are never stored: services rebuild them from the moves
through ``games.engine``."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def default_weekend() -> list[int]:
    """Saturday and Sunday (``datetime.weekday()`` numbers)."""
    return [5, 6]


class User(AbstractUser):
    """A player account. ``time_zone`` and ``weekend_days`` only matter for turn-based deadlines."""

    time_zone = models.CharField(max_length=64, default="UTC")
    weekend_days = models.JSONField(default=default_weekend)
    is_computer = models.BooleanField(default=False)
    # Vacation for turn-based games: hours left this calendar year and the year they belong to.
    vacation_hours_left = models.PositiveIntegerField(default=240)
    vacation_year = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "games_user"
