"""Business logic of tournaments: create, join, withdraw, start, pair rounds, record match
results and finish.

How Celery drives it, why every step is idempotent, and the refusals: docs/tournaments.md, "How
a tournament advances".
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from accounts.guests import refuse_guest
from accounts.models import User, deactivated_by_save
from games.choices import MAX_SPECTATOR_DELAY
from games.clocks.timecontrol import ClockError, Kind, TimeControl
from games.engine import Outcome, Termination, UnknownGame, get_variant
from games.play.finish import game_finish
from games.play.models import Game, GameSet, Seat
from pente_site.errors import Conflict, Forbidden, Invalid, NotFound
from pente_site.jobs import enqueue
from ratings.elo import ESTABLISHED_RESULTS
from ratings.selectors import rating_or_start, ratings_or_start
from tournaments.models import (
    MAX_ROUNDS,
    Entry,
    Match,
    MatchSet,
    PlannedBye,
    Round,
    Tournament,
)
from tournaments.pairing.berger import round_robin_schedule
from tournaments.pairing.dutch import default_rounds, max_rounds
from tournaments.progress import (
    decide_match,
    match_set_finished,
    tournament_advance,
    unplayed_round_create,
)
from tournaments.signals import tournament_cancelled

log = logging.getLogger(__name__)

#: The Celery task that starts a tournament at its start time, or when the organiser asks
#: (``tournaments.tasks``).
START_TASK = "tournaments.start"
#: The Celery task that pairs the next round, creates bracket matches or finishes.
ADVANCE_TASK = "tournaments.advance"

#: Days per move of a turn-based tournament that does not say.
DEFAULT_DAYS_PER_MOVE = 3
DEFAULT_TIME_CONTROL = TimeControl.turn(DEFAULT_DAYS_PER_MOVE)
_UNTIMED_REFUSAL = 'A tournament\'s time control is live or turn-based ("live" or "turn").'


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


# --- create / join / withdraw ---------------------------------------------------------------


def tournament_create(
    *,
    organiser: User,
    name: str,
    start_at: datetime,
    format: str = Tournament.Format.SWISS,
    variant: str = "Pente",
    rated: bool = True,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    games_per_match: int | None = None,
    registration_opens_at: datetime | None = None,
    registration_closes_at: datetime | None = None,
    rating_above: int | None = None,
    rating_below: int | None = None,
    min_rated_results: int = 0,
    max_players: int | None = None,
    vacation_allowed: bool = True,
    spectator_delay: int = 0,
    rounds: int | None = None,
    cycles: int = 1,
    initial_colour: str = "",
    late_entries: bool = False,
    late_entry_points: float = 0.0,
    now: datetime | None = None,
) -> Tournament:
    """A new tournament, open for registration; its start is scheduled (``START_TASK``).
    ``initial_colour``: "white" or "black" for the top seed in round 1 of a Swiss, "" to draw
    it by lot at the start. ``late_entries``: a Swiss takes players until its last round is
    paired, each round they missed counting as unplayed with ``late_entry_points``. Not by a
    guest (403 ``guest_not_allowed``)."""
    refuse_guest(organiser, what="organise tournaments")
    now = _now(now)
    try:
        v = get_variant(variant)
    except UnknownGame:
        raise Invalid("unknown_game", f"There is no game called {variant!r}.") from None
    if format not in Tournament.Format.values:
        raise Invalid("bad_options", f"Unknown format {format!r}.")
    if not time_control.is_timed:
        raise Invalid("bad_time_control", _UNTIMED_REFUSAL)
    if games_per_match is None:
        games_per_match = v.set_size
    if games_per_match not in (1, 2):
        raise Invalid("bad_options", "A match is one game or a set of two.")
    if games_per_match == 2 and v.set_size == 1:
        raise Invalid("bad_options", f"{v.name} matches are single games.")
    if cycles not in (1, 2):
        raise Invalid("bad_options", "A round robin has one or two cycles.")
    if not 0 <= spectator_delay <= MAX_SPECTATOR_DELAY:
        raise Invalid("bad_options", f"spectator_delay is 0 to {MAX_SPECTATOR_DELAY} plies.")
    if initial_colour not in ("", "white", "black"):
        raise Invalid("bad_options", "initial_colour is white, black, or empty (drawn by lot).")
    if late_entries and format != Tournament.Format.SWISS:
        raise Invalid("bad_options", "Late entries are for Swiss tournaments only.")
    if late_entry_points not in (0, 0.5, 1):
        raise Invalid("bad_options", "late_entry_points is 0, 0.5 or 1 (per round missed).")
    if rounds is not None and rounds < 1:
        raise Invalid("bad_options", "rounds must be at least 1.")
    if max_players is not None and max_players < 2:
        raise Invalid("bad_options", "max_players must be at least 2.")
    if start_at <= now:
        raise Invalid("bad_options", "start_at must be in the future.")
    if rating_above is not None and rating_below is not None and rating_above >= rating_below:
        raise Invalid(
            "bad_options",
            f"No rating is above {rating_above} and below {rating_below}: "
            "rating_above must be less than rating_below.",
        )
    if registration_closes_at and registration_closes_at > start_at:
        raise Invalid("bad_options", "Registration must close by the start time.")
    if registration_opens_at and registration_opens_at >= (registration_closes_at or start_at):
        raise Invalid("bad_options", "Registration must open before it closes.")
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name,
            organiser=organiser,
            variant=v.name,
            rated=rated,
            format=format,
            **time_control.fields(),
            games_per_match=games_per_match,
            registration_opens_at=registration_opens_at,
            registration_closes_at=registration_closes_at,
            start_at=start_at,
            rating_above=rating_above,
            rating_below=rating_below,
            min_rated_results=min_rated_results,
            max_players=max_players,
            vacation_allowed=vacation_allowed,
            spectator_delay=spectator_delay,
            rounds=rounds,
            cycles=cycles,
            initial_colour=initial_colour,
            late_entries=late_entries,
            late_entry_points=float(late_entry_points),
            seed=random.SystemRandom().randrange(1, 2**62),
        )
        tournament_id, start_at = t.pk, t.start_at
        transaction.on_commit(lambda: enqueue(START_TASK, args=(tournament_id,), eta=start_at))
    return t


def tournament_time_control(
    *,
    time_control: str = Kind.TURN,
    initial_minutes: int | None = None,
    increment_seconds: int | None = None,
    days_per_move: int | None = None,
) -> TimeControl:
    """The time control a tournament request names. A tournament is live or turn-based (its
    games must not stall forever); turn-based defaults to 3 days per move; the numbers a time
    control does not use are refused, as everywhere."""
    if time_control not in (Kind.LIVE, Kind.TURN):
        raise Invalid("bad_time_control", f"{_UNTIMED_REFUSAL[:-1]}, not {time_control!r}.")
    if time_control == Kind.TURN and days_per_move is None:
        days_per_move = DEFAULT_DAYS_PER_MOVE
    try:
        return TimeControl.from_fields(
            time_control=time_control,
            initial_minutes=initial_minutes or 0,
            increment_seconds=increment_seconds or 0,
            days_per_move=days_per_move or 0,
        )
    except ClockError as exc:
        detail = exc.detail.replace("A live game", "A live tournament").replace(
            "A turn-based game", "A turn-based tournament"
        )
        raise Invalid(exc.code, detail) from None


def _lock(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise NotFound("not_found", "No such tournament.")
    return t


def registration_open(t: Tournament, now: datetime) -> bool:
    if t.status == Tournament.Status.RUNNING:
        return late_entry_open(t)
    if t.status != Tournament.Status.REGISTRATION:
        return False
    if t.registration_opens_at and now < t.registration_opens_at:
        return False
    return now < (t.registration_closes_at or t.start_at)


def late_entry_open(t: Tournament) -> bool:
    """A running Swiss with late entries takes players until its last round is paired."""
    return (
        t.status == Tournament.Status.RUNNING
        and t.late_entries
        and not t.imported
        and t.current_round < (t.rounds or 0)
    )


def tournament_join(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """Register; or, in a running Swiss that takes late entries, enter it: the player gets the
    next pairing number and an unplayed round (with the tournament's ``late_entry_points``) in
    every round paired so far, and is paired from the next round on. Not a guest (403
    ``guest_not_allowed``)."""
    refuse_guest(user, what="join tournaments")
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        if not registration_open(t, now):
            raise Conflict("registration_closed", "Registration is not open.")
        entry = Entry.objects.filter(tournament=t, user=user).first()
        if entry and entry.status == Entry.Status.ACTIVE:
            raise Conflict("already_joined", "You are already registered.")
        if entry and t.status == Tournament.Status.RUNNING:
            raise Conflict(
                "withdrawn",
                "You withdrew from this tournament while it was running: you cannot enter it "
                "again.",
            )
        active = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
        if t.max_players is not None and active >= t.max_players:
            raise Conflict("tournament_full", "The tournament is full.")
        _check_eligible(t, user)
        if entry:
            entry.status = Entry.Status.ACTIVE
            entry.withdrawn_at = None
            entry.joined_at = now
            entry.save(update_fields=["status", "withdrawn_at", "joined_at"])
        else:
            entry = Entry.objects.create(tournament=t, user=user)
        if t.status == Tournament.Status.RUNNING:
            _enter_late(t, entry, now)
    return entry


def _enter_late(t: Tournament, entry: Entry, now: datetime) -> None:
    last = Entry.objects.filter(tournament=t).aggregate(Max("seed"))["seed__max"] or 0
    entry.seed = last + 1
    entry.rating, entry.rated_results = rating_or_start(
        user=entry.user, variant=t.variant, category=TimeControl.of(t).category
    )
    entry.save(update_fields=["seed", "rating", "rated_results"])
    result = LATE_ENTRY_BYES[t.late_entry_points]
    for round_row in Round.objects.filter(tournament=t).annotate(boards=Max("matches__board")):
        unplayed_round_create(
            round_row,
            board=(round_row.boards or 0) + 1,
            user_id=entry.user_id,
            result=result,
            now=now,
        )


#: The unplayed round a late entry gets for each round paired before it, by its points.
LATE_ENTRY_BYES = {
    0.0: Match.Result.ZERO_POINT_BYE,
    0.5: Match.Result.HALF_POINT_BYE,
    1.0: Match.Result.FULL_POINT_BYE,
}


def _check_eligible(t: Tournament, user: User) -> None:
    if t.rating_above is None and t.rating_below is None and not t.min_rated_results:
        return
    rating, results = rating_or_start(
        user=user, variant=t.variant, category=TimeControl.of(t).category
    )
    if t.rating_above is not None and rating <= t.rating_above:
        raise Forbidden("not_eligible", f"Open to ratings above {t.rating_above}.")
    if t.rating_below is not None and rating >= t.rating_below:
        raise Forbidden("not_eligible", f"Open to ratings below {t.rating_below}.")
    if results < t.min_rated_results:
        raise Forbidden(
            "not_eligible",
            f"Open to players with at least {t.min_rated_results} rated results.",
        )


def tournament_pairing_decide(
    *, tournament_id: int, user: User, relax: bool, now: datetime | None = None
) -> Tournament:
    """The organiser's choice for a Swiss round that no pairing makes without relaxing the
    colour criteria (``pairing_decision_round``): ``relax`` pairs it with the documented
    relaxation (recorded on the round: ``Round.relaxed``); otherwise the organiser has fixed
    the entries (withdrawn a player, say) and the round is paired again from them (and waits
    again if it still cannot be paired without the relaxation)."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        _check_organiser(t, user, "Only the organiser decides how a round is paired.")
        number = t.pairing_decision_round
        if number is None:
            raise Conflict("no_pairing_decision", "No round is waiting for a pairing decision.")
        t.pairing_decision_round, t.pairing_problem = None, ""
        if relax:
            t.relax_round = number
        t.save(update_fields=["pairing_decision_round", "pairing_problem", "relax_round"])
        _pairing_job(t, ADVANCE_TASK, now)
    return t


def _pairing_job(t: Tournament, task: str, now: datetime) -> None:
    """Mark the pairing the organiser asked for as pending (``pairing_requested_at``) and run
    it as a job once the transaction commits: pairing a large round takes longer than a web
    request may (a thousand players: about a second). The job clears the mark; the sweeper
    runs any pairing still pending (a job lost with its worker)."""
    t.pairing_requested_at = now
    t.save(update_fields=["pairing_requested_at"])
    tournament_id = t.pk
    transaction.on_commit(lambda: enqueue(task, args=(tournament_id,)))


def _check_organiser(t: Tournament, user: User, detail: str) -> None:
    if not (user.is_staff or user.pk == t.organiser_id):
        raise Forbidden("not_organiser", detail)


def organiser_check(*, tournament_id: int, user: User) -> None:
    """404 for no such tournament, 403 ``not_organiser`` for a caller who may not act as its
    organiser: what a view checks before telling the body's rules."""
    t = Tournament.objects.filter(pk=tournament_id).only("organiser_id").first()
    if t is None:
        raise NotFound("not_found", "No such tournament.")
    _check_organiser(t, user, "Only the organiser may do this.")


def entrant_check(*, tournament_id: int, user: User) -> None:
    """404 for no such tournament, 409 ``not_joined`` (as ``bye_request``) for a caller not
    registered in it: what a view checks before telling the body's rules."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise NotFound("not_found", "No such tournament.")
    if not Entry.objects.filter(
        tournament_id=tournament_id, user=user, status=Entry.Status.ACTIVE
    ).exists():
        raise Conflict("not_joined", "You are not registered.")


def _check_not_over(t: Tournament) -> None:
    if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict("tournament_over", "The tournament is over.")


def _check_imported(t: Tournament) -> None:
    if not t.imported:
        raise Conflict(
            "not_imported",
            "This tournament is played here: its rounds are paired and its results recorded "
            "by themselves. Only an imported tournament's are entered by hand.",
        )
    if t.status != Tournament.Status.RUNNING:
        raise Conflict("tournament_over", "The tournament is over.")


def match_result_enter(
    *,
    tournament_id: int,
    match_id: int,
    user: User,
    result: str,
    forfeit: bool = False,
    now: datetime | None = None,
) -> Match:
    """The organiser's result of a match of an imported tournament (played elsewhere):
    ``player1`` (the player with white won), ``player2`` or ``draw``; ``forfeit`` for a game
    not played (it then has a winner)."""
    now = _now(now)
    if result not in (Match.Result.PLAYER1, Match.Result.PLAYER2, Match.Result.DRAW):
        raise Invalid("bad_result", "A match's result is player1, player2 or draw.")
    if forfeit and result == Match.Result.DRAW:
        raise Invalid("bad_result", "A forfeit has a winner: player1 or player2.")
    with transaction.atomic():
        t = _lock(tournament_id)
        _check_organiser(t, user, "Only the organiser enters results.")
        _check_imported(t)
        match = Match.objects.select_for_update().filter(pk=match_id, tournament=t).first()
        if match is None:
            raise NotFound("not_found", "No such match in this tournament.")
        if match.status != Match.Status.IN_PROGRESS:
            raise Conflict("match_over", "This match has its result already.")
        decide_match(match, result, now, forfeit=forfeit)
    return match


def tournament_next_round(
    *, tournament_id: int, user: User, now: datetime | None = None
) -> Tournament:
    """Ask for the next round of an imported tournament once every result of the current one is
    in: it is paired (or the tournament finished after its last round) by a job
    (``_pairing_job``). A round that no pairing makes without relaxing the colour criteria
    waits for the organiser's decision, as anywhere."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        _check_organiser(t, user, "Only the organiser pairs the rounds.")
        _check_imported(t)
        waiting = Match.objects.filter(
            tournament=t, round__number=t.current_round, status=Match.Status.IN_PROGRESS
        ).count()
        if waiting:
            raise Conflict(
                "round_in_progress",
                f"Round {t.current_round} has {waiting} result(s) still to enter "
                "(POST tournaments/{id}/matches/{match_id}/result).",
            )
        _pairing_job(t, ADVANCE_TASK, now)
    return t


def tournament_withdraw(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """Leave the tournament. Once it runs, the player's games in progress are forfeited and
    they are not paired again."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        entry = Entry.objects.filter(tournament=t, user=user, status=Entry.Status.ACTIVE).first()
        if entry is None:
            raise Conflict("not_joined", "You are not registered.")
        _check_not_over(t)
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = now
        entry.save(update_fields=["status", "withdrawn_at"])
        # the byes they asked for in rounds to come go with them
        PlannedBye.objects.filter(
            tournament=t, user=user, round_number__gt=t.current_round
        ).delete()
        if t.status == Tournament.Status.RUNNING:
            _forfeit_games_of(t, user, now)
    return entry


WITHDRAW_DEACTIVATED_TASK = "tournaments.withdraw_deactivated"


def _deactivated_entries() -> QuerySet[Entry]:
    """Entries of deactivated (banned or deleted) accounts still playing in a tournament of the
    server (an imported event's players are accounts that never sign in: left alone)."""
    return Entry.objects.filter(
        status=Entry.Status.ACTIVE,
        user__is_active=False,
        tournament__imported=False,
        tournament__status__in=(Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
    )


def _orphaned() -> QuerySet[Tournament]:
    """Tournaments not started yet whose organiser's account is deactivated: nobody is left
    to start or change them."""
    return Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION, organiser__is_active=False, imported=False
    )


def tournaments_of_deactivated_withdraw(
    *, user_id: int | None = None, now: datetime | None = None
) -> int:
    """Withdraw deactivated accounts (``user_id``'s, or everyone's) from the tournaments they
    are still in, as if they had withdrawn themselves (their games in progress forfeited), and
    cancel the tournaments they organised that have not started. Returns how many entries were
    withdrawn and tournaments cancelled. Safe to run again, and concurrently."""
    entries = _deactivated_entries()
    orphaned = _orphaned()
    if user_id is not None:
        entries = entries.filter(user_id=user_id)
        orphaned = orphaned.filter(organiser_id=user_id)
    done = 0
    for tournament_id, user in [(e.tournament_id, e.user) for e in entries.select_related("user")]:
        try:
            tournament_withdraw(tournament_id=tournament_id, user=user, now=now)
        except Conflict:  # withdrawn meanwhile, or the tournament ended
            continue
        done += 1
    for t in orphaned.select_related("organiser"):
        try:
            tournament_cancel(tournament_id=t.pk, user=t.organiser, now=now)
        except Conflict:  # started or cancelled meanwhile
            continue
        done += 1
    return done


def tournament_names_refresh(*, user: User) -> int:
    """Write ``user``'s name as it is now (a deleted account's ``deleted-<id>``) into the
    standings kept by the finished tournaments they played; returns how many were rewritten."""
    played = Tournament.objects.filter(
        status=Tournament.Status.FINISHED, entries__user=user, imported=False
    ).distinct()
    changed = 0
    for t in played:
        rows = [
            {**row, "username": user.username} if row.get("user_id") == user.pk else row
            for row in t.standings or []
        ]
        if rows != t.standings:
            Tournament.objects.filter(pk=t.pk).update(standings=rows)
            changed += 1
    return changed


def deactivated_account_tidy(*, user_id: int) -> int:
    """The job of ``on_user_saved``: ``tournaments_of_deactivated_withdraw`` for one account,
    then, if it was deleted, ``tournament_names_refresh``."""
    done = tournaments_of_deactivated_withdraw(user_id=user_id)
    deleted = User.objects.filter(pk=user_id, deleted_at__isnull=False).first()
    if deleted is not None:
        done += tournament_names_refresh(user=deleted)
    return done


def on_user_saved(sender, instance: User, created: bool, update_fields=None, **kwargs) -> None:
    """``post_save`` receiver of ``User``: an account deactivated leaves its tournaments (and
    its tournaments not started are cancelled; a deleted one's new name goes into the finished
    ones' standings), by a job once the change is committed (forfeiting games is not the admin
    page's work; the sweeper does it too)."""
    if not deactivated_by_save(instance, created=created, update_fields=update_fields):
        return
    user = instance
    if (
        _deactivated_entries().filter(user=user).exists()
        or _orphaned().filter(organiser=user).exists()
        or (user.deleted_at is not None and Entry.objects.filter(user=user).exists())
    ):
        job = partial(enqueue, WITHDRAW_DEACTIVATED_TASK, args=(user.pk,))
        transaction.on_commit(job, robust=True)


def tournament_cancel(*, tournament_id: int, user: User, now: datetime | None = None) -> Tournament:
    """The organiser's (or staff's) cancellation, before the start or while it runs: no round is
    paired after it and it has no winner. Games in progress are not touched: they are played to
    their end as the games they are (a rated one counts for the ratings) and their matches get
    their results; what was played stays readable. 409 ``tournament_over`` once it is over."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        _check_organiser(t, user, "Only the organiser can cancel it.")
        _check_not_over(t)
        t.status = Tournament.Status.CANCELLED
        t.finished_at = now
        t.pairing_decision_round, t.pairing_problem = None, ""  # no round waits any more
        t.save(update_fields=["status", "finished_at", "pairing_decision_round", "pairing_problem"])
        tournament_cancelled.send(sender=Tournament, tournament=t)
    return t


#: What a bye asked for ahead of time scores (``bye_request``).
REQUESTED_BYE = "half_point_bye"


def _bye_round_open(t: Tournament, round_number: int) -> None:
    """Refuse a bye for a round that is paired (or a tournament where none can be asked)."""
    _check_not_over(t)
    if not t.takes_requested_byes:
        raise Conflict(
            "byes_not_taken",
            "Byes are asked for ahead of time in a Swiss played here; in other formats every "
            "round's pairing is fixed by the bracket or the table.",
        )
    if round_number <= t.current_round:
        raise Conflict(
            "round_paired",
            f"Round {round_number} is paired already; ask for a bye in a round to come "
            f"(after round {t.current_round}).",
        )


def bye_request(*, tournament_id: int, user: User, round_number: int) -> PlannedBye:
    """A player's bye in a round of a Swiss not paired yet: they are left out of its pairing
    and score half a point (``REQUESTED_BYE``), at most ``TOURNAMENT_MAX_REQUESTED_BYES``
    each. Taken back with ``bye_cancel`` until the round is paired."""
    with transaction.atomic():
        t = _lock(tournament_id)  # the pairing of a round locks it too: no race with it
        _bye_round_open(t, round_number)
        if round_number > (t.rounds or MAX_ROUNDS):
            raise Invalid(
                "bad_round", f"The tournament has {t.rounds or MAX_ROUNDS} rounds at most."
            )
        if not Entry.objects.filter(tournament=t, user=user, status=Entry.Status.ACTIVE).exists():
            raise Conflict("not_joined", "You are not registered.")
        mine = PlannedBye.objects.filter(tournament=t, user=user)
        if mine.filter(round_number=round_number).exists():
            raise Conflict("bye_requested", f"You have a bye in round {round_number} already.")
        limit = settings.TOURNAMENT_MAX_REQUESTED_BYES
        if mine.count() >= limit:
            raise Conflict(
                "too_many_byes", f"A player may ask for {limit} byes at most in a tournament."
            )
        try:
            with transaction.atomic():
                return PlannedBye.objects.create(
                    tournament=t, user=user, round_number=round_number, result=REQUESTED_BYE
                )
        except IntegrityError:  # pragma: no cover - the row lock makes this unreachable
            raise Conflict("bye_requested", "You have a bye in that round already.") from None


def bye_cancel(*, tournament_id: int, user: User, round_number: int) -> None:
    """Take back a bye asked for a round that is not paired yet."""
    with transaction.atomic():
        t = _lock(tournament_id)
        bye = PlannedBye.objects.filter(tournament=t, user=user, round_number=round_number)
        if not bye.exists():
            raise NotFound("not_found", f"You have no bye in round {round_number}.")
        _bye_round_open(t, round_number)
        bye.delete()


def _forfeit_games_of(t: Tournament, user: User, now: datetime) -> None:
    set_ids = MatchSet.objects.filter(
        match__tournament=t, match__status=Match.Status.IN_PROGRESS
    ).filter(Q(match__player1=user) | Q(match__player2=user))
    game_ids = list(
        Game.objects.filter(
            game_set__in=set_ids.values("game_set"), status=Game.Status.IN_PROGRESS
        ).values_list("pk", flat=True)
    )
    for game_id in game_ids:
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.IN_PROGRESS:
            continue
        seats = list(Seat.objects.filter(game=game))
        winners = [s.seat for s in seats if s.user_id != user.pk]
        game_finish(game=game, outcome=Outcome(Termination.FORFEIT, tuple(winners)), now=now)


# --- start ------------------------------------------------------------------------------


def tournament_start(
    *, tournament_id: int, user: User | None = None, now: datetime | None = None
) -> Tournament:
    """Close registration, seed the players and pair the first round, in this call. Without
    ``user`` (the task, the sweeper) it only starts once due or asked for
    (``tournament_start_request``, the API's "start now"); with ``user`` it checks what that
    does and starts at once (the tests, the shell)."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        if user is not None:
            _check_startable(t, user)
        elif t.status != Tournament.Status.REGISTRATION:
            return t
        elif now < t.start_at and t.pairing_requested_at is None:
            return t
        claimed = Tournament.objects.filter(pk=t.pk, status=Tournament.Status.REGISTRATION).update(
            status=Tournament.Status.RUNNING, started_at=now
        )
        if not claimed:  # pragma: no cover - the row lock makes this unreachable
            return t
        t.refresh_from_db()
        entries = _seed(t)
        if len(entries) < 2:
            t.status = Tournament.Status.CANCELLED
            t.finished_at = now
            t.pairing_requested_at = None
            t.save(update_fields=["status", "finished_at", "pairing_requested_at"])
            return t
        if t.format == Tournament.Format.SWISS:
            n = len(entries)
            t.rounds = min(t.rounds or default_rounds(n), max_rounds(n))
            t.initial_colour = t.initial_colour or initial_colour_by_lot(t.seed)
        elif t.format == Tournament.Format.ROUND_ROBIN:
            t.rounds = len(round_robin_schedule(len(entries), cycles=t.cycles))
        t.save(update_fields=["rounds", "initial_colour"])
    tournament_advance(tournament_id=t.pk, now=now)
    t.refresh_from_db()
    return t


def tournament_start_request(
    *, tournament_id: int, user: User, now: datetime | None = None
) -> Tournament:
    """The organiser's "start now": the checks of ``tournament_start``, then the start itself
    (seeding, the first round's pairing) as a job (``_pairing_job``)."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        _check_startable(t, user)
        _pairing_job(t, START_TASK, now)
    return t


def _check_startable(t: Tournament, user: User) -> None:
    """The organiser may start it now: still open, with at least two players."""
    _check_organiser(t, user, "Only the organiser can start it.")
    if t.status != Tournament.Status.REGISTRATION:
        _check_not_over(t)
        raise Conflict("already_started", "The tournament has started.")
    players = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
    if players < 2:
        raise Conflict(
            "too_few_players",
            f"A tournament needs at least 2 players to start; {players} registered. "
            "It stays open for registration.",
        )


def initial_colour_by_lot(seed: int) -> str:
    """The lot of FIDE Art. 5.2.5, drawn from the tournament's stored seed (reproducible)."""
    return random.Random(f"initial-colour:{seed}").choice(("white", "black"))


def _seed(t: Tournament) -> list[Entry]:
    """Pairing numbers: established players (20+ rated results) first, then by rating; ties in a
    random order drawn from the tournament's stored seed (reproducible)."""
    entries = list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).order_by("id"))
    rng = random.Random(t.seed)
    ratings = ratings_or_start(
        user_ids=[e.user_id for e in entries],
        variant=t.variant,
        category=TimeControl.of(t).category,
    )
    keyed = []
    for e in entries:
        e.rating, e.rated_results = ratings[e.user_id]
        keyed.append(((e.rated_results < ESTABLISHED_RESULTS, -e.rating, rng.random()), e))
    keyed.sort(key=lambda pair: pair[0])
    ordered = [e for _, e in keyed]
    for i, e in enumerate(ordered, start=1):
        e.seed = i
    Entry.objects.bulk_update(ordered, ["seed", "rating", "rated_results"])
    return ordered


# --- checks for other apps --------------------------------------------------------------


def cancel_forbidden(game: Game) -> str | None:
    """``games.play.positions.CANCEL_FORBIDDEN_CHECKS`` entry: tournament games cannot be cancelled."""
    if game.game_set_id and MatchSet.objects.filter(game_set_id=game.game_set_id).exists():
        return "Tournament games cannot be cancelled."
    return None


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Backstop for lost or late tasks: start due tournaments (and those whose organiser asked),
    record finished sets, advance every running tournament (an imported one only when its
    organiser asked), withdraw deactivated accounts."""
    now = _now(now)
    report = {"started": 0, "results": 0, "advanced": 0}
    report["withdrawn"] = tournaments_of_deactivated_withdraw(now=now)
    pending = Q(pairing_requested_at__isnull=False)
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION).filter(
        Q(start_at__lte=now) | pending
    )
    for tid in list(due.values_list("pk", flat=True)):
        tournament_start(tournament_id=tid, now=now)
        report["started"] += 1
    stale: Sequence[int] = list(
        MatchSet.objects.filter(
            match__status=Match.Status.IN_PROGRESS,
            # a cancelled tournament's games in progress are played out and recorded too
            match__tournament__status__in=(Tournament.Status.RUNNING, Tournament.Status.CANCELLED),
        )
        .exclude(game_set__status=GameSet.Status.IN_PROGRESS)
        .values_list("game_set_id", flat=True)
    )
    for game_set_id in stale:
        match_set_finished(game_set_id=game_set_id, now=now)
        report["results"] += 1
    # Imported events move on only when their organiser asks (a pending pairing).
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING).filter(
        Q(imported=False) | pending
    )
    for tid in list(running.values_list("pk", flat=True)):
        outcome = tournament_advance(tournament_id=tid, now=now)
        if outcome not in ("waiting", "idle", "created 0"):
            report["advanced"] += 1
    return report
