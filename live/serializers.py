"""Shapes of the rooms, chat, presence, ignore and report endpoints (``live.views``)."""

from __future__ import annotations

from rest_framework import serializers

from live.models import CHAT_MAX
from pente_site.fields import StrictCharField


class PlayerRatingOut(serializers.Serializer):
    variant = StrictCharField()
    category = StrictCharField()
    rating = serializers.IntegerField()
    results = serializers.IntegerField()


class PersonOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = StrictCharField()
    ratings = PlayerRatingOut(many=True, help_text="Ratings with rated results, best first.")


class AuthorOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = StrictCharField()


class ChatLineOut(serializers.Serializer):
    id = serializers.IntegerField()
    room = StrictCharField(allow_null=True, help_text="The room's name (null in a game).")
    game = serializers.IntegerField(allow_null=True, help_text="The game's id (null in a room).")
    author = AuthorOut()
    text = StrictCharField()
    spectator = serializers.BooleanField(help_text="Said in a game by someone not seated in it.")
    hidden_from_players = serializers.BooleanField(
        help_text="A spectator's line in a rated game in progress: its players do not see it "
        "until the game ends."
    )
    created_at = serializers.DateTimeField()


class ChatIn(serializers.Serializer):
    text = StrictCharField(max_length=CHAT_MAX, trim_whitespace=True)


class RoomOut(serializers.Serializer):
    name = StrictCharField()
    title = StrictCharField()
    tournament = serializers.IntegerField(allow_null=True)
    online = serializers.IntegerField(help_text="People following the room's stream now.")


class RoomDetailOut(serializers.Serializer):
    name = StrictCharField()
    title = StrictCharField()
    tournament = serializers.IntegerField(allow_null=True)
    online = PersonOut(many=True, help_text="Who is in the room (logged in), by name.")
    anonymous = serializers.IntegerField(help_text="Readers of the room not logged in.")
    chat = ChatLineOut(many=True, help_text="The last lines, oldest first.")


class SpectatorsOut(serializers.Serializer):
    count = serializers.IntegerField(help_text="People following the game who are not seated.")
    people = PersonOut(many=True, help_text="The logged-in ones, by name.")


class IgnoreIn(serializers.Serializer):
    username = StrictCharField(max_length=150)


class IgnoreOut(serializers.Serializer):
    username = StrictCharField(source="ignored.username")
    created_at = serializers.DateTimeField()


class ReportIn(serializers.Serializer):
    reason = StrictCharField(max_length=200, required=False, allow_blank=True, default="")


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    line = serializers.IntegerField(source="line_id")
    reason = StrictCharField()
    created_at = serializers.DateTimeField()


class FallbackOut(serializers.Serializer):
    requests = serializers.IntegerField(
        help_text="Requests the rate limits counted in the process."
    )
    failures = serializers.IntegerField(help_text="Times Redis could not be reached.")
    active = serializers.BooleanField(help_text="Counting in the process now.")


class EventCountsOut(serializers.Serializer):
    outbox = serializers.IntegerField(help_text="Events written to the database outbox.")
    delivered = serializers.IntegerField(help_text="Events delivered from it to Redis.")
    dropped = serializers.IntegerField(help_text="Events lost: neither Redis nor the database.")


class HealthOut(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["ok", "degraded", "down"],
        help_text="ok; degraded: Redis is away (everything still works); down: no database.",
    )
    database = serializers.BooleanField()
    redis = serializers.BooleanField(
        allow_null=True, help_text="Whether Redis answers; null when the server runs without it."
    )
    rate_limits_in_process = FallbackOut()
    cache_skipped = serializers.IntegerField(
        help_text="Cache reads and writes given up while Redis was away."
    )
    events = EventCountsOut(
        allow_null=True, help_text="The event bus's outbox counts; null without Redis."
    )
