"""Input and output shapes of the accounts API (validation of shapes only; rules live in
services)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import ApiToken, User
from accounts.services import MAX_WEEKEND_DAYS
from pente_site.fields import (
    QueryBooleanField,
    QuerySerializer,
    StrictCharField,
    StrictEmailField,
    StrictModelSerializer,
)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 6},
        "maxItems": MAX_WEEKEND_DAYS,
        "uniqueItems": True,
    }
)
class WeekendDaysField(serializers.ListField):
    """The days a turn-based clock stops for this player: 0 (Monday) to 6 (Sunday), each once,
    at most ``MAX_WEEKEND_DAYS``; the service checks them (400 ``bad_weekend_days``), the
    schema states them."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "help_text",
            f"Day numbers 0 (Monday) to 6 (Sunday), each at most once, at most "
            f"{MAX_WEEKEND_DAYS}; else a 400 bad_weekend_days.",
        )
        super().__init__(child=serializers.IntegerField(), allow_empty=True, max_length=7, **kwargs)


class RegisterIn(serializers.Serializer):
    # The name's shape is checked by the service with everything else (every problem at once,
    # each with its own code); the bound here only keeps absurd bodies out.
    username = StrictCharField(
        max_length=1000,
        help_text="At most 20 letters and digits of any script, and . @ + - _ (400 "
        "``username_too_long`` beyond).",
    )
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)
    email = StrictEmailField(required=False, allow_blank=True, default="", max_length=254)
    time_zone = StrictCharField(max_length=64, required=False, default="UTC")
    weekend_days = WeekendDaysField(required=False)


class CredentialsIn(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, trim_whitespace=False)


class TokenObtainIn(CredentialsIn):
    name = StrictCharField(max_length=100, required=False, allow_blank=True, default="")


class PasswordResetIn(serializers.Serializer):
    email = StrictEmailField(help_text="The e-mail address of the account.")


class LinkIn(serializers.Serializer):
    """The two parts of a link the server e-mailed."""

    uid = StrictCharField(max_length=64, help_text="The uid part of the link.")
    token = StrictCharField(max_length=128, help_text="The token part of the link.")


class PasswordResetConfirmIn(LinkIn):
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)


class DetailOut(serializers.Serializer):
    detail = StrictCharField()


class TokenCreateIn(serializers.Serializer):
    name = StrictCharField(max_length=100, required=False, allow_blank=True, default="")


class TokenOut(StrictModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "last_used_at"]


class TokenIssuedOut(serializers.Serializer):
    id = serializers.IntegerField(source="token.id")
    name = StrictCharField(source="token.name")
    prefix = StrictCharField(source="token.prefix")
    created_at = serializers.DateTimeField(source="token.created_at")
    key = StrictCharField(help_text="The API key. It is shown this once only.")


class ProfileOut(StrictModelSerializer):
    class Meta:
        model = User
        fields = [
            "id",
            "username",
            "email",
            "email_verified",
            "time_zone",
            "weekend_days",
            "is_computer",
            "vacation_hours_left",
            "date_joined",
            "email_on_turn",
            "email_on_challenge",
            "email_on_game_over",
        ]


def _help(field: str) -> str:
    return str(User._meta.get_field(field).help_text)


class ProfilePatchIn(serializers.Serializer):
    email = StrictEmailField(required=False, allow_blank=True, max_length=254)
    time_zone = StrictCharField(max_length=64, required=False)
    weekend_days = WeekendDaysField(required=False)
    is_computer = serializers.BooleanField(required=False)
    email_on_turn = serializers.BooleanField(required=False, help_text=_help("email_on_turn"))
    email_on_challenge = serializers.BooleanField(
        required=False, help_text=_help("email_on_challenge")
    )
    email_on_game_over = serializers.BooleanField(
        required=False, help_text=_help("email_on_game_over")
    )
    password = StrictCharField(max_length=128, required=False, trim_whitespace=False)
    current_password = StrictCharField(max_length=128, required=False, trim_whitespace=False)


class AccountDeleteIn(serializers.Serializer):
    password = StrictCharField(max_length=128, trim_whitespace=False)


class PlayerListQueryIn(QuerySerializer):
    """Query parameters of the player list (NUL and non-booleans are a 400, not a 500/ignored)."""

    search = StrictCharField(max_length=150, required=False, allow_blank=True)
    computer = QueryBooleanField()


class PlayerListOut(StrictModelSerializer):
    class Meta:
        model = User
        fields = ["username", "is_computer", "date_joined"]


class GameCountsOut(serializers.Serializer):
    total = serializers.IntegerField()
    in_progress = serializers.IntegerField()
    finished = serializers.IntegerField()
    cancelled = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    rated_finished = serializers.IntegerField()


class PlayerPageOut(serializers.Serializer):
    """A public player page. Apps registered in ``PLAYER_PAGE_EXTRAS`` add more keys."""

    username = StrictCharField()
    is_computer = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    games = GameCountsOut()
    aborts = serializers.IntegerField(
        help_text="Live games aborted because this player made no first move within the start "
        "window."
    )
