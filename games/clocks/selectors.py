"""Reads of game clocks: the clock fields of a game state, vacation balances."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games import engine
from games.clocks import rules
from games.clocks.signals import presence_asked
from games.clocks.timecontrol import Kind
from games.play.models import Game, Seat


def eta_horizon() -> timedelta:
    """How far ahead a deadline may be to get its own timeout task (``docs/timeouts.md``)."""
    explicit = getattr(settings, "CLOCK_ETA_HORIZON", None)
    if explicit is not None:
        return explicit
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    visibility = options.get("visibility_timeout")
    if visibility:
        return timedelta(seconds=float(visibility)) / 2
    return timedelta(hours=6)


def seat_user(game: Game, seat: int | None) -> User | None:
    if seat is None or game.pk is None:
        return None
    loaded = game.loaded_seats()
    if loaded is not None:
        return next((s.user for s in loaded if s.seat == seat), None)
    row = Seat.objects.filter(game_id=game.pk, seat=seat).select_related("user").first()
    return row.user if row else None


def start_window(game: Game) -> timedelta:
    """The start window of ``game``'s seats (``rules.start_window``, settings)."""
    return rules.start_window(
        base_seconds=getattr(settings, "START_WINDOW_SECONDS", 60),
        initial_minutes=game.initial_minutes,
    )


def clock_waits(game: Game) -> bool:
    """Whether the timer rule holds the live clocks of ``game`` (``docs/timeouts.md``)."""
    if game.time_control != Kind.LIVE or not game.awaiting_seats:
        return False
    try:
        centre = engine.get_variant(game.variant).starts_with_centre
    except engine.UnknownGame:
        return False
    return rules.clock_waits(starts_with_centre=centre, awaiting_seats=game.awaiting_seats)


def abort_limit_until(*, user: User, now: datetime) -> datetime | None:
    """When ``user`` may make or accept rated live challenges again, or None when they may now:
    ``ABORT_LIMIT`` (3) games aborted for their absence in the last ``ABORT_LIMIT_HOURS`` (24)
    keep them from it until the oldest of those is that old."""
    limit = getattr(settings, "ABORT_LIMIT", 3)
    span = timedelta(hours=getattr(settings, "ABORT_LIMIT_HOURS", 24))
    if not limit or not user.aborts:  # the counter: no query for most players
        return None
    rows = Seat.objects.filter(
        user=user,
        game__status=Game.Status.CANCELLED,
        game__end_reason=Game.EndReason.ABORTED,
        game__finished_at__gt=now - span,
    ).values_list("seat", "game__absent_seats", "game__finished_at")
    times = sorted(at for seat, absent, at in rows if seat in (absent or []))
    if len(times) < limit:
        return None
    return times[-limit] + span


def seats_at_table(game: Game) -> set[int]:
    """The seats of ``game`` whose player has the game open now (a stream of it: the page; the
    presence of ``live``, asked by ``signals.presence_asked``), and those of the server's
    computers, which are always there."""
    here = Q(user__bot_level__isnull=False)
    for _receiver, users in presence_asked.send(sender=Game, game_id=game.pk):
        here = Q(user_id__in=users) | here
    return set(Seat.objects.filter(here, game_id=game.pk).values_list("seat", flat=True))


def clock_view(*, game: Game, now: datetime, to_move_seat: int | None) -> dict[str, Any]:
    """Clock fields for the game state: each seat's remaining ms now, the deadline, category,
    whether a clock runs and the start window's end for the seat to move."""
    running = (
        game.status == Game.Status.IN_PROGRESS
        and game.time_control == Kind.LIVE
        and bool(to_move_seat)
        and game.turn_started_at is not None
        and not clock_waits(game)
    )
    start_deadline = None
    if (
        game.status == Game.Status.IN_PROGRESS
        and game.time_control == Kind.LIVE
        and to_move_seat in game.awaiting_seats
        and game.turn_started_at is not None
    ):
        start_deadline = game.turn_started_at + start_window(game)
    remaining = rules.remaining_now(
        clocks_ms=game.clocks_ms or [],
        to_move_seat=to_move_seat if running else None,
        turn_started_at=game.turn_started_at,
        now=now,
    )
    return {
        "time_control": game.time_control,
        "category": game.category,
        "initial_minutes": game.initial_minutes,
        "increment_seconds": game.increment_seconds,
        "days_per_move": game.days_per_move,
        "clocks_ms": list(remaining),
        "turn_started_at": game.turn_started_at,
        "deadline": game.deadline,
        "vacation_allowed": game.vacation_allowed,
        "running": running,
        "start_deadline": start_deadline,
    }


def vacation_balance(user: User, now: datetime) -> rules.VacationBalance:
    return rules.vacation_balance(
        hours_left=user.vacation_hours_left,
        year=user.vacation_year,
        now=now,
        time_zone=user.time_zone,
    )


def vacation_status(*, user: User, now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    balance = vacation_balance(user, now)
    return {
        "hours_left": balance.hours_left,
        "days_left": round(balance.hours_left / 24, 2),
        "year": balance.year,
        "hours_per_year": rules.VACATION_HOURS_PER_YEAR,
    }
