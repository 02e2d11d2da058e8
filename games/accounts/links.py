"""The tokens of the links the server e-mails: choosing a new password (Django's own
generator) and confirming an e-mail address."""

from __future__ import annotations

from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from games.models import User


class EmailTokenGenerator(PasswordResetTokenGenerator):
    """A link that confirms one address of one account: it stops working once the address
    changes or is confirmed (both are in its hash), or after ``PASSWORD_RESET_TIMEOUT``."""

    key_salt = "games.accounts.links.EmailTokenGenerator"

    def _make_hash_value(self, user, timestamp):
        return f"{user.pk}{user.email}{user.email_verified}{timestamp}"


email_token_generator = EmailTokenGenerator()
reset_token_generator = default_token_generator


def uid_of(user: User) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))


def link_user(*, uid: str, token: str, generator: PasswordResetTokenGenerator) -> User | None:
    """The active account a link was made for by ``generator``, while the link works; None for
    a link unknown, used or expired."""
    try:
        user = User.objects.filter(pk=int(urlsafe_base64_decode(uid)), is_active=True).first()
    except (ValueError, TypeError, OverflowError):
        return None
    if user is None or not generator.check_token(user, token):
        return None
    return user
