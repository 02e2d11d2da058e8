"""Reads for accounts and public player pages.

Other apps add to a player's page by appending to ``PLAYER_PAGE_EXTRAS`` a callable taking the
user and returning a dict merged into the page: the games add ``{"games": {...}}`` (the game
counts, ``games.accounts.selectors``), the ratings app ``{"ratings": [...]}``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from accounts import links
from accounts.models import ApiToken, User

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


def player_page(*, user: User) -> dict[str, Any]:
    page: dict[str, Any] = {
        "username": user.username,
        "is_computer": user.is_computer,
        "date_joined": user.date_joined,
        "aborts": user.aborts,
    }
    for extra in PLAYER_PAGE_EXTRAS:
        page.update(extra(user))
    return page


def idle_guests_signed_in(*, now: datetime | None = None) -> QuerySet[User]:
    """The guests signed in more than ``GUEST_IDLE`` ago; those of them with no game in
    progress are idle (``games.accounts.selectors.idle_guests``), and deleted with their games
    (``games.accounts.services.guests_sweep``)."""
    oldest = (now or timezone.now()) - settings.GUEST_IDLE
    return User.objects.filter(is_guest=True, last_login__lt=oldest)
