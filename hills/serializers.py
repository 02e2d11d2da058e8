"""Input and output shapes of the hills API."""

from __future__ import annotations

from rest_framework import serializers

from games.clocks.timecontrol import (
    MAX_DAYS_PER_MOVE,
    MAX_INCREMENT_SECONDS,
    MAX_INITIAL_MINUTES,
)
from hills.models import Hill, HillEvent
from pente_site.fields import StrictCharField, stated_range


class HillOut(serializers.Serializer):
    slug = serializers.CharField(help_text="The hill's name: the game's slug and the kind.")
    variant = serializers.CharField()
    kind = serializers.ChoiceField(choices=Hill.Kind.choices)
    members_count = serializers.IntegerField()
    king = serializers.CharField(allow_null=True)


class HillSetOut(serializers.Serializer):
    game_set = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField(allow_null=True, help_text="The set's game in progress.")
    challenger = serializers.CharField()
    challenged = serializers.CharField()
    to_move = serializers.CharField(allow_null=True, help_text="Whose turn it is in that game.")


class HillMemberOut(serializers.Serializer):
    username = serializers.CharField()
    step = serializers.IntegerField()
    rating = serializers.IntegerField(allow_null=True)
    king = serializers.BooleanField()
    conquests = serializers.IntegerField(help_text="How many times this player became king.")
    joined_at = serializers.DateTimeField()
    active_at = serializers.DateTimeField(help_text="Joined or last started or ended a hill set.")
    sets = HillSetOut(many=True)


class HillStepOut(serializers.Serializer):
    step = serializers.IntegerField(help_text="1 is the bottom step.")
    members = HillMemberOut(many=True)


class HillRulesOut(serializers.Serializer):
    idle_days = serializers.IntegerField()
    reach_steps = serializers.IntegerField()
    max_sets = serializers.IntegerField(allow_null=True)
    decline_penalty_days = serializers.IntegerField(allow_null=True)
    time_control = serializers.CharField()


class HillDetailOut(serializers.Serializer):
    slug = serializers.CharField()
    variant = serializers.CharField()
    kind = serializers.ChoiceField(choices=Hill.Kind.choices)
    room = serializers.CharField(help_text="The hill's live room; its stream has hill_changed.")
    king = serializers.CharField(allow_null=True)
    members_count = serializers.IntegerField()
    rules = HillRulesOut()
    steps = HillStepOut(many=True, help_text="Top step first.")


class HillEventOut(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")
    opponent = serializers.CharField(source="opponent.username", allow_null=True, default=None)
    kind = serializers.ChoiceField(choices=HillEvent.Kind.choices)

    class Meta:
        model = HillEvent
        fields = ["id", "user", "kind", "step_before", "step_after", "game_set", "opponent"]
        fields += ["created_at"]


class HillChallengeIn(serializers.Serializer):
    opponent = StrictCharField(max_length=150, help_text="The member to challenge.")
    time_control = StrictCharField(help_text="'live' on a live hill, 'turn' on a turn-based one.")
    initial_minutes = stated_range(minimum=0, maximum=MAX_INITIAL_MINUTES)(
        required=False, default=0
    )
    increment_seconds = stated_range(minimum=0, maximum=MAX_INCREMENT_SECONDS)(
        required=False, default=0
    )
    days_per_move = stated_range(minimum=0, maximum=MAX_DAYS_PER_MOVE)(required=False, default=0)
    message = StrictCharField(required=False, allow_blank=True, default="", max_length=2000)
