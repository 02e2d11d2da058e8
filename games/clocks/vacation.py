"""Vacation in turn-based games: taking hours to pause one's games."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clocks import rules
from games.clocks.selectors import vacation_balance, vacation_status
from games.clocks.services import schedule_deadline
from games.clocks.timecontrol import Kind
from games.play.models import Game, Seat
from games.play.positions import seat_to_move
from pente_site.errors import Conflict, Invalid

IN_PROGRESS = Game.Status.IN_PROGRESS


def _games_to_move(user: User, *, lock: bool) -> list[Game]:
    """In-progress turn-based games allowing vacation where ``user`` is to move."""
    game_ids = Seat.objects.filter(user=user).values("game_id")
    qs = Game.objects.filter(
        pk__in=game_ids,
        status=IN_PROGRESS,
        time_control=Kind.TURN,
        vacation_allowed=True,
        deadline__isnull=False,
    ).order_by("pk")
    if lock:
        qs = qs.select_for_update()
    games = list(qs)
    seats = defaultdict(set)
    for game_id, seat in Seat.objects.filter(
        game_id__in=[g.pk for g in games], user=user
    ).values_list("game_id", "seat"):
        seats[game_id].add(seat)
    return [g for g in games if seat_to_move(g) in seats[g.pk]]


def vacation_start(*, user: User, hours: int, now: datetime | None = None) -> dict[str, Any]:
    """Take ``hours`` of vacation now: push the deadline of every turn-based game (that allows
    vacation) where the user is to move by that much working time, spending the hours once."""
    now = now or timezone.now()
    if not isinstance(hours, int) or hours < 1:
        raise Invalid("bad_hours", "Vacation is taken in whole hours, at least one.")
    with transaction.atomic():
        games = _games_to_move(user, lock=True)  # games first, then the user: the same order
        locked = User.objects.select_for_update().get(pk=user.pk)  # as the timeout task's
        balance = vacation_balance(locked, now)
        if hours > balance.hours_left:
            raise Invalid(
                "not_enough_vacation",
                f"You have {balance.hours_left} hours of vacation left this year.",
                extra={"hours_left": balance.hours_left},
            )
        if not games:
            raise Conflict(
                "no_games_to_pause",
                "It is not your turn in any turn-based game that allows vacation.",
            )
        for game in games:
            game.deadline = rules.add_working_time(
                at=max(game.deadline, now),
                delta=timedelta(hours=hours),
                time_zone=locked.time_zone,
                weekend_days=locked.weekend_days,
            )
            game.save(update_fields=["deadline", "updated_at"])
            schedule_deadline(game=game)
        locked.vacation_hours_left = balance.hours_left - hours
        locked.vacation_year = balance.year
        locked.save(update_fields=["vacation_hours_left", "vacation_year"])
    user.vacation_hours_left, user.vacation_year = locked.vacation_hours_left, locked.vacation_year
    return {
        **vacation_status(user=locked, now=now),
        "hours_spent": hours,
        "games": [{"id": g.pk, "deadline": g.deadline} for g in games],
    }
