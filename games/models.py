"""Models of the games app. Positions are never stored: services rebuild them from the moves
through ``games.engine``."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Upper

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def default_weekend() -> list[int]:
    """Saturday and Sunday (``datetime.weekday()`` numbers)."""
    return [5, 6]


class User(AbstractUser):
    """A player account. ``time_zone`` and ``weekend_days`` only matter for turn-based deadlines."""

    time_zone = models.CharField(max_length=64, default="UTC")
    weekend_days = models.JSONField(default=default_weekend)
    is_computer = models.BooleanField(default=False)
    # Vacation for turn-based games: hours left this calendar year and the year they belong to.
    vacation_hours_left = models.PositiveIntegerField(default=240)
    vacation_year = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "games_user"
        indexes = [
            # Case-insensitive name lookups (``username__iexact``, i.e. UPPER(username) = ...).
            models.Index(Upper("username"), name="user_username_upper"),
        ]


class ApiToken(models.Model):
    """A personal API token. Only the sha256 of the key is stored; the key is shown once."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=8)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}… ({self.name})"


class TimeControl(models.TextChoices):
    NONE = "none"
    LIVE = "live"
    TURN = "turn"


class Category(models.TextChoices):
    SPEED = "speed"
    NORMAL = "normal"
    TURN = "turn"
    UNTIMED = "untimed"


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
        max_length=8, choices=TimeControl.choices, default=TimeControl.NONE
    )
    initial_minutes = models.PositiveIntegerField(default=0)
    increment_seconds = models.PositiveIntegerField(default=0)
    days_per_move = models.PositiveIntegerField(default=0)
    restriction = models.CharField(
        max_length=16, choices=Restriction.choices, default=Restriction.NONE
    )
    restriction_rating = models.IntegerField(null=True, blank=True)
    message = models.CharField(max_length=255, blank=True, default="")
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


class GameSet(models.Model):
    """A rated set between two players: two games with colours swapped (one for Swap2)."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class Result(models.TextChoices):
        PLAYER1 = "player1"
        PLAYER2 = "player2"
        DRAW = "draw"

    player1 = models.ForeignKey(User, on_delete=models.CASCADE, related_name="sets_as_player1")
    player2 = models.ForeignKey(User, on_delete=models.CASCADE, related_name="sets_as_player2")
    variant = models.CharField(max_length=32)
    rated = models.BooleanField(default=False)
    category = models.CharField(max_length=8, choices=Category.choices, default=Category.UNTIMED)
    games_count = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True
    )
    # null until the set has a result (the contract says null, not "").
    result = models.CharField(max_length=8, choices=Result.choices, null=True, blank=True)  # noqa: DJ001
    winner = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="sets_won"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Set {self.pk} {self.variant} {self.player1_id} v {self.player2_id}"


class Game(models.Model):
    """One game. The position is rebuilt from the ``Move`` rows through the engine."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class EndReason(models.TextChoices):
        NONE = "", "none"
        FIVE = "five"
        CAPTURES = "captures"
        DRAW = "draw"
        RESIGN = "resign"
        TIMEOUT = "timeout"
        FORFEIT = "forfeit"

    variant = models.CharField(max_length=32, db_index=True)
    game_set = models.ForeignKey(
        GameSet, on_delete=models.CASCADE, null=True, blank=True, related_name="games"
    )
    set_index = models.PositiveSmallIntegerField(default=1)
    seats = models.PositiveSmallIntegerField(default=2)
    partners = models.BooleanField(default=False)
    rated = models.BooleanField(default=False, db_index=True)
    tournament_rule = models.BooleanField(default=False)
    adjacent_only = models.BooleanField(default=False)
    imported = models.BooleanField(default=False)
    headers = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True
    )
    end_reason = models.CharField(max_length=10, choices=EndReason.choices, default="", blank=True)
    winner_seats = models.JSONField(default=list, blank=True)
    ply = models.PositiveIntegerField(default=0)
    time_control = models.CharField(
        max_length=8, choices=TimeControl.choices, default=TimeControl.NONE
    )
    initial_minutes = models.PositiveIntegerField(default=0)
    increment_seconds = models.PositiveIntegerField(default=0)
    days_per_move = models.PositiveIntegerField(default=0)
    category = models.CharField(max_length=8, choices=Category.choices, default=Category.UNTIMED)
    clocks_ms = models.JSONField(default=list, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    vacation_allowed = models.BooleanField(default=True)
    undo_requested_by = models.PositiveSmallIntegerField(null=True, blank=True)
    cancel_requested_by = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "deadline"], name="game_status_deadline")]

    def __str__(self) -> str:
        return f"Game {self.pk} {self.variant} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.IN_PROGRESS


class Seat(models.Model):
    """Who sits at seat N of a game (user is null for imported records)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_rows")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    name = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        ordering = ["game_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="unique_game_seat")]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: {self.name}"


class Move(models.Model):
    """One action of a game: a stone or a D/Swap2 decision. ``ply`` is 1-based."""

    class Kind(models.TextChoices):
        STONE = "stone"
        DECISION = "decision"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.STONE)
    point = models.PositiveSmallIntegerField(null=True, blank=True)
    choice = models.CharField(max_length=16, blank=True, default="")
    message = models.CharField(max_length=255, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "ply"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="unique_game_ply")]

    def __str__(self) -> str:
        return f"Game {self.game_id} ply {self.ply}"
