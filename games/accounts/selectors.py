"""Reads of the games of an account: its game counts (the player page), whether two players
share a game in progress, and the guests idle with no game in progress."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.models import User
from accounts.selectors import idle_guests_signed_in
from games.play.models import Game, Seat


def player_game_counts(*, user: User) -> dict[str, int]:
    """Games of ``user`` by status, plus wins/losses/draws among finished ones."""
    rows = Seat.objects.filter(user=user, game__imported=False).values_list(
        "seat", "game__status", "game__winner_seats", "game__rated"
    )
    counts = {
        "total": 0,
        "in_progress": 0,
        "finished": 0,
        "cancelled": 0,
        "wins": 0,
        "losses": 0,
        "draws": 0,
        "rated_finished": 0,
    }
    for seat, status, winner_seats, rated in rows:
        counts["total"] += 1
        if status == Game.Status.IN_PROGRESS:
            counts["in_progress"] += 1
        elif status == Game.Status.CANCELLED:
            counts["cancelled"] += 1
        else:
            counts["finished"] += 1
            counts["rated_finished"] += int(bool(rated))
            if not winner_seats:
                counts["draws"] += 1
            elif seat in winner_seats:
                counts["wins"] += 1
            else:
                counts["losses"] += 1
    return counts


def player_page_games(user: User) -> dict[str, Any]:
    """The games block of a player's page (``accounts.selectors.PLAYER_PAGE_EXTRAS``)."""
    return {"games": player_game_counts(user=user)}


def users_playing_together(*, user_a: User, user_b: User) -> bool:
    """True when the two users sit in the same game that is still in progress."""
    return (
        Game.objects.filter(status=Game.Status.IN_PROGRESS, seat_rows__user=user_a)
        .filter(Q(seat_rows__user=user_b))
        .exists()
    )


def idle_guests(*, now: datetime | None = None) -> QuerySet[User]:
    """The guests signed in more than ``GUEST_IDLE`` ago with no game in progress."""
    playing = Seat.objects.filter(user=OuterRef("pk"), game__status=Game.Status.IN_PROGRESS)
    return idle_guests_signed_in(now=now).exclude(Exists(playing))
