"""Games, their seats and moves, and rated sets. Positions are never stored: services rebuild
them from the moves through ``games.engine``."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Upper

from accounts.models import User
from games.choices import (
    CATEGORIES,
    MAX_SEATS,
    MAX_SPECTATOR_DELAY,
    Category,
    TimeControlKind,
    choice_check,
    time_control_checks,
)
from games.engine import Termination

#: The end reason of a game aborted at its start window (not an engine ``Termination``: no
#: rule of the game ends it, and an imported record cannot say it).
ABORTED = "aborted"


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
    #: A live set is played one game at a time: when game 1 is over, game 2 starts at this
    #: time (``games.play.sets``), or earlier when both players say they are ready; null
    #: otherwise (no countdown running).
    next_game_at = models.DateTimeField(null=True, blank=True)
    #: Which players said they are ready for the next game while its countdown runs.
    player1_ready = models.BooleanField(default=False)
    player2_ready = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The sweeper's look-up of the countdowns over (``sets_start_due``).
            models.Index(
                fields=["next_game_at"],
                condition=Q(next_game_at__isnull=False),
                name="gameset_next_game_due",
            ),
        ]
        constraints = [
            choice_check(
                "status", ("in_progress", "finished", "cancelled"), "gameset_status_valid"
            ),
            # A countdown runs only in a set in progress.
            models.CheckConstraint(
                condition=Q(next_game_at__isnull=True) | Q(status="in_progress"),
                name="gameset_next_game_in_progress",
            ),
            choice_check("category", CATEGORIES, "gameset_category_valid"),
            models.CheckConstraint(
                condition=Q(result__isnull=True) | Q(result__in=("player1", "player2", "draw")),
                name="gameset_result_valid",
            ),
            models.CheckConstraint(
                condition=Q(games_count__in=(1, 2)), name="gameset_games_count_range"
            ),
            models.CheckConstraint(
                condition=~Q(player1=F("player2")), name="gameset_distinct_players"
            ),
            # A finished set has a result. (Not checked: its finished_at, which every service sets but
            # ratings.services.rating_apply_set tolerates missing.)
            models.CheckConstraint(
                condition=~Q(status="finished") | Q(result__isnull=False),
                name="gameset_finished_has_result",
            ),
            # The winner is the player the result names (nobody for a draw or no result).
            models.CheckConstraint(
                condition=Q(result="player1", winner=F("player1"))
                | Q(result="player2", winner=F("player2"))
                | (~Q(result__in=("player1", "player2")) & Q(winner__isnull=True))
                | Q(result__isnull=True, winner__isnull=True),
                name="gameset_winner_matches_result",
            ),
        ]

    def __str__(self) -> str:
        return f"Set {self.pk} {self.variant} {self.player1_id} v {self.player2_id}"


class Game(models.Model):
    """One game. The position is rebuilt from the ``Move`` rows through the engine."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        CANCELLED = "cancelled"
        # An imported record: never playable. Its outcome, if any, is in end_reason and
        # winner_seats: its moves', else its Result header's (``recorded``, or its End Reason);
        # a record with neither has end_reason "".
        ARCHIVED = "archived"

    #: How the game ended: an engine ``Termination``, or "" while it has not; a cancelled game
    #: has "" (cancelled by agreement) or ``aborted`` (a seat did not make its first action
    #: within the start window: ``games.play.finish.absence_finish``).
    EndReason = models.TextChoices(
        "EndReason",
        [
            ("NONE", ("", "none")),
            *((t.name, t.value) for t in Termination),
            ("ABORTED", ABORTED),
        ],
    )

    class OnAbsence(models.TextChoices):
        """What closing the start window does to a live game (``games.play.finish``):
        ``abort`` it (no result), the absent seats ``forfeit``, or ``none`` (no window: the
        clocks run from the start and a player loses only on time)."""

        ABORT = "abort"
        FORFEIT = "forfeit"
        NONE = "none"

    variant = models.CharField(max_length=32, db_index=True)
    # Looked up through ``unique_game_set_index`` (game_set first): no index of its own.
    game_set = models.ForeignKey(
        GameSet,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="games",
        db_index=False,
    )
    set_index = models.PositiveSmallIntegerField(default=1)
    seats = models.PositiveSmallIntegerField(default=2)
    partners = models.BooleanField(default=False)
    rated = models.BooleanField(default=False, db_index=True)
    tournament_rule = models.BooleanField(default=False)
    adjacent_only = models.BooleanField(default=False)
    imported = models.BooleanField(default=False)
    #: The game's identity (``games.records.fingerprints``: its kind, actions, players and
    #: result hashed), set once the game is over or imported (null in progress): a record of a
    #: game already here is not imported again.
    fingerprint = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001
    #: Whether the explorer's position index holds this game (``explorer.indexing``): set when a
    #: finished game or an imported record is indexed; the explorer's sweeper indexes the rest.
    positions_indexed = models.BooleanField(default=False)
    # A seat is held by one of the server's computer opponents (``User.bot_level``): set when
    # the game is created, read by the computers' ratings and sweeper without a join.
    against_computer = models.BooleanField(default=False)
    headers = models.JSONField(default=dict, blank=True)
    # Indexed by ``game_status_deadline`` (status first): a write of a game row, every move,
    # updates each index of the table, so none is kept twice.
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    end_reason = models.CharField(max_length=10, choices=EndReason.choices, default="", blank=True)
    winner_seats = models.JSONField(default=list, blank=True)
    ply = models.PositiveIntegerField(default=0)
    time_control = models.CharField(
        max_length=8, choices=TimeControlKind.choices, default=TimeControlKind.NONE
    )
    initial_minutes = models.PositiveIntegerField(default=0)
    increment_seconds = models.PositiveIntegerField(default=0)
    days_per_move = models.PositiveIntegerField(default=0)
    category = models.CharField(max_length=8, choices=Category.choices, default=Category.UNTIMED)
    clocks_ms = models.JSONField(default=list, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)  # see ``game_status_deadline``
    vacation_allowed = models.BooleanField(default=True)
    #: See ``OnAbsence``; only live games have a start window.
    on_absence = models.CharField(
        max_length=8, choices=OnAbsence.choices, default=OnAbsence.ABORT, db_default="abort"
    )
    #: The seats that have not yet made an action of their own (the engine's centre stone is
    #: not one) in a live game with a start window (``games.clocks.services``): each must act
    #: within the window of its first turn. Empty when no window applies (and in games created
    #: before the rule).
    awaiting_seats = models.JSONField(default=list, blank=True, db_default=[])
    #: The seats the start window closed on (the game aborted or forfeited); else empty.
    absent_seats = models.JSONField(default=list, blank=True, db_default=[])
    #: Plies hidden from spectators while the game is in progress (tournament games).
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    undo_requested_by = models.PositiveSmallIntegerField(null=True, blank=True)
    cancel_requested_by = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "deadline"], name="game_status_deadline"),
            # The explorer's sweeper: games over (or imported) not yet in the position index.
            models.Index(
                fields=["id"],
                condition=Q(positions_indexed=False, status__in=("finished", "archived")),
                name="game_positions_to_index",
            ),
            # An import's look-up of the games it may have already (games over only).
            models.Index(
                fields=["fingerprint"],
                condition=Q(fingerprint__isnull=False),
                name="game_fingerprint",
            ),
            # The games over whose fingerprint's job was lost (``fingerprints_fill``).
            models.Index(
                fields=["id"],
                condition=Q(fingerprint__isnull=True, status__in=("finished", "cancelled")),
                name="game_fingerprint_missing",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(spectator_delay__lte=MAX_SPECTATOR_DELAY),
                name="game_spectator_delay_range",
            ),
            choice_check(
                "status", ("in_progress", "finished", "cancelled", "archived"), "game_status_valid"
            ),
            choice_check(
                "end_reason",
                ("", *(t.value for t in Termination), ABORTED),
                "game_end_reason_valid",
            ),
            choice_check("on_absence", ("abort", "forfeit", "none"), "game_on_absence_valid"),
            # Only a cancelled game is aborted.
            models.CheckConstraint(
                condition=~Q(end_reason=ABORTED) | Q(status="cancelled"),
                name="game_aborted_is_cancelled",
            ),
            choice_check("category", CATEGORIES, "game_category_valid"),
            *time_control_checks("game"),
            models.CheckConstraint(
                condition=Q(seats__gte=2, seats__lte=MAX_SEATS), name="game_seats_range"
            ),
            models.CheckConstraint(
                condition=Q(partners=False) | Q(seats=4), name="game_partners_four_seats"
            ),
            models.CheckConstraint(condition=Q(set_index__in=(1, 2)), name="game_set_index_range"),
            # One game per place in a set: a set's next game is never created twice.
            models.UniqueConstraint(fields=["game_set", "set_index"], name="unique_game_set_index"),
            models.CheckConstraint(
                condition=Q(undo_requested_by__isnull=True)
                | Q(undo_requested_by__gte=1, undo_requested_by__lte=F("seats")),
                name="game_undo_requested_by_seat",
            ),
            models.CheckConstraint(
                condition=Q(cancel_requested_by__isnull=True)
                | Q(cancel_requested_by__gte=1, cancel_requested_by__lte=F("seats")),
                name="game_cancel_requested_by_seat",
            ),
            # A game in progress has no end reason; a finished one has one. A game over has its
            # finishing time, except an archived record (which may have an end reason or not, and
            # has a finishing time only when its record is dated).
            models.CheckConstraint(
                condition=~Q(status="in_progress") | Q(end_reason=""),
                name="game_in_progress_no_end_reason",
            ),
            models.CheckConstraint(
                condition=~Q(status="finished") | ~Q(end_reason=""),
                name="game_finished_has_end_reason",
            ),
            models.CheckConstraint(
                condition=Q(status__in=("in_progress", "archived")) | Q(finished_at__isnull=False),
                name="game_over_has_finished_at",
            ),
            # Every imported record is archived, and only imported records are.
            models.CheckConstraint(
                condition=Q(imported=True, status="archived")
                | (Q(imported=False) & ~Q(status="archived")),
                name="game_archived_iff_imported",
            ),
            # Imported records are unrated and not part of a set.
            models.CheckConstraint(
                condition=Q(imported=False) | Q(rated=False, game_set__isnull=True),
                name="game_imported_unrated",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} {self.variant} ({self.status})"

    def keep_seats(self, seats: list[Seat]) -> None:
        """Keep ``seats`` (this game's, in order) read with the row: ``loaded_seats`` then
        gives them without a query."""
        self._kept_seats = list(seats)

    def loaded_seats(self) -> list[Seat] | None:
        """The seats read together with this row (kept by ``keep_seats``, or prefetched as
        ``seat_rows``), or None."""
        kept = getattr(self, "_kept_seats", None)
        if kept is not None:
            return kept
        return getattr(self, "_prefetched_objects_cache", {}).get("seat_rows")

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
        indexes = [
            # An imported record's player by name, any case (``name__iexact``: UPPER(name)), for
            # the game database's player filters.
            models.Index(
                Upper("name"), name="seat_recorded_name_upper", condition=Q(user__isnull=True)
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="unique_game_seat"),
            # A player takes one seat of a game (imported records' seats have no user).
            models.UniqueConstraint(fields=["game", "user"], name="unique_game_user"),
            models.CheckConstraint(
                condition=Q(seat__gte=1, seat__lte=MAX_SEATS), name="seat_number_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: {self.name}"


#: Room for a Go marking: every point of a 19x19 board named ("T19 " is four characters).
MARK_MAX = 1500


class Move(models.Model):
    """One action of a game: a stone, a D/Swap2 decision, or in Go a pass, a marking of dead
    stones (``choice``: their names, space-separated) or the answer to it (a decision:
    ``accept``/``reject``). ``ply`` is 1-based."""

    class Kind(models.TextChoices):
        STONE = "stone"
        DECISION = "decision"
        PASS = "pass"
        MARK = "mark"

    # Indexed by ``unique_game_ply`` (game first), so without an index of its own.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.STONE)
    point = models.PositiveSmallIntegerField(null=True, blank=True)
    choice = models.CharField(max_length=MARK_MAX, blank=True, default="")
    message = models.CharField(max_length=255, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="unique_game_ply"),
            models.CheckConstraint(condition=Q(ply__gte=1), name="move_ply_positive"),
            models.CheckConstraint(
                condition=Q(seat__gte=1, seat__lte=MAX_SEATS), name="move_seat_range"
            ),
            # A stone has a point and no choice; a decision has a choice and no point; a pass
            # has neither; a marking has no point (its choice may be empty: nothing dead).
            models.CheckConstraint(
                condition=Q(kind="stone", point__isnull=False, choice="")
                | (Q(kind="decision", point__isnull=True) & ~Q(choice=""))
                | Q(kind="pass", point__isnull=True, choice="")
                | Q(kind="mark", point__isnull=True),
                name="move_stone_or_decision",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} ply {self.ply}"
