"""Turns a player is to be told of by e-mail (``games.notifications.services``)."""

from __future__ import annotations

from django.db import models

from accounts.models import User
from games.play.models import Game


class TurnNotice(models.Model):
    """The turn of a turn-based game that its player is still to be told of by e-mail: made
    when the turn starts (one per game at most: the next turn replaces it), deleted by the job
    that tells it, with a DELETE of this game and ply that only one job can win. ``site_url``:
    the site's address the links start with, as the request that started the turn saw it
    (empty when no request did)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="turn_notice"
    )
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="turn_notices")
    #: When the job that tells it runs (the turn's start and ``TURN_EMAIL_WAIT_SECONDS``).
    due_at = models.DateTimeField()
    site_url = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["due_at"], name="turn_notice_due")]

    def __str__(self) -> str:
        return f"Game {self.game_id} ply {self.ply}: tell {self.user_id}"
