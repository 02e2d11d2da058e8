"""Account services: registration, profile changes, forgotten passwords and API tokens."""

from __future__ import annotations

import math
import re
import secrets
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts import links, selectors
from accounts.guests import GUEST_NAME, GUEST_PREFIX
from accounts.mail import email_later
from accounts.models import ApiToken, User
from accounts.signals import account_deleted
from accounts.tokens import hash_key
from pente_site.counters import count_request, name_key
from pente_site.errors import (
    Conflict,
    DomainError,
    Forbidden,
    Invalid,
    NotFound,
    TooMany,
    Unauthenticated,
)
from pente_site.public import site_name

#: The name a deleted account takes (its id after it), kept from registration.
DELETED_PREFIX = "deleted-"
_DELETED_NAME = re.compile(rf"{DELETED_PREFIX}\d+(-[0-9a-f]+)?", re.IGNORECASE)

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


@dataclass(frozen=True)
class Problem:
    """One reason a registration is refused: the field it concerns, a code and a sentence."""

    field: str
    code: str
    detail: str


#: Names nobody may sign up with: ``me`` stands for the caller in the API's paths and
#: parameters; ``computerN`` names the server's computer opponents (``games.bots.accounts``).
_COMPUTER_NAME = re.compile(r"computer\d+", re.IGNORECASE)


#: The longest name a new account may take (older accounts keep longer ones).
USERNAME_MAX_LENGTH = 20


def _kept_name(username: str) -> str:
    """Why ``username`` is kept from sign-up ("" when it is not)."""
    if username.lower() == "me":
        return "'me' stands for yourself in the API: choose another name."
    if _COMPUTER_NAME.fullmatch(username):
        return "Names like 'computer9' are kept for the server's computer opponents."
    if GUEST_NAME.fullmatch(username):
        return f"Names like '{GUEST_PREFIX}12' are kept for guests."
    if _DELETED_NAME.fullmatch(username):
        return f"Names like '{DELETED_PREFIX}12' are kept for deleted accounts."
    return ""


def registration_problems(*, username: str, password: str, email: str = "") -> list[Problem]:
    """Every reason ``user_register`` would refuse ``username`` with ``password`` (none: it
    would register), so that a form can show them all at once: the username's shape (letters,
    digits and ``@.+-_``, at most ``USERNAME_MAX_LENGTH`` characters), the password (the
    configured validators,
    which compare it with the username), then a username already taken (any case)."""
    username = username.strip()
    problems: list[Problem] = []
    if not username:
        problems.append(Problem("username", "bad_username", "Choose a username."))
    else:
        try:
            User._meta.get_field("username").run_validators(username)
        except DjangoValidationError as exc:
            problems += [Problem("username", "bad_username", m) for m in exc.messages]
        if len(username) > USERNAME_MAX_LENGTH:
            problems.append(
                Problem(
                    "username",
                    "username_too_long",
                    f"A username is at most {USERNAME_MAX_LENGTH} characters; "
                    f"'{username[:40]}' has {len(username)}.",
                )
            )
        kept = _kept_name(username)
        if kept:
            problems.append(Problem("username", "bad_username", kept))
    try:
        validate_password(password, user=User(username=username, email=email))
    except DjangoValidationError as exc:
        problems += [Problem("password", "bad_password", m) for m in exc.messages]
    if username and User.objects.filter(username__iexact=username).exists():
        problems.append(
            Problem("username", "username_taken", f"The username '{username}' is already taken.")
        )
    return problems


def _refusal(problems: list[Problem]) -> DomainError:
    """The refusal of a registration with these problems: the first one's code (a taken name,
    the only one the request cannot fix by itself, is a 409 when it is the only problem), every
    sentence, and ``fields``: the sentences by field."""
    first = problems[0]
    kind = Conflict if first.code == "username_taken" else Invalid
    fields: dict[str, list[str]] = {}
    for problem in problems:
        fields.setdefault(problem.field, []).append(problem.detail)
    detail = " ".join(p.detail for p in problems)
    return kind(first.code, detail, extra={"fields": fields})


