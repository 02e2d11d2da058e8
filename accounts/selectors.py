"""Reads for accounts and public player pages.

Other apps add to a player's page by appending to ``PLAYER_PAGE_EXTRAS`` a callable taking the
user and returning a dict merged into the page, e.g. the ratings app adds ``{"ratings": [...]}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q, QuerySet

from accounts import links
from accounts.models import ApiToken, User
from games.models import Game, Seat

PlayerPageExtra = Callable[[User], dict[str, Any]]
PLAYER_PAGE_EXTRAS: list[PlayerPageExtra] = []


def token_list(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def reset_link_user(*, uid: str, token: str) -> User | None:
    """The active account a link to choose a new password was made for, while the link works
    (``services.password_reset_request``); None for a link unknown, used or expired."""
    return links.link_user(uid=uid, token=token, generator=links.reset_token_generator)


def email_link_user(*, uid: str, token: str) -> User | None:
    """The active account a link confirming its address was made for, while the link works
    (``services.email_confirmation_send``); None otherwise."""
    return links.link_user(uid=uid, token=token, generator=links.email_token_generator)


def unsubscribe_link(*, token: str) -> tuple[User, str] | None:
    """The active account and the kind of e-mail (``links.EMAIL_KINDS``) a link to turn one
    off was made for (``notifications``); None for a token not made here."""
    return links.unsubscribe_user(token=token)


def player_list(*, search: str = "", computers: bool | None = None) -> QuerySet[User]:
    players = User.objects.filter(is_active=True, is_guest=False)
    if search:
        players = players.filter(username__icontains=search.strip())
    if computers is not None:
        players = players.filter(is_computer=computers)
    return players.order_by("username")


def player_get(*, username: str) -> User | None:
    return User.objects.filter(is_active=True, username__iexact=username).first()


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


def player_page(*, user: User) -> dict[str, Any]:
    page: dict[str, Any] = {
        "username": user.username,
        "is_computer": user.is_computer,
        "date_joined": user.date_joined,
        "games": player_game_counts(user=user),
        "aborts": user.aborts,
    }
    for extra in PLAYER_PAGE_EXTRAS:
        page.update(extra(user))
    return page


def users_playing_together(*, user_a: User, user_b: User) -> bool:
    """True when the two users sit in the same game that is still in progress."""
    return (
        Game.objects.filter(status=Game.Status.IN_PROGRESS, seat_rows__user=user_a)
        .filter(Q(seat_rows__user=user_b))
        .exists()
    )
