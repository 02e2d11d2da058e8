"""What the models of the games app share: choice CHECK constraints, time-control ranges and the
CHECKs of a background job's progress."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

MAX_SEATS = 6
# The time-control ranges of ``games.clocks`` (kept literal here: migrations freeze them).
MAX_INITIAL_MINUTES = 999
MAX_INCREMENT_SECONDS = 59
MAX_DAYS_PER_MOVE = 30
#: The most plies a game may hide from its spectators (tournaments' ``spectator_delay``).
MAX_SPECTATOR_DELAY = 20
CATEGORIES = ("speed", "normal", "turn", "untimed")


def choice_check(field: str, values: tuple[str, ...], name: str) -> models.CheckConstraint:
    """A CHECK that ``field`` holds one of ``values``. (A ``Meta`` body cannot see the choices
    classes nested in its model, so the values are spelled out; tests/games/test_constraints.py
    checks that they match the choices.)"""
    return models.CheckConstraint(condition=Q(**{f"{field}__in": values}), name=name)


def time_control_checks(prefix: str) -> list[models.CheckConstraint]:
    """Choice and range CHECKs of the four time-control columns of a model."""
    return [
        choice_check("time_control", ("none", "live", "turn"), f"{prefix}_time_control_valid"),
        models.CheckConstraint(
            condition=Q(initial_minutes__lte=MAX_INITIAL_MINUTES),
            name=f"{prefix}_initial_minutes_range",
        ),
        models.CheckConstraint(
            condition=Q(increment_seconds__lte=MAX_INCREMENT_SECONDS),
            name=f"{prefix}_increment_seconds_range",
        ),
        models.CheckConstraint(
            condition=Q(days_per_move__lte=MAX_DAYS_PER_MOVE),
            name=f"{prefix}_days_per_move_range",
        ),
    ]


class TimeControlKind(models.TextChoices):
    NONE = "none"
    LIVE = "live"
    TURN = "turn"


class Category(models.TextChoices):
    SPEED = "speed"
    NORMAL = "normal"
    TURN = "turn"
    UNTIMED = "untimed"


def job_checks(
    prefix: str, *, waiting: tuple[str, str], processed: str, total: str
) -> list[models.CheckConstraint]:
    """The CHECKs of a background job's row (an analysis, an import): its status one of
    ``waiting`` (queued or pending, then running), ``done`` or ``failed``; no more processed
    than the total; a finished job has its ``finished_at``, a failed one its ``error_code``,
    a done one processed everything."""
    return [
        choice_check("status", (*waiting, "done", "failed"), f"{prefix}_status_valid"),
        models.CheckConstraint(
            condition=Q(**{f"{processed}__lte": F(total)}),
            name=f"{prefix}_processed_within_total",
        ),
        models.CheckConstraint(
            condition=Q(status__in=waiting) | Q(finished_at__isnull=False),
            name=f"{prefix}_over_has_finished_at",
        ),
        models.CheckConstraint(
            condition=~Q(status="failed") | ~Q(error_code=""),
            name=f"{prefix}_failed_has_error",
        ),
        models.CheckConstraint(
            condition=~Q(status="done") | Q(**{processed: F(total)}),
            name=f"{prefix}_done_processed_all",
        ),
    ]
