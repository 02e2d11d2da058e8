"""Player accounts and their API tokens."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
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
    #: The level (1 to 8) of one of the server's own computer opponents, which move by
    #: themselves (``games.bots``); None for everyone else (a player may also mark an account of
    #: theirs as a computer, which then plays through the API like anyone).
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True)
    # Vacation for turn-based games: hours left this calendar year and the year they belong to.
    vacation_hours_left = models.PositiveIntegerField(default=240)
    vacation_year = models.PositiveIntegerField(default=0)
    #: The e-mail address was confirmed by a link sent to it: only then do links to choose a
    #: new password go there (``accounts.services``); a new address starts unconfirmed.
    email_verified = models.BooleanField(default=False, db_default=False)
    #: The e-mails the player wants (``games.notifications.services``): when it is their turn
    #: in a turn-based game, when someone challenges them directly, when a turn-based game of
    #: theirs ends. Only a confirmed address gets any; computers and deleted accounts never.
    email_on_turn = models.BooleanField(
        default=True,
        db_default=True,
        help_text="E-mail me when it is my turn in a turn-based game.",
    )
    email_on_challenge = models.BooleanField(
        default=True, db_default=True, help_text="E-mail me when someone challenges me."
    )
    email_on_game_over = models.BooleanField(
        default=False, db_default=False, help_text="E-mail me when a turn-based game of mine ends."
    )
    #: When the player deleted the account (``accounts.services.account_delete``): it is
    #: then inactive, its name is ``deleted-<id>`` and nothing personal is left on it.
    deleted_at = models.DateTimeField(null=True, blank=True)
    #: A signed-out visitor's account for playing the computer (``accounts.guests``):
    #: named ``guest-<n>``, no password, unrated games against the computer only, deleted with
    #: its games once idle.
    is_guest = models.BooleanField(default=False, db_default=False)
    #: Live games aborted because this player did not make a first move within the start
    #: window (``games.play.finish.absence_finish``), shown on the player's page.
    aborts = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        db_table = "games_user"  # the table it had as games.User, kept
        indexes = [
            # Case-insensitive name lookups (``username__iexact``, i.e. UPPER(username) = ...).
            models.Index(Upper("username"), name="user_username_upper"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(time_zone__gt=""), name="user_time_zone_not_empty"),
            models.CheckConstraint(
                condition=Q(bot_level__isnull=True)
                | Q(bot_level__gte=1, bot_level__lte=8, is_computer=True),
                name="user_bot_level_is_a_computer_level",
            ),
            models.CheckConstraint(
                condition=Q(deleted_at__isnull=True) | Q(is_active=False),
                name="user_deleted_is_inactive",
            ),
            models.CheckConstraint(
                condition=Q(is_guest=False) | Q(is_computer=False, is_staff=False),
                name="user_guest_is_a_person_without_rights",
            ),
        ]


def deactivated_by_save(user: User, *, created: bool, update_fields) -> bool:
    """Whether a ``post_save`` of ``user`` left an existing account inactive with ``is_active``
    among the fields it saved (a ban, or a deletion): what the apps' receivers act on."""
    if created or user.is_active:
        return False
    return update_fields is None or "is_active" in update_fields


class ApiToken(models.Model):
    """A personal API token. Only the sha256 of the key is stored; the key is shown once."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=8)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_apitoken"  # the table it had as games.ApiToken, kept
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}… ({self.name})"