def user_register(
    *,
    username: str,
    password: str,
    email: str = "",
    time_zone: str = "UTC",
    weekend_days: list[int] | None = None,
    site_url: str | None = None,
) -> User:
    """Create an account. Usernames are unique regardless of case. Refused with every problem
    at once (``registration_problems``): ``bad_username``, ``bad_password``, ``username_taken``
    (409), the body's ``fields`` giving the sentences by field. An e-mail address is sent a
    link to confirm it (``email_confirmation_send``; none without ``site_url``)."""
    username = username.strip()
    check_time_zone(time_zone)
    days = check_weekend_days([5, 6] if weekend_days is None else weekend_days)
    problems = registration_problems(username=username, password=password, email=email)
    if problems:
        raise _refusal(problems)
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                username=username,
                password=password,
                email=email,
                time_zone=time_zone,
                weekend_days=days,
            )
            if user.email and site_url:
                email_confirmation_send(user=user, site_url=site_url, quiet=True)
            return user
    except IntegrityError:
        raise Conflict("username_taken", f"The username '{username}' is already taken.") from None


def user_check_credentials(*, username: str, password: str, request=None) -> User:
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise Unauthenticated("bad_credentials", "The username or password is not correct.")
    return user


def password_reset_request(*, email: str, site_url: str) -> int:
    """E-mail a link to choose a new password to each active account with this address (any
    case, confirmed: ``email_verified``) that has a password; returns how many were sent, which callers never tell (an answer
    must not say whether an address has an account). A job sends them once the transaction
    commits. A link works for ``PASSWORD_RESET_TIMEOUT`` seconds and only until the password
    changes or the account signs in (Django's token generator). ``site_url``: the site's
    address the link starts with (``https://pente.example.org``)."""
    email = email.strip()
    if not email:
        return 0
    users = [
        user
        for user in User.objects.filter(email__iexact=email, is_active=True, email_verified=True)
        if user.has_usable_password()
    ]
    for user in users:
        _link_send(user, "password_reset", links.reset_token_generator, site_url)
    return len(users)


def _link_send(user: User, message: str, generator, site_url: str) -> None:
    """E-mail ``user`` the message ``accounts/<message>_subject.txt`` / ``_email.txt`` with a
    link of ``generator``, by a job once the transaction commits."""
    context = {
        "user": user,
        "uid": links.uid_of(user),
        "token": generator.make_token(user),
        "site_url": site_url,
        "site_name": site_name(site_url),
        "hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600),
    }
    subject = render_to_string(f"accounts/{message}_subject.txt", context)
    email_later(
        subject=" ".join(subject.split()),
        body=render_to_string(f"accounts/{message}_email.txt", context),
        to=[user.email],
    )


def email_confirmation_send(*, user: User, site_url: str, quiet: bool = False) -> bool:
    """E-mail ``user`` a link that confirms their address (``email_confirm``); 409
    ``no_email`` without one, ``email_verified`` when it is confirmed already. One address is
    sent at most ``email_confirm`` links (5 an hour by default), whoever asks: past that, 429
    ``too_many_links``, or with ``quiet`` nothing sent and False."""
    if not user.email:
        raise Conflict("no_email", "Give an e-mail address first.")
    if user.email_verified:
        raise Conflict("email_verified", "Your e-mail address is confirmed already.")
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["email_confirm"]
    allowed, *_rest, wait = count_request(
        scope="email_confirm", ident=name_key(user.email) or "", rate=rate
    )
    if not allowed:
        if quiet:
            return False
        raise TooMany(
            "too_many_links",
            f"Enough links went to {user.email} for now: try again in {math.ceil(wait)} seconds.",
            extra={"retry_after": math.ceil(wait)},
        )
    _link_send(user, "email_confirm", links.email_token_generator, site_url)
    return True


def email_confirm(*, uid: str, token: str) -> User:
    """Confirm an address with the ``uid`` and ``token`` of a link sent by
    ``email_confirmation_send``: links to choose a new password may then go there. 400
    ``bad_confirm_link`` (unknown, used, expired, or the address changed since)."""
    user = selectors.email_link_user(uid=uid, token=token)
    if user is None:
        raise Invalid(
            "bad_confirm_link",
            "This link to confirm an e-mail address does not work (any more): ask for a new "
            "one in your settings.",
        )
    user.email_verified = True
    user.save(update_fields=["email_verified"])
    return user


