"""Tournaments: entries, rounds (Swiss and round robin), matches and the sets they are played
with. Pairing logic lives in the pure package ``tournaments.pairing``; these rows store its
results."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.choices import MAX_SPECTATOR_DELAY, choice_check, time_control_checks

#: The most rounds a Swiss may have (its organiser's ``rounds``, a bye's round).
MAX_ROUNDS = 50


class Tournament(models.Model):
    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination"
        DOUBLE_ELIMINATION = "double_elimination"
        SWISS = "swiss"
        ROUND_ROBIN = "round_robin"

    class Status(models.TextChoices):
        REGISTRATION = "registration"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=200)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_tournaments"
    )
    variant = models.CharField(max_length=32, default="Pente")
    rated = models.BooleanField(default=True)
    format = models.CharField(max_length=24, choices=Format.choices, default=Format.SWISS)
    time_control = models.CharField(max_length=8, default="turn")  # "live" | "turn" (no "none")
    initial_minutes = models.PositiveIntegerField(default=0)
    increment_seconds = models.PositiveIntegerField(default=0)
    days_per_move = models.PositiveIntegerField(default=0)
    games_per_match = models.PositiveSmallIntegerField(default=2)  # 1 or 2 (colours swapped)
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)  # null: at start
    start_at = models.DateTimeField(db_index=True)
    rating_above = models.IntegerField(null=True, blank=True)
    rating_below = models.IntegerField(null=True, blank=True)
    min_rated_results = models.PositiveIntegerField(default=0)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    vacation_allowed = models.BooleanField(default=True)
    #: Plies of its games hidden from spectators while they are played (0: none).
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # Swiss (null: default)
    cycles = models.PositiveSmallIntegerField(default=1)  # round robin: 1 or 2
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField(default=0)  # random seed for seeding ties (reproducible)
    #: The colour of the top seed in round 1 of a Swiss (FIDE Art. 5.2.5): set by the organiser,
    #: or "" until the start draws it by lot from ``seed``; every later round's colours follow.
    #: A Swiss round no pairing could make without relaxing the colour criteria (C3): it waits
    #: for the organiser (``tournament_pairing_decide``); null when nothing waits.
    pairing_decision_round = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Why it waits: ``colour_criteria_unmet``, or ``pairing_too_hard`` (the exact search ran
    #: past its guard: never answered with an approximate pairing); "" when nothing waits.
    pairing_problem = models.CharField(max_length=24, blank=True, default="")
    #: The round the organiser allowed to be paired with the documented relaxation.
    relax_round = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Swiss: players may join while it runs, until its last round is paired; each round paired
    #: before they joined counts as unplayed, with ``late_entry_points`` (0, 0.5 or 1).
    late_entries = models.BooleanField(default=False)
    late_entry_points = models.FloatField(default=0.0)
    #: Created from a FIDE TRF (``tournaments.trf_import``): its games were played elsewhere,
    #: its players are the report's names, and its organiser enters the results of the rounds
    #: paired here (nothing runs by itself).
    imported = models.BooleanField(default=False)
    initial_colour = models.CharField(
        max_length=5,
        choices=[("white", "white"), ("black", "black")],
        blank=True,
        default="",
    )
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments_won",
    )
    #: When the organiser asked for the start, the next round (imported events) or a pairing
    #: decision: the pairing is a job (``tournaments.start`` / ``tournaments.advance``, with the
    #: sweeper behind them), which clears it; null when no pairing is pending.
    pairing_requested_at = models.DateTimeField(null=True, blank=True)
    standings = models.JSONField(default=list, blank=True)  # published final standings
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-start_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(spectator_delay__lte=MAX_SPECTATOR_DELAY),
                name="tournament_spectator_delay_range",
            ),
            choice_check(
                "initial_colour", ("", "white", "black"), "tournament_initial_colour_valid"
            ),
            # A round waits for the organiser exactly when there is a reason it waits.
            models.CheckConstraint(
                condition=Q(pairing_decision_round__isnull=True, pairing_problem="")
                | Q(
                    pairing_decision_round__isnull=False,
                    pairing_problem__in=("colour_criteria_unmet", "pairing_too_hard"),
                ),
                name="tournament_pairing_decision_has_problem",
            ),
            models.CheckConstraint(
                condition=Q(late_entry_points__in=(0.0, 0.5, 1.0)),
                name="tournament_late_entry_points_valid",
            ),
            models.CheckConstraint(
                condition=Q(late_entries=False) | Q(format="swiss"),
                name="tournament_late_entries_swiss_only",
            ),
            models.CheckConstraint(
                condition=Q(imported=False) | Q(format="swiss", rated=False),
                name="tournament_imported_is_unrated_swiss",
            ),
            choice_check(
                "format",
                ("single_elimination", "double_elimination", "swiss", "round_robin"),
                "tournament_format_valid",
            ),
            choice_check(
                "status",
                ("registration", "running", "finished", "cancelled"),
                "tournament_status_valid",
            ),
            *time_control_checks("tournament"),
            models.CheckConstraint(
                condition=Q(games_per_match__in=(1, 2)), name="tournament_games_per_match_range"
            ),
            models.CheckConstraint(condition=Q(cycles__in=(1, 2)), name="tournament_cycles_range"),
            models.CheckConstraint(
                condition=Q(rounds__isnull=True) | Q(rounds__gte=1),
                name="tournament_rounds_positive",
            ),
            models.CheckConstraint(
                condition=Q(max_players__isnull=True) | Q(max_players__gte=2),
                name="tournament_max_players_range",
            ),
            # A finished or cancelled tournament has its finishing time.
            models.CheckConstraint(
                condition=Q(status__in=("registration", "running")) | Q(finished_at__isnull=False),
                name="tournament_over_has_finished_at",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def pairing_pending(self) -> bool:
        """A pairing the organiser asked for is still to be made (a job is on it)."""
        return self.pairing_requested_at is not None and self.status in (
            self.Status.REGISTRATION,
            self.Status.RUNNING,
        )

    @property
    def is_elimination(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)

    @property
    def takes_requested_byes(self) -> bool:
        """Players may ask for a bye ahead of time: a Swiss played here (elsewhere each round's
        pairing is fixed by the bracket or the table, or entered from a report)."""
        return self.format == self.Format.SWISS and not self.imported


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        WITHDRAWN = "withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    #: The player's name as the tournament knows it, when it is not the account's username: an
    #: imported report's name (its players hold placeholder accounts that cannot sign in).
    name = models.CharField(max_length=100, blank=True, default="")
    seed = models.PositiveIntegerField(null=True, blank=True)  # pairing number, set at start
    rating = models.FloatField(null=True, blank=True)  # snapshot at start
    rated_results = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seed", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="unique_entry_per_user"),
            choice_check("status", ("active", "withdrawn"), "entry_status_valid"),
            # A withdrawn entry has its withdrawal time; an active one none.
            models.CheckConstraint(
                condition=Q(status="active", withdrawn_at__isnull=True)
                | Q(status="withdrawn", withdrawn_at__isnull=False),
                name="entry_withdrawn_at_matches_status",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"

    @property
    def player_name(self) -> str:
        """The name the tournament shows: the report's for an imported player, else the
        username."""
        return self.name or self.user.username


class PlannedBye(models.Model):
    """A round a player will not be paired in, decided before it is paired: an imported
    report's block already filled for a round to come (absent, or a bye). When the round is
    paired the player is left out of it and gets this bye."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="planned_byes"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    round_number = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=16)

    class Meta:
        ordering = ["round_number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "round_number"], name="unique_planned_bye"
            ),
            choice_check(
                "result",
                ("full_point_bye", "half_point_bye", "zero_point_bye"),
                "planned_bye_result_valid",
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1), name="planned_bye_round_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id} round {self.round_number}: {self.result}"


