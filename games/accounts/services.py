"""Writes to the games of accounts: the games in progress of a deleted account resigned (its
job, and the sweeper behind it), and the idle guests deleted with their games (beat)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.db import transaction

from accounts.models import User
from games.accounts.selectors import idle_guests
from games.play.actions import game_resign
from games.play.models import Game, Seat
from games.play.positions import forget_played
from pente_site.errors import DomainError
from pente_site.jobs import enqueue

DELETED_GAMES_TASK = "games.accounts.tasks.deleted_games_resign"


def on_account_deleted(sender, *, user: User, **kwargs) -> None:
    """``accounts.signals.account_deleted`` (inside the deletion's transaction): the name each of
    its games shows is a copy (imported records need one), so it takes the new name; once the
    deletion commits, a job resigns its games in progress (``deleted_games_resign``)."""
    Seat.objects.filter(user=user).update(name=user.username)
    job = partial(enqueue, DELETED_GAMES_TASK, args=(user.pk,))
    transaction.on_commit(job, robust=True)


def deleted_games_resign(*, user_id: int | None = None, now: datetime | None = None) -> int:
    """Resign the games in progress of deleted accounts (``user_id``'s, or every one's), and,
    for ``user_id``, drop the cached entries of all its games (they hold its old name); returns
    how many games were resigned. Safe to run again, and concurrently (a game already over is
    skipped)."""
    if user_id is not None:
        for game in Game.objects.filter(
            seat_rows__user_id=user_id, seat_rows__user__deleted_at__isnull=False
        ):
            forget_played(game)
    seats = Seat.objects.filter(
        user__deleted_at__isnull=False, game__status=Game.Status.IN_PROGRESS
    ).select_related("user")
    if user_id is not None:
        seats = seats.filter(user_id=user_id)
    players = {seat.game_id: seat.user for seat in seats}
    done = 0
    for game_id in sorted(players):
        try:
            game_resign(game_id=game_id, user=players[game_id], now=now)
        except DomainError:  # over meanwhile
            continue
        done += 1
    return done


def guests_sweep(*, now: datetime | None = None) -> int:
    """Delete the idle guests and their games (beat); how many guests."""
    deleted = 0
    for guest_id in idle_guests(now=now).values_list("pk", flat=True)[:500]:
        with transaction.atomic():
            guest = idle_guests(now=now).select_for_update().filter(pk=guest_id).first()
            if guest is None:
                continue  # back at play since
            Game.objects.filter(seat_rows__user=guest).delete()
            guest.delete()
            deleted += 1
    return deleted
