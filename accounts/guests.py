"""Guests: a signed-out visitor plays the computer under an account made for the browser's
session (``guest_create``), named ``guest-<n>``, without a password.

A guest plays unrated games against the server's computer opponents only: it may not challenge
people (nor be challenged), take up challenges, join or create tournaments, chat in rooms or
import records (403 ``guest_not_allowed``: ``refuse_guest``). It is not listed among the
players, and having no rated game it is on no leaderboard.

A guest is idle once it has signed in more than ``GUEST_IDLE`` ago (a day unless set) and has
no game in progress; ``games.accounts.services.guests_sweep`` (beat) then deletes it with its games: they were unrated
games against the computer that nobody else played, so nothing of them is kept."""

from __future__ import annotations

import re
import secrets
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from pente_site.errors import Forbidden

GUEST_PREFIX = "guest-"
#: The names guests are given (kept from sign-up: ``services._kept_name``).
GUEST_NAME = re.compile(rf"{GUEST_PREFIX}\d+", re.IGNORECASE)


def refuse_guest(user: User, *, what: str) -> None:
    """403 ``guest_not_allowed`` when ``user`` is a guest; ``what`` says what it may not do
    ("challenge people", "chat in rooms"...)."""
    if getattr(user, "is_guest", False):
        raise Forbidden(
            "guest_not_allowed",
            f"Guests play the computer only: sign up to {what}.",
        )


def guest_create(*, now: datetime | None = None) -> User:
    """A new guest account, signed in (``last_login``) now, with a free ``guest-<n>`` name."""
    now = now or timezone.now()
    for attempt in range(20):
        digits = 4 if attempt < 10 else 8
        name = f"{GUEST_PREFIX}{secrets.randbelow(9 * 10 ** (digits - 1)) + 10 ** (digits - 1)}"
        if User.objects.filter(username__iexact=name).exists():
            continue
        try:
            with transaction.atomic():
                guest = User(username=name, is_guest=True, last_login=now)
                guest.set_unusable_password()
                guest.save()
                return guest
        except IntegrityError:
            continue  # taken in between
    raise RuntimeError("No free guest name after 20 tries.")  # 9 * 10**7 names: never
