"""Request and response shapes of the tournaments API."""

from __future__ import annotations

from rest_framework import serializers

from games.serializers import UserBriefSerializer
from tournaments.models import Tournament


class TournamentSerializer(serializers.ModelSerializer):
    organiser = UserBriefSerializer(read_only=True)
    winner = UserBriefSerializer(read_only=True, allow_null=True)
    players = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "organiser",
            "variant",
            "rated",
            "format",
            "time_control",
            "initial_minutes",
            "increment_seconds",
            "days_per_move",
            "games_per_match",
            "registration_opens_at",
            "registration_closes_at",
            "start_at",
            "rating_above",
            "rating_below",
            "min_rated_results",
            "max_players",
            "vacation_allowed",
            "rounds",
            "cycles",
            "status",
            "current_round",
            "players",
            "winner",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    variant = serializers.CharField(max_length=32, default="Pente")
    rated = serializers.BooleanField(default=True)
    time_control = serializers.ChoiceField(choices=["none", "live", "turn"], default="turn")
    initial_minutes = serializers.IntegerField(min_value=0, max_value=999, default=0)
    increment_seconds = serializers.IntegerField(min_value=0, max_value=59, default=0)
    days_per_move = serializers.IntegerField(min_value=0, max_value=30, default=3)
    games_per_match = serializers.IntegerField(min_value=1, max_value=2, required=False)
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    start_at = serializers.DateTimeField()
    rating_above = serializers.IntegerField(required=False, allow_null=True)
    rating_below = serializers.IntegerField(required=False, allow_null=True)
    min_rated_results = serializers.IntegerField(min_value=0, default=0)
    max_players = serializers.IntegerField(min_value=2, required=False, allow_null=True)
    vacation_allowed = serializers.BooleanField(default=True)
    rounds = serializers.IntegerField(min_value=1, max_value=50, required=False, allow_null=True)
    cycles = serializers.IntegerField(min_value=1, max_value=2, default=1)


class EntrySerializer(serializers.Serializer):
    user = UserBriefSerializer()
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)
    status = serializers.CharField()
    joined_at = serializers.DateTimeField()


class TournamentDetailSerializer(TournamentSerializer):
    entries = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "entries"]
        read_only_fields = fields

    def get_entries(self, obj) -> list[dict]:
        from tournaments import selectors

        return EntrySerializer(selectors.entries(obj), many=True).data


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.FloatField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    tiebreaks = serializers.DictField()
    withdrawn = serializers.BooleanField()


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    bracket = serializers.CharField(allow_null=True)
    bracket_round = serializers.IntegerField(allow_null=True)
    board = serializers.IntegerField()
    player1 = UserBriefSerializer(allow_null=True)
    player2 = UserBriefSerializer(allow_null=True)
    status = serializers.CharField()
    result = serializers.CharField(allow_null=True)
    winner = UserBriefSerializer(allow_null=True)
    forfeit = serializers.BooleanField()
    sets = serializers.ListField(child=serializers.DictField())


class RoundSerializer(serializers.Serializer):
    bracket = serializers.CharField(allow_null=True)
    number = serializers.IntegerField()
    matches = MatchSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    final = serializers.BooleanField()
    standings = StandingSerializer(many=True)


class BracketMatchSerializer(serializers.Serializer):
    key = serializers.CharField()
    bracket = serializers.CharField()
    round = serializers.IntegerField()
    index = serializers.IntegerField()
    player1 = serializers.JSONField(help_text='{"id", "username"}, "bye" or null while unknown')
    player2 = serializers.JSONField(help_text='{"id", "username"}, "bye" or null while unknown')
    status = serializers.CharField(help_text="pending, ready, done, walkover or void")
    winner = serializers.JSONField(allow_null=True)
    match_id = serializers.IntegerField(allow_null=True)


class BracketSerializer(serializers.Serializer):
    format = serializers.CharField()
    champion = UserBriefSerializer(allow_null=True)
    matches = BracketMatchSerializer(many=True)
