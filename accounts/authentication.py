"""``Authorization: Token <key>`` / ``Bearer <key>`` authentication against hashed API tokens."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.models import ApiToken
from accounts.tokens import hash_key

KEYWORDS = ("token", "bearer")
LAST_USED_RESOLUTION = timedelta(minutes=1)


class ApiTokenAuthentication(BaseAuthentication):
    """Accepts ``Authorization: Token <key>`` and ``Authorization: Bearer <key>``.

    Only the sha256 of a key is stored. ``last_used_at`` is written at most once a minute.
    Requests without one of these headers are left to the other authentication classes.
    """

    keyword = "Token"

    def authenticate(self, request):
        header = get_authorization_header(request).split()
        if not header or header[0].lower().decode(errors="replace") not in KEYWORDS:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "Invalid token header: expected 'Token <key>' or 'Bearer <key>'."
            )
        try:
            key = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                "Invalid token header: the key has invalid characters."
            ) from None
        return self.authenticate_key(key)

    def authenticate_key(self, key: str):
        token = ApiToken.objects.select_related("user").filter(key_hash=hash_key(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return (token.user, token)

    def authenticate_header(self, request) -> str:
        return self.keyword
