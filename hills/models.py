"""King of the Hill: one hill per game and kind of time control (live, turn-based), its members
on steps (1 is the bottom; steps are compact, no empty step), the hill's challenges and their
sets, and the hill's history (who moved when and why)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.choices import choice_check
from games.engine.variants import get_variant

KINDS = ("live", "turn")
MATCH_STATUSES = ("open", "playing", "finished", "closed")
EVENT_KINDS = ("joined", "left", "up", "down", "crowned", "idle", "declined")


class Hill(models.Model):
    """The hill of one game (``variant``, the game's name) and kind of time control."""

    class Kind(models.TextChoices):
        LIVE = "live"
        TURN = "turn"

    variant = models.CharField(max_length=32)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    #: The member alone on the top step (with someone below), or null.
    king = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hills_ruled",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["variant", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["variant", "kind"], name="hill_unique_per_game"),
            choice_check("kind", KINDS, "hill_kind_valid"),
        ]

    def __str__(self) -> str:
        return self.slug

    @property
    def slug(self) -> str:
        """``pente-turn``: the game's slug and the kind, the hill's name in URLs."""
        return f"{get_variant(self.variant).slug}-{self.kind}"

    @property
    def room_name(self) -> str:
        """The hill's room in the live rooms (its events go to that room's channel)."""
        return f"hill-{self.slug}"


class HillMember(models.Model):
    hill = models.ForeignKey(Hill, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hill_memberships"
    )
    #: 1 is the bottom step; the steps in use are 1..n with none empty.
    step = models.PositiveIntegerField(default=1)
    joined_at = models.DateTimeField()
    #: When the member joined or last started or finished a hill set (inactivity runs from it).
    active_at = models.DateTimeField()

    class Meta:
        ordering = ["-step", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["hill", "user"], name="hillmember_unique"),
            models.CheckConstraint(condition=Q(step__gte=1), name="hillmember_step_positive"),
        ]
        indexes = [models.Index(fields=["active_at"], name="hillmember_active_at")]

    def __str__(self) -> str:
        return f"{self.user_id} on step {self.step} of {self.hill_id}"


class HillMatch(models.Model):
    """A hill challenge and, once accepted, its rated set; ``applied_at`` marks the set's result
    applied to the hill (once)."""

    class Status(models.TextChoices):
        OPEN = "open"  # the challenge waits for an answer
        PLAYING = "playing"  # its set is in progress
        FINISHED = "finished"  # its set is over and applied
        CLOSED = "closed"  # declined, cancelled or expired

    hill = models.ForeignKey(Hill, on_delete=models.CASCADE, related_name="matches")
    challenge = models.OneToOneField(
        "games.Challenge", on_delete=models.CASCADE, related_name="hill_match"
    )
    game_set = models.OneToOneField(
        "games.GameSet",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hill_match",
    )
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            choice_check("status", MATCH_STATUSES, "hillmatch_status_valid"),
            models.CheckConstraint(
                condition=~Q(challenger=F("challenged")), name="hillmatch_two_players"
            ),
            models.CheckConstraint(
                condition=Q(applied_at__isnull=True) | Q(status="finished"),
                name="hillmatch_applied_when_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"hill {self.hill_id}: {self.challenger_id} v {self.challenged_id} ({self.status})"


class HillEvent(models.Model):
    """One line of a hill's history: who moved, when and why."""

    class Kind(models.TextChoices):
        JOINED = "joined"
        LEFT = "left"
        UP = "up"  # won a hill set
        DOWN = "down"  # lost a hill set
        CROWNED = "crowned"  # became king
        IDLE = "idle"  # removed after playing no hill set for too long
        DECLINED = "declined"  # declined a hill challenge with a long timeout: a step down

    hill = models.ForeignKey(Hill, on_delete=models.CASCADE, related_name="events")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hill_events"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    #: The step before and after (null: not on the hill before, or no longer on it).
    step_before = models.PositiveIntegerField(null=True, blank=True)
    step_after = models.PositiveIntegerField(null=True, blank=True)
    game_set = models.ForeignKey(
        "games.GameSet", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [choice_check("kind", EVENT_KINDS, "hillevent_kind_valid")]
        indexes = [
            models.Index(
                fields=["user"], condition=Q(kind="crowned"), name="hillevent_crowned_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} on hill {self.hill_id}"
