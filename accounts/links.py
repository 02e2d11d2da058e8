"""The tokens of the links the server e-mails: choosing a new password (Django's own
generator), confirming an e-mail address, and turning one kind of e-mail off."""

from __future__ import annotations

from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.core import signing
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from accounts.models import User


class EmailTokenGenerator(PasswordResetTokenGenerator):
    """A link that confirms one address of one account: it stops working once the address
    changes or is confirmed (both are in its hash), or after ``PASSWORD_RESET_TIMEOUT``."""

    key_salt = "accounts.links.EmailTokenGenerator"

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


#: The kinds of e-mail a player may turn off by a link in one, and the account's field of each.
EMAIL_KINDS = {
    "turn": "email_on_turn",
    "challenge": "email_on_challenge",
    "game_over": "email_on_game_over",
}
_UNSUBSCRIBE = signing.Signer(salt="accounts.links.unsubscribe")


def unsubscribe_token(*, user: User, kind: str) -> str:
    """The token of a link that turns ``kind`` of e-mail off for ``user``, signed with the
    ``SECRET_KEY`` (no expiry: a message may be read long after it was sent)."""
    return _UNSUBSCRIBE.sign_object([user.pk, kind])


def unsubscribe_user(*, token: str) -> tuple[User, str] | None:
    """The active account and the kind of e-mail an unsubscribe token was made for; None for
    a token not signed here (forged, or cut short)."""
    try:
        user_id, kind = _UNSUBSCRIBE.unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if kind not in EMAIL_KINDS or not isinstance(user_id, int):
        return None
    user = User.objects.filter(pk=user_id, is_active=True).first()
    return None if user is None else (user, kind)
