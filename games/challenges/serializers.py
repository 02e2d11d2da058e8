"""Input and output shapes of the challenges API. Only shapes are checked here; the rules
(time control ranges, seats, restrictions, ...) are the services' and refuse with their own
codes."""

from __future__ import annotations

from rest_framework import serializers

from games.challenges.models import Challenge
from games.clocks.timecontrol import TimeControl


class ChallengeIn(serializers.Serializer):
    variant = serializers.CharField(max_length=32, help_text="Game name or slug, e.g. 'Pente'.")
    invitee = serializers.CharField(
        max_length=150,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="Username to invite (a direct challenge); empty for an open challenge.",
    )
    seats = serializers.IntegerField(required=False, default=2)
    partners = serializers.BooleanField(required=False, default=False)
    rated = serializers.BooleanField(required=False, default=False)
    seat_wanted = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="1, 2 or null for either."
    )
    time_control = serializers.CharField(required=False, default="none")
    initial_minutes = serializers.IntegerField(required=False, default=0)
    increment_seconds = serializers.IntegerField(required=False, default=0)
    days_per_move = serializers.IntegerField(required=False, default=0)
    tournament_rule = serializers.BooleanField(required=False, allow_null=True, default=None)
    adjacent_only = serializers.BooleanField(required=False, default=False)
    message = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    restriction = serializers.CharField(required=False, default="none")
    restriction_rating = serializers.IntegerField(required=False, allow_null=True, default=None)
    expires_in_hours = serializers.IntegerField(required=False, allow_null=True, default=None)
    computer_level = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Open, unrated invitations: the level (1..8) of the computer opponent that "
        "takes it when no human has within computer_wait_seconds (in a multi-player game, "
        "computers fill every empty seat).",
    )
    computer_wait_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Seconds left to humans before the computer takes the invitation: 0 to 3600 "
        "(default 30).",
    )


class ChallengeOut(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username")
    invitee = serializers.CharField(source="invitee.username", allow_null=True, default=None)
    category = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField(
        help_text="Multi-player / partners: who has joined, in seat order."
    )

    class Meta:
        model = Challenge
        fields = [
            "id",
            "kind",
            "created_by",
            "invitee",
            "variant",
            "seats",
            "partners",
            "rated",
            "category",
            "tournament_rule",
            "adjacent_only",
            "seat_wanted",
            "time_control",
            "initial_minutes",
            "increment_seconds",
            "days_per_move",
            "restriction",
            "restriction_rating",
            "message",
            "computer_level",
            "computer_due_at",
            "status",
            "expires_at",
            "created_at",
            "players",
            "game",
            "game_set",
        ]

    def get_category(self, obj: Challenge) -> str:
        return TimeControl.of(obj).category

    def get_players(self, obj: Challenge) -> list[str]:
        return [entry.user.username for entry in obj.entries.all()]