def password_reset_confirm(*, uid: str, token: str, password: str) -> User:
    """Set a new password with the ``uid`` and ``token`` of a link sent by
    ``password_reset_request``. 400 ``bad_reset_link`` (unknown, used or expired: ask for a new
    one), ``bad_password``.

    A reset is what someone does who cannot get in, perhaps because somebody else did: every
    API token of the account is revoked with it, as every other session ends (a session holds a
    hash of the password). A password changed with the current one (``profile_update``) keeps
    the tokens: their owner is signed in and sees them listed, each revocable."""
    user = selectors.reset_link_user(uid=uid, token=token)
    if user is None:
        raise Invalid(
            "bad_reset_link",
            "This link to choose a new password does not work (any more): ask for a new one.",
        )
    _check_password(password, user)
    user.set_password(password)
    with transaction.atomic():
        user.save(update_fields=["password"])
        ApiToken.objects.filter(user=user).delete()
    return user


def profile_update(
    *,
    user: User,
    email: str | None = None,
    time_zone: str | None = None,
    weekend_days: list[int] | None = None,
    is_computer: bool | None = None,
    email_on_turn: bool | None = None,
    email_on_challenge: bool | None = None,
    email_on_game_over: bool | None = None,
    password: str | None = None,
    current_password: str | None = None,
    site_url: str | None = None,
) -> User:
    """Change the given fields of ``user``; ``None`` leaves a field as it is.

    A new password needs the current one. A new e-mail address is unconfirmed until the link
    sent to it is opened (none sent without ``site_url``). ``email_on_*``: the e-mails wanted
    (``games.notifications.services``).
    """
    fields: list[str] = []
    confirm = False
    if email is not None and email != user.email:
        user.email = email
        user.email_verified = False
        fields += ["email", "email_verified"]
        confirm = bool(email and site_url)
    if time_zone is not None:
        user.time_zone = check_time_zone(time_zone)
        fields.append("time_zone")
    if weekend_days is not None:
        user.weekend_days = check_weekend_days(weekend_days)
        fields.append("weekend_days")
    if is_computer is not None:
        user.is_computer = bool(is_computer)
        fields.append("is_computer")
    choices = {
        "email_on_turn": email_on_turn,
        "email_on_challenge": email_on_challenge,
        "email_on_game_over": email_on_game_over,
    }
    for name, wanted in choices.items():
        if wanted is not None:
            setattr(user, name, bool(wanted))
            fields.append(name)
    if password is not None:
        if not current_password:
            raise Invalid(
                "current_password_required",
                "A new password needs the current one too (current_password).",
            )
        if not user.check_password(current_password):
            raise Forbidden("bad_credentials", "The current password is not correct.")
        _check_password(password, user)
        user.set_password(password)
        fields.append("password")
    if fields:
        with transaction.atomic():
            user.save(update_fields=fields)
            if confirm:
                email_confirmation_send(user=user, site_url=site_url, quiet=True)
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


def account_delete(*, user: User, password: str, now: datetime | None = None) -> User:
    """Delete ``user``'s account, as its player asks with its password (403
    ``bad_credentials``). Nothing personal is kept: the name becomes ``deleted-<id>`` (the old
    one is free again), the e-mail address and names are emptied, the password can no longer
    be used, the tokens are deleted and every session ends. The games stay in the database
    (they are their opponents' too) under the new name. Being inactive, the account leaves the
    leaderboards, its challenges are closed and it leaves its tournaments (as a banned one);
    its games in progress are resigned by a job (and by the sweeper, should the job be lost).
    """
    if not password or not user.check_password(password):
        raise Forbidden("bad_credentials", "The password is not correct.")
    with transaction.atomic():
        account = User.objects.select_for_update().get(pk=user.pk)
        name = f"{DELETED_PREFIX}{account.pk}"
        if User.objects.filter(username__iexact=name).exclude(pk=account.pk).exists():
            name = f"{name}-{secrets.token_hex(3)}"  # an older account's name: never reused
        account.username = name
        account.email = account.first_name = account.last_name = ""
        account.set_unusable_password()
        account.is_active = False
        account.deleted_at = now or timezone.now()
        account.save()
        # The games copy its new name onto their seats and resign its games in progress.
        account_deleted.send(sender=User, user=account)
        ApiToken.objects.filter(user=account).delete()
    return account
