"""The computers' turns waiting for their move, and the computer's analysis of a finished game,
computed in the background.

A ``BotTurn`` is the one row of a game whose seat to act is a computer: written with the action
that started the turn, claimed by the move task, deleted once the move is played; the resend
sweeper (``games.bots.services.bots_resend``) sends the move again when a row's ``resend_at``
passes (a lost task).

``POST /api/games/{id}/analysis`` stores an ``Analysis`` (one per game: a unique constraint) and
a Celery task on the ``bots`` queue analyses the game's plies in batches
(``games.bots.analysis``). Each batch commits its plies together with the counters, so the
counters always say exactly which plies are analysed and a new run resumes after them.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from accounts.models import User
from games.choices import job_checks
from games.play.models import Game


class BotTurn(models.Model):
    """A computer's turn in ``game`` at ``ply``: the move task claims it, the sweeper sends the
    task again once ``resend_at`` has passed without a move."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="bot_turn"
    )
    #: The game's ply when the turn started: the move task's expected ply.
    ply = models.PositiveIntegerField()
    #: When the move is late: the turn's start (or the claim) plus the think time plus
    #: ``BOT_RESEND_SECONDS``; then, after each resend, the next wait. The due index.
    resend_at = models.DateTimeField()
    #: When a move task took the turn (null: sent, not yet taken). A task claims only a turn
    #: nobody holds, so two copies of the task do not both think; a resend frees it again.
    claimed_at = models.DateTimeField(null=True, blank=True)
    #: How many times the task was sent (the first one included).
    sends = models.PositiveIntegerField(default=1)

    class Meta:
        indexes = [models.Index(fields=["resend_at"], name="bot_turn_resend_at")]

    def __str__(self) -> str:
        return f"Computer's turn in game {self.game_id} at ply {self.ply}"


class Analysis(models.Model):
    """The engine's evaluation of every ply of one game, with its judgements."""

    class Status(models.TextChoices):
        PENDING = "pending"  # waiting for a worker (first, or between two batches)
        RUNNING = "running"  # a worker analyses a batch (``attempt`` is that worker's claim)
        DONE = "done"  # every ply analysed
        FAILED = "failed"  # stopped for good (``error_code``); the plies committed stay

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses")
    #: Who asked for it (counts towards their analyses pending or running at once).
    requested_by = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="analyses"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    #: The search used: level (1-8) and seconds per position.
    level = models.PositiveSmallIntegerField(default=6)
    seconds_per_move = models.FloatField(default=0.2)
    plies_total = models.PositiveIntegerField(default=0)
    #: Plies analysed so far, from the first: a run resumes after them.
    plies_processed = models.PositiveIntegerField(default=0)
    #: One entry per ply analysed (``games.bots.analysis``: move, evaluation, best move and
    #: its evaluation, judgement).
    plies = models.JSONField(default=list, blank=True)
    #: The engine's search of each position reached so far (index: plies played before it;
    #: null before the game's automatic first stone): the next batch starts from the last.
    positions = models.JSONField(default=list, blank=True)
    error_code = models.CharField(max_length=32, blank=True, default="")
    error_detail = models.CharField(max_length=300, blank=True, default="")
    #: How many times a worker claimed it; the running worker's claim is this number.
    attempt = models.PositiveIntegerField(default=0)
    #: Runs lost with their worker (a batch that never committed); too many fail the analysis.
    interruptions = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Moves on with every claim and committed batch: a job whose worker died stops moving.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "analyses"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["requested_by", "status"], name="analysis_requester_status"),
            models.Index(fields=["status", "updated_at"], name="analysis_status_updated"),
        ]
        constraints = [
            # One analysis per game: asking again returns it instead of computing twice.
            models.UniqueConstraint(fields=["game"], name="analysis_one_per_game"),
            *job_checks(
                "analysis",
                waiting=("pending", "running"),
                processed="plies_processed",
                total="plies_total",
            ),
            models.CheckConstraint(
                condition=Q(level__gte=1, level__lte=8), name="analysis_level_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis of game {self.game_id} ({self.status})"
