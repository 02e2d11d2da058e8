"""The lessons' API bodies (for validation and the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from pente_site.fields import StrictCharField


class StepBoardSerializer(serializers.Serializer):
    size = serializers.IntegerField(help_text="The board's side (19; Go lessons 9).")
    rows = serializers.ListField(
        child=serializers.CharField(),
        help_text="The board's rows, top row first: '.' empty, a digit the stone's colour.",
    )
    go = serializers.BooleanField(help_text="Go's colours (1 black) and pass; else 1 is white.")
    to_move_colour = serializers.IntegerField(allow_null=True)
    stones = serializers.IntegerField(
        help_text="Stones the answer places (Connect6: 2); 0 when a decision is due."
    )
    decisions = serializers.ListField(
        child=serializers.CharField(), help_text="The decisions the answer may be (keep, swap...)."
    )
    can_pass = serializers.BooleanField()
    action = serializers.ChoiceField(
        choices=["play", "mark"],
        help_text="play: a move (stones, PASS or a decision); mark: click a stone of the group "
        "to mark dead.",
    )
    last_point = serializers.CharField(allow_null=True)


class StepSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    prompt = serializers.CharField()
    game = serializers.CharField(help_text="The game the step is played in (its name).")
    done = serializers.BooleanField(help_text="Whether the caller has answered it right.")
    board = StepBoardSerializer()


class LessonSummarySerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    summary = serializers.CharField()
    game = serializers.CharField(help_text="The game of the lesson (its name).")
    game_slug = serializers.CharField(help_text="The game's slug (its rules: /rules/<slug>/).")
    steps = serializers.IntegerField(help_text="How many steps it has.")
    done = serializers.ListField(
        child=serializers.IntegerField(), help_text="The steps the caller has answered right."
    )


class LessonSerializer(LessonSummarySerializer):
    steps = serializers.IntegerField(help_text="How many steps it has.")
    step_list = StepSerializer(many=True)


class AnswerInSerializer(serializers.Serializer):
    move = StrictCharField(
        max_length=40,
        help_text="The answer: a point (K10), a turn's stones (L10 L11), PASS, or a decision "
        "(keep, swap, place_two, colour1, colour2); in a marking step, a stone of the group.",
    )


class AnswerSerializer(serializers.Serializer):
    right = serializers.BooleanField()
    feedback = serializers.CharField(help_text="The sentence to show the learner.")
    refusal_code = serializers.CharField(
        allow_null=True, help_text="The rules' refusal code when the move was refused."
    )
    refusal = serializers.CharField(allow_null=True, help_text="The rules' refusal, in words.")
    rows = serializers.ListField(
        child=serializers.CharField(),
        help_text="The board after the move, top row first (empty when it was refused).",
    )
    lesson = serializers.CharField()
    step = serializers.IntegerField()
    done = serializers.ListField(child=serializers.IntegerField())
    next_step = serializers.IntegerField(allow_null=True)
    completed = serializers.BooleanField(help_text="Whether every step of the lesson is done.")
