"""The live app's tables: ``Event`` (the event log of the embedded default, trimmed by the
``live.events_trim`` beat task; empty when events live in Redis, see ``live.bus``), ``Room``
(``main``, made by a migration, and ``tournament-<id>``, made when first asked for),
``ChatLine`` (in a room or in a game, exactly one of the two), ``Ignore``, ``Report`` and
``Presence`` (one open stream, refreshed by the web process that serves it; rows a dead process
left are swept by ``live.presence_sweep``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

#: The longest chat line.
CHAT_MAX = 300
MAIN_ROOM = "main"


class Event(models.Model):
    id = models.BigAutoField(primary_key=True)
    channel = models.CharField(max_length=64)
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["channel", "id"], name="live_event_channel")]

    def __str__(self) -> str:
        return f"{self.channel} #{self.id} {self.kind}"


class Room(models.Model):
    name = models.SlugField(max_length=40, unique=True)
    title = models.CharField(max_length=200)
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="room",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class ChatLine(models.Model):
    room = models.ForeignKey(
        Room, null=True, blank=True, on_delete=models.CASCADE, related_name="lines"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="chat_lines"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_lines"
    )
    text = models.CharField(max_length=CHAT_MAX)
    #: Said in a game by someone not seated in it.
    spectator = models.BooleanField(default=False)
    #: A spectator's line during a rated game in progress: its players do not see it.
    hidden_from_players = models.BooleanField(default=False)
    #: Taken down by the staff (kept for the record, shown to nobody).
    removed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["room", "id"], name="live_chat_room"),
            models.Index(fields=["game", "id"], name="live_chat_game"),
            models.Index(fields=["author", "id"], name="live_chat_author"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(room__isnull=False, game__isnull=True)
                | Q(room__isnull=True, game__isnull=False),
                name="chat_line_in_a_room_or_a_game",
            ),
            models.CheckConstraint(
                condition=Q(hidden_from_players=False) | Q(spectator=True),
                name="chat_line_hidden_only_if_spectator",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author_id}: {self.text[:40]}"


class Ignore(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ignoring"
    )
    ignored = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ignored_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "ignored"], name="unique_ignore"),
            models.CheckConstraint(condition=~Q(user=F("ignored")), name="ignore_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} ignores {self.ignored_id}"


class Report(models.Model):
    line = models.ForeignKey(ChatLine, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=200, blank=True, default="")
    handled = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["line", "reporter"], name="unique_report"),
        ]

    def __str__(self) -> str:
        return f"report of line {self.line_id} by {self.reporter_id}"


class Presence(models.Model):
    """One open stream: ``place`` is its channel (``room:main``, ``game:12``, ``user:7``)."""

    place = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="presences",
    )
    #: A game's stream opened by someone not seated in it (anonymous readers included).
    spectator = models.BooleanField(default=False)
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["place", "user"], name="live_presence_place")]

    def __str__(self) -> str:
        return f"{self.place} {self.user_id}"