class Round(models.Model):
    """A paired round of a Swiss or round robin. The unique (tournament, number) makes pairing a
    round twice impossible."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_rows")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    #: Paired with the colour criteria relaxed, as the organiser chose (never silently).
    relaxed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
            choice_check("status", ("in_progress", "finished"), "round_status_valid"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


#: The results of a match with no opponent, and their points in half points.
BYE_POINTS2 = {"bye": 2, "full_point_bye": 2, "half_point_bye": 1, "zero_point_bye": 0}
BYE_RESULTS = tuple(BYE_POINTS2)


def bye_points2(result: str, *, swiss: bool) -> int:
    """The half points of a match with no opponent: a round robin's pairing-allocated bye
    scores nothing."""
    return 0 if result == "bye" and not swiss else BYE_POINTS2[result]


class Match(models.Model):
    """A pairing. ``player1`` has the first move (white) in the first game. ``player2`` null is a
    bye. ``key`` is the bracket key ("W1-1", "L2-3", "GF1") or "R<round>-<board>"."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"

    class Result(models.TextChoices):
        PLAYER1 = "player1"
        PLAYER2 = "player2"
        DRAW = "draw"
        #: The pairing-allocated bye (TRF ``U``): a Swiss's win's points, a round robin's none.
        BYE = "bye"
        #: Rounds the player was not paired in (a late entry's earlier rounds, an imported
        #: report's byes): TRF ``F``, ``H`` and ``Z``.
        FULL_POINT_BYE = "full_point_bye"
        HALF_POINT_BYE = "half_point_bye"
        ZERO_POINT_BYE = "zero_point_bye"
        #: Neither player turned up (every game of its set ended by both seats' absence):
        #: nobody wins, both score 0; in a bracket the next opponent advances by walkover.
        DOUBLE_FORFEIT = "double_forfeit"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    key = models.CharField(max_length=16)
    bracket = models.CharField(max_length=2, blank=True, default="")  # W, L, GF or "" (rounds)
    bracket_round = models.PositiveSmallIntegerField(default=0)
    board = models.PositiveSmallIntegerField(default=1)
    player1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    player2 = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True
    )
    result = models.CharField(max_length=16, choices=Result.choices, blank=True, default="")
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    forfeit = models.BooleanField(default=False)  # decided without (all) games being played
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="unique_match_key"),
            choice_check("status", ("in_progress", "finished"), "match_status_valid"),
            choice_check(
                "result",
                (
                    "",
                    "player1",
                    "player2",
                    "draw",
                    "bye",
                    "full_point_bye",
                    "half_point_bye",
                    "zero_point_bye",
                    "double_forfeit",
                ),
                "match_result_valid",
            ),
            # A double forfeit is a forfeit with no winner.
            models.CheckConstraint(
                condition=~Q(result="double_forfeit") | Q(forfeit=True, winner__isnull=True),
                name="match_double_forfeit_has_no_winner",
            ),
            choice_check("bracket", ("", "W", "L", "GF"), "match_bracket_valid"),
            models.CheckConstraint(condition=Q(board__gte=1), name="match_board_positive"),
            models.CheckConstraint(
                condition=~Q(player1=F("player2")), name="match_distinct_players"
            ),
            # A match is finished exactly when it has a result (and then its finishing time).
            models.CheckConstraint(
                condition=Q(status="in_progress", result="")
                | (Q(status="finished", finished_at__isnull=False) & ~Q(result="")),
                name="match_finished_has_result",
            ),
            models.CheckConstraint(
                condition=~Q(result__in=BYE_RESULTS) | Q(player2__isnull=True),
                name="match_bye_has_no_player2",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.key}"


class MatchSet(models.Model):
    """A set of games played for a match (a tied elimination match gets another set)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_sets")
    game_set = models.OneToOneField(
        "games.GameSet", on_delete=models.CASCADE, related_name="tournament_match_set"
    )
    index = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="unique_match_set_index"),
            models.CheckConstraint(condition=Q(index__gte=1), name="match_set_index_positive"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} set {self.index}"
