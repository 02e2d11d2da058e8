"""Input and output shapes of the challenges API. Only shapes are checked here; the rules
(time control ranges, seats, restrictions, ...) are the services' and refuse with their own
codes."""

from __future__ import annotations

from rest_framework import serializers

from games.bots.selectors import BOT_LEVELS
from games.challenges.models import Challenge
from games.challenges.services import (
    MAX_COMPUTER_WAIT_SECONDS,
    MAX_EXPIRY_HOURS,
    MAX_RESTRICTION_RATING,
    MAX_SEATS,
    MIN_RESTRICTION_RATING,
    MIN_SEATS,
)
from games.clocks.timecontrol import (
    MAX_DAYS_PER_MOVE,
    MAX_INCREMENT_SECONDS,
    MAX_INITIAL_MINUTES,
    MIN_DAYS_PER_MOVE,
    TimeControl,
)
from pente_site.fields import StrictCharField, StrictModelSerializer, stated_range


class ChallengeIn(serializers.Serializer):
    variant = StrictCharField(max_length=32, help_text="Game name or slug, e.g. 'Pente'.")
    invitee = StrictCharField(
        max_length=150,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="Username to invite (a direct challenge); empty for an open challenge.",
    )
    seats = stated_range(minimum=MIN_SEATS, maximum=MAX_SEATS)(
        required=False, default=2, help_text="2 to 6 (a partners game: 4); else a 400 bad_seats."
    )
    partners = serializers.BooleanField(required=False, default=False)
    rated = serializers.BooleanField(required=False, default=False)
    seat_wanted = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="1, 2 or null for either."
    )
    time_control = StrictCharField(required=False, default="none")
    initial_minutes = stated_range(minimum=0, maximum=MAX_INITIAL_MINUTES)(
        required=False, default=0, help_text="Live only; out of range, a 400 bad_time_control."
    )
    increment_seconds = stated_range(minimum=0, maximum=MAX_INCREMENT_SECONDS)(
        required=False, default=0, help_text="Live only; out of range, a 400 bad_time_control."
    )
    days_per_move = stated_range(minimum=0, maximum=MAX_DAYS_PER_MOVE)(
        required=False,
        default=0,
        help_text=f"Turn-based: {MIN_DAYS_PER_MOVE} to {MAX_DAYS_PER_MOVE} days a move; 0 for "
        "any other time control. Else a 400 bad_time_control.",
    )
    tournament_rule = serializers.BooleanField(required=False, allow_null=True, default=None)
    adjacent_only = serializers.BooleanField(required=False, default=False)
    message = StrictCharField(required=False, allow_blank=True, default="", max_length=2000)
    restriction = StrictCharField(required=False, default="none")
    restriction_rating = stated_range(
        minimum=MIN_RESTRICTION_RATING, maximum=MAX_RESTRICTION_RATING
    )(required=False, allow_null=True, default=None)
    expires_in_hours = stated_range(minimum=1, maximum=MAX_EXPIRY_HOURS)(
        required=False, allow_null=True, default=None
    )
    computer_level = stated_range(minimum=BOT_LEVELS[0], maximum=BOT_LEVELS[-1])(
        required=False,
        allow_null=True,
        default=None,
        help_text="Open, unrated invitations: the level (1..8) of the computer opponent that "
        "takes it when no human has within computer_wait_seconds (in a multi-player game, "
        "computers fill every empty seat).",
    )
    computer_wait_seconds = stated_range(minimum=0, maximum=MAX_COMPUTER_WAIT_SECONDS)(
        required=False,
        allow_null=True,
        default=None,
        help_text="Seconds left to humans before the computer takes the invitation: 0 to 3600 "
        "(default 30).",
    )


class ChallengeOut(StrictModelSerializer):
    created_by = StrictCharField(source="created_by.username")
    invitee = StrictCharField(source="invitee.username", allow_null=True, default=None)
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
