"""Input and output shapes of the accounts API (validation of shapes only; rules live in
services)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.models import ApiToken, User


class RegisterIn(serializers.Serializer):
    # The name's shape is checked by the service with everything else (every problem at once,
    # each with its own code); the bound here only keeps absurd bodies out.
    username = serializers.CharField(
        max_length=1000,
        help_text="At most 20 letters and digits of any script, and . @ + - _ (400 "
        "``username_too_long`` beyond).",
    )
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True, default="", max_length=254)
    time_zone = serializers.CharField(max_length=64, required=False, default="UTC")
    weekend_days = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_empty=True, max_length=7
    )


class CredentialsIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class TokenObtainIn(CredentialsIn):
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class PasswordResetIn(serializers.Serializer):
    email = serializers.EmailField(help_text="The e-mail address of the account.")


class LinkIn(serializers.Serializer):
    """The two parts of a link the server e-mailed."""

    uid = serializers.CharField(max_length=64, help_text="The uid part of the link.")
    token = serializers.CharField(max_length=128, help_text="The token part of the link.")


class PasswordResetConfirmIn(LinkIn):
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)


class DetailOut(serializers.Serializer):
    detail = serializers.CharField()


class TokenCreateIn(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class TokenOut(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "last_used_at"]


class TokenIssuedOut(serializers.Serializer):
    id = serializers.IntegerField(source="token.id")
    name = serializers.CharField(source="token.name")
    prefix = serializers.CharField(source="token.prefix")
    created_at = serializers.DateTimeField(source="token.created_at")
    key = serializers.CharField(help_text="The API key. It is shown this once only.")


class ProfileOut(serializers.ModelSerializer):
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
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254)
    time_zone = serializers.CharField(max_length=64, required=False)
    weekend_days = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_empty=True, max_length=7
    )
    is_computer = serializers.BooleanField(required=False)
    email_on_turn = serializers.BooleanField(required=False, help_text=_help("email_on_turn"))
    email_on_challenge = serializers.BooleanField(
        required=False, help_text=_help("email_on_challenge")
    )
    email_on_game_over = serializers.BooleanField(
        required=False, help_text=_help("email_on_game_over")
    )
    password = serializers.CharField(max_length=128, required=False, trim_whitespace=False)
    current_password = serializers.CharField(max_length=128, required=False, trim_whitespace=False)


class AccountDeleteIn(serializers.Serializer):
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class PlayerListQueryIn(serializers.Serializer):
    """Query parameters of the player list (NUL and non-booleans are a 400, not a 500/ignored)."""

    search = serializers.CharField(max_length=150, required=False, allow_blank=True)
    computer = serializers.BooleanField(required=False, allow_null=True, default=None)


class PlayerListOut(serializers.ModelSerializer):
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

    username = serializers.CharField()
    is_computer = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    games = GameCountsOut()
    aborts = serializers.IntegerField(
        help_text="Live games aborted because this player made no first move within the start "
        "window."
    )
