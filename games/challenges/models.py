"""Challenges: direct and open invitations to play, and who joined them."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from accounts.models import User
from games.choices import MAX_SEATS, TimeControlKind, choice_check, time_control_checks


class Challenge(models.Model):
    """An invitation to play: direct (to one user) or open (anyone may accept)."""

    class Kind(models.TextChoices):
        DIRECT = "direct"
        OPEN = "open"

    class Restriction(models.TextChoices):
        NONE = "none"
        RATING_ABOVE = "rating_above"
        RATING_BELOW = "rating_below"
        RATING_SIMILAR = "rating_similar"
        NOT_PLAYING_ME = "not_playing_me"
        BEGINNERS = "beginners"

    class Status(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"
        EXPIRED = "expired"

    created_by = models.ForeignKey(User, on_delete=models.CASCADE, related_name="challenges_made")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OPEN)
    invitee = models.ForeignKey(
        User,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    variant = models.CharField(max_length=32, default="Pente")
    seats = models.PositiveSmallIntegerField(default=2)
    partners = models.BooleanField(default=False)
    rated = models.BooleanField(default=False)
    tournament_rule = models.BooleanField(null=True, blank=True, default=None)
    adjacent_only = models.BooleanField(default=False)
    seat_wanted = models.PositiveSmallIntegerField(null=True, blank=True)
    time_control = models.CharField(
        max_length=8, choices=TimeControlKind.choices, default=TimeControlKind.NONE
    )
    initial_minutes = models.PositiveIntegerField(default=0)
    increment_seconds = models.PositiveIntegerField(default=0)
    days_per_move = models.PositiveIntegerField(default=0)
    restriction = models.CharField(
        max_length=16, choices=Restriction.choices, default=Restriction.NONE
    )
    restriction_rating = models.IntegerField(null=True, blank=True)
    message = models.CharField(max_length=255, blank=True, default="")
    # An open invitation a computer opponent may take: the level of the computer that takes it
    # (fills the empty seats, from that level outwards, in a multi-player game) when no human
    # has by ``computer_due_at``.
    computer_level = models.PositiveSmallIntegerField(null=True, blank=True)
    computer_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    game_set = models.ForeignKey(
        "GameSet", on_delete=models.SET_NULL, null=True, blank=True, related_name="challenges"
    )
    game = models.ForeignKey(
        "Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="challenges"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            choice_check("kind", ("direct", "open"), "challenge_kind_valid"),
            choice_check(
                "restriction",
                (
                    "none",
                    "rating_above",
                    "rating_below",
                    "rating_similar",
                    "not_playing_me",
                    "beginners",
                ),
                "challenge_restriction_valid",
            ),
            choice_check(
                "status",
                ("open", "accepted", "declined", "cancelled", "expired"),
                "challenge_status_valid",
            ),
            *time_control_checks("challenge"),
            models.CheckConstraint(
                condition=Q(seats__gte=2, seats__lte=MAX_SEATS), name="challenge_seats_range"
            ),
            models.CheckConstraint(
                condition=Q(partners=False) | Q(seats=4), name="challenge_partners_four_seats"
            ),
            models.CheckConstraint(
                condition=Q(seat_wanted__isnull=True) | Q(seat_wanted__in=(1, 2), seats=2),
                name="challenge_seat_wanted_range",
            ),
            # A direct challenge names its invitee (someone else); an open one names nobody.
            models.CheckConstraint(
                condition=(Q(kind="direct") & Q(invitee__isnull=False))
                | (Q(kind="open") & Q(invitee__isnull=True)),
                name="challenge_direct_has_invitee",
            ),
            models.CheckConstraint(
                condition=~Q(invitee=F("created_by")), name="challenge_not_self"
            ),
            models.CheckConstraint(
                condition=Q(computer_level__isnull=True)
                | Q(computer_level__gte=1, computer_level__lte=8, kind="open", rated=False),
                name="challenge_computer_level_open_unrated",
            ),
            models.CheckConstraint(
                condition=Q(restriction_rating__isnull=True)
                | Q(restriction_rating__gte=0, restriction_rating__lte=5000),
                name="challenge_restriction_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk} {self.variant} by {self.created_by_id} ({self.status})"


class ChallengeEntry(models.Model):
    """A user who joined a multi-player / partners challenge."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="challenge_entries")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="unique_challenge_entry")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in challenge {self.challenge_id}"
