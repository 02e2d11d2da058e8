"""The computer opponents API: ``GET /api/bots/``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny

from games.bots import selectors
from games.models import User
from pente_site.lists import KnownQueryParameters


class BotOut(serializers.Serializer):
    username = serializers.CharField()
    level = serializers.IntegerField(source="bot_level", help_text="1 (weakest) to 8.")
    games = serializers.SerializerMethodField(help_text="The names of the games it plays.")
    think_seconds = serializers.SerializerMethodField(help_text="Its time budget per move.")

    def get_games(self, obj: User) -> list[str]:
        return selectors.bot_games()

    def get_think_seconds(self, obj: User) -> float:
        return selectors.bot_think_seconds(level=obj.bot_level)


class BotListView(ListAPIView):
    """The server's computer opponents, weakest first. Challenge one directly (unrated): it
    accepts at once."""

    permission_classes = [AllowAny]
    serializer_class = BotOut
    filter_backends = [KnownQueryParameters]
    query_parameters = ()

    @extend_schema(responses={200: BotOut(many=True)})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.bots_list()
