"""Response shapes of the ratings API (read-only)."""

from __future__ import annotations

from rest_framework import serializers

from pente_site.fields import StrictCharField
from ratings.elo import rating_class


# ``get_rating`` (rounded) and ``get_rating_class`` for a row with a ``rating``. (No docstring:
# the schema would show it as the description of every serializer built on this.)
class _RatingValues:
    def get_rating(self, row) -> float:
        return round(row.rating, 2)

    def get_rating_class(self, row) -> str:
        return rating_class(row.rating)[0]


class RatingOut(_RatingValues, serializers.Serializer):
    game = StrictCharField(source="variant")
    category = StrictCharField()
    rating = serializers.SerializerMethodField()
    results = serializers.IntegerField()
    established = serializers.BooleanField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    current_streak = serializers.IntegerField(source="streak")
    best_streak = serializers.IntegerField()
    rating_class = serializers.SerializerMethodField()
    last_played_at = serializers.DateTimeField(allow_null=True)


# The columns of a leaderboard's row, the players' and the computers' alike. (No docstring, as
# above.)
class _RankedRowOut(_RatingValues, serializers.Serializer):
    rank = serializers.IntegerField()
    player = StrictCharField(source="user.username")
    rating = serializers.SerializerMethodField()
    results = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    rating_class = serializers.SerializerMethodField()
    last_played_at = serializers.DateTimeField(allow_null=True)


class LeaderboardRowOut(_RankedRowOut):
    established = serializers.BooleanField()


class LeaderboardPageOut(serializers.Serializer):
    game = StrictCharField()
    category = StrictCharField()
    next = StrictCharField(allow_null=True)
    results = LeaderboardRowOut(many=True)


class RankOut(serializers.Serializer):
    player = StrictCharField()
    game = StrictCharField()
    category = StrictCharField()
    rank = serializers.IntegerField()
    rating = serializers.FloatField()
    results = serializers.IntegerField()
    established = serializers.BooleanField()


class RatingChangeOut(serializers.Serializer):
    set_id = serializers.IntegerField(source="game_set_id")
    time = serializers.DateTimeField(source="created_at")
    opponent = StrictCharField(source="opponent.username")
    result = StrictCharField()
    games_count = serializers.IntegerField()
    rating_before = serializers.SerializerMethodField()
    rating_after = serializers.SerializerMethodField()
    change = serializers.SerializerMethodField()
    opponent_rating_before = serializers.SerializerMethodField()

    def get_rating_before(self, change) -> float:
        return round(change.rating_before, 2)

    def get_rating_after(self, change) -> float:
        return round(change.rating_after, 2)

    def get_change(self, change) -> float:
        return round(change.rating_after - change.rating_before, 2)

    def get_opponent_rating_before(self, change) -> float:
        return round(change.opponent_rating_before, 2)


class StatsOut(serializers.Serializer):
    """``player_stats`` as it is (documented for the schema)."""

    player = StrictCharField()
    totals = serializers.DictField()
    ratings = serializers.ListField(child=serializers.DictField())
    crowns = serializers.ListField(child=serializers.DictField())


class ComputerRatingRowOut(_RankedRowOut):
    level = serializers.IntegerField(source="user.bot_level")


class ComputerLeaderboardOut(serializers.Serializer):
    game = StrictCharField()
    category = StrictCharField()
    results = ComputerRatingRowOut(many=True)
