"""Account services: registration, profile changes and API tokens."""

from __future__ import annotations

import secrets
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction

from games.accounts.tokens import hash_key
from games.models import ApiToken, User
from pente_site.errors import Conflict, Forbidden, Invalid, NotFound, Unauthenticated

MAX_WEEKEND_DAYS = 3
MAX_TOKENS_PER_USER = 50
PREFIX_LENGTH = 8


@dataclass(frozen=True)
class IssuedToken:
    """A freshly created token: ``key`` is the only time the plain key is ever available."""

    token: ApiToken
    key: str


def check_time_zone(name: str) -> str:
    if not name or name not in zoneinfo.available_timezones():
        raise Invalid("bad_time_zone", f"'{name}' is not a known IANA time zone.")
    return name


def check_weekend_days(days: Iterable[int]) -> list[int]:
    days = list(days)
    if any(isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 6 for d in days):
        raise Invalid("bad_weekend_days", "Weekend days are day numbers 0 (Monday) to 6 (Sunday).")
    if len(set(days)) != len(days):
        raise Invalid("bad_weekend_days", "Weekend days must not repeat.")
    if len(days) > MAX_WEEKEND_DAYS:
        raise Invalid("bad_weekend_days", f"At most {MAX_WEEKEND_DAYS} weekend days may be chosen.")
    return sorted(days)


def _check_password(password: str, user: User | None = None) -> None:
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise Invalid("bad_password", " ".join(exc.messages)) from None


def user_register(
    *,
    username: str,
    password: str,
    email: str = "",
    time_zone: str = "UTC",
    weekend_days: list[int] | None = None,
) -> User:
    """Create an account. Usernames are unique regardless of case."""
    username = username.strip()
    check_time_zone(time_zone)
    days = check_weekend_days([5, 6] if weekend_days is None else weekend_days)
    candidate = User(username=username, email=email)
    _check_password(password, candidate)
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("username_taken", f"The username '{username}' is already taken.")
    try:
        with transaction.atomic():
            return User.objects.create_user(
                username=username,
                password=password,
                email=email,
                time_zone=time_zone,
                weekend_days=days,
            )
    except IntegrityError:
        raise Conflict("username_taken", f"The username '{username}' is already taken.") from None


def user_check_credentials(*, username: str, password: str, request=None) -> User:
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise Unauthenticated("bad_credentials", "The username or password is not correct.")
    return user


def profile_update(
    *,
    user: User,
    email: str | None = None,
    time_zone: str | None = None,
    weekend_days: list[int] | None = None,
    is_computer: bool | None = None,
    password: str | None = None,
    current_password: str | None = None,
) -> User:
    """Change the given fields of ``user``; ``None`` leaves a field as it is.

    A new password needs the current one.
    """
    fields: list[str] = []
    if email is not None:
        user.email = email
        fields.append("email")
    if time_zone is not None:
        user.time_zone = check_time_zone(time_zone)
        fields.append("time_zone")
    if weekend_days is not None:
        user.weekend_days = check_weekend_days(weekend_days)
        fields.append("weekend_days")
    if is_computer is not None:
        user.is_computer = bool(is_computer)
        fields.append("is_computer")
    if password is not None:
        if not current_password or not user.check_password(current_password):
            raise Forbidden("bad_credentials", "The current password is not correct.")
        _check_password(password, user)
        user.set_password(password)
        fields.append("password")
    if fields:
        user.save(update_fields=fields)
    return user


def token_create(*, user: User, name: str = "") -> IssuedToken:
    """Issue a new API token. Only its sha256 is stored; the key is returned once."""
    if user.api_tokens.count() >= MAX_TOKENS_PER_USER:
        raise Conflict(
            "too_many_tokens",
            f"An account may hold at most {MAX_TOKENS_PER_USER} tokens; revoke one first.",
        )
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip(), prefix=key[:PREFIX_LENGTH], key_hash=hash_key(key)
    )
    return IssuedToken(token=token, key=key)


def token_revoke(*, user: User, token_id: int) -> None:
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFound("unknown_token", "You have no token with that id.")
