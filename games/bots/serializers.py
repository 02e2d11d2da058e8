"""Serializers of the computer's analysis of a game and of hints (``games.bots.views``)."""

from __future__ import annotations

from rest_framework import serializers

from games.bots.analysis import CP_CAP
from games.bots.models import Analysis
from games.play.serializers import ErrorSerializer
from pente_site.fields import StrictCharField

JUDGEMENT_CHOICES = ("inaccuracy", "mistake", "blunder")
MATE_CHOICES = ("win", "loss")


class EvaluationSerializer(serializers.Serializer):
    """A position's value (in an analysis: for the first player, seat 1 and its partner)."""

    cp = serializers.IntegerField(
        min_value=-CP_CAP,
        max_value=CP_CAP,
        help_text="The engine's score in centipawn-like units (about 100 for an open three), "
        f"clamped to -{CP_CAP}..{CP_CAP}; +-{CP_CAP} when decided.",
    )
    mate = serializers.ChoiceField(
        choices=MATE_CHOICES,
        allow_null=True,
        help_text="win or loss when the engine found a forced win for one side (or the game "
        "is won); null otherwise.",
    )


class AnalysisPlySerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="The ply (1 is the first action of the game).")
    seat = serializers.IntegerField(help_text="The seat that played it.")
    move = StrictCharField(
        help_text="The move played, as the game's moves list shows it (K10, or a decision)."
    )
    evaluation = EvaluationSerializer(help_text="The position after the move.")
    best_move = StrictCharField(
        allow_null=True,
        help_text="The engine's choice instead (Connect6: two stones, K10 L11; a decision "
        "word); null for the automatic first stone.",
    )
    best_evaluation = EvaluationSerializer(
        allow_null=True, help_text="The position after the engine's choice."
    )
    judgement = serializers.ChoiceField(
        choices=JUDGEMENT_CHOICES,
        allow_null=True,
        help_text="inaccuracy, mistake or blunder by the winning chances the move lost "
        "(>= 0.1, 0.2, 0.3 on -1..1); null for a good move.",
    )


class AnalysisSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = StrictCharField()
    inaccuracies = serializers.IntegerField()
    mistakes = serializers.IntegerField()
    blunders = serializers.IntegerField()


class AnalysisProgressSerializer(serializers.Serializer):
    processed = serializers.IntegerField(help_text="Plies analysed so far.")
    total = serializers.IntegerField(help_text="Plies of the game.")


class AnalysisSerializer(serializers.Serializer):
    """The computer's analysis of a game: poll it (``GET``) until ``status`` is ``done`` or
    ``failed``."""

    id = serializers.IntegerField()
    game = serializers.IntegerField(help_text="The game's id.")
    status = serializers.ChoiceField(
        choices=Analysis.Status.choices,
        help_text="pending, running, done or failed (see error; the plies analysed stay).",
    )
    progress = AnalysisProgressSerializer()
    level = serializers.IntegerField(help_text="The engine's level (1-8).")
    seconds_per_move = serializers.FloatField(help_text="The engine's time per position.")
    plies = AnalysisPlySerializer(many=True, help_text="Each ply analysed so far, in order.")
    summary = AnalysisSummarySerializer(
        many=True, help_text="Per player: the judgements of their plies analysed so far."
    )
    error = ErrorSerializer(allow_null=True, help_text="Why a failed analysis stopped.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class HintSerializer(serializers.Serializer):
    """The engine's suggestion for you, the player to move."""

    game = serializers.IntegerField(source="game_id")
    ply = serializers.IntegerField(help_text="The game's ply: send it with the move.")
    seat = serializers.IntegerField(help_text="Your seat, to move.")
    move = StrictCharField(
        help_text="The suggestion in the game's notation: K10, Connect6's K10 L11, or the "
        "decision word."
    )
    points = serializers.ListField(
        child=StrictCharField(), help_text="The stones to play (empty for a decision)."
    )
    decision = StrictCharField(
        allow_null=True, help_text="The decision to make (D-Pente, Swap2), or null."
    )
    evaluation = EvaluationSerializer(help_text="The position for you, after the suggestion.")
