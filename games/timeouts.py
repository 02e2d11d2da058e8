"""Clocks of games: the service hooks, loss on time, the sweeper and vacation.

The arithmetic (Fischer clocks, categories, weekend-aware deadlines, vacation) is pure and lives
in ``games.clocks``; this module applies it to ``Game`` rows.

Hooks called by ``games.services`` inside its game-row transaction:

- ``clock_start(game=, now=)`` fills ``clocks_ms``, ``turn_started_at`` and ``deadline`` for
  the first player to move;
- ``clock_on_move(game=, seat=, now=)`` charges the elapsed time to ``seat`` and sets the next
  deadline (False, changing nothing on the game, when the mover had already run out of time);
- ``timeout_schedule(game=)`` enqueues ``games.tasks.game_timeout(game_id, ply)`` on commit with
  ``eta=deadline``.

Both clock hooks take an optional ``to_move_seat`` (the engine's seat to move *after* the
action); without it the next seat is guessed by rotation and ``timeout_schedule`` checks the
guess against a replay of the moves (fixing the deadline when it was wrong).

Enforcement: the task locks the game row and re-checks ``ply``, ``status`` and ``deadline <= now``
before finishing, so a stale task (a move was made meanwhile), a repeated one, or one racing a
move does nothing. The periodic ``sweep`` (beat, every ``settings.SWEEP_INTERVAL``) closes any
game past its deadline that a task missed, spending vacation hours first for turn-based games.

Far deadlines and Redis: with the Redis broker an unacknowledged message (an ``eta`` task waiting
in a worker) is delivered again after ``visibility_timeout`` (settings: 3600 s), so an eta days
away would be duplicated every hour. Tasks are therefore only enqueued for deadlines within
``eta_horizon()`` (half the visibility timeout; 6 hours on the filesystem broker;
``settings.CLOCK_ETA_HORIZON`` overrides). Farther deadlines (turn-based games, very long live
games) are enqueued by the sweeper once they come within one sweep interval, and the sweeper
closes anything overdue, so a lost or never-enqueued task only delays a timeout by at most one
sweep interval.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games import clocks
from games.models import Game, Move, Seat, User
from pente_site.api import ApiError

IN_PROGRESS = Game.Status.IN_PROGRESS


# --- helpers ------------------------------------------------------------------------------


def eta_horizon() -> timedelta:
    """How far ahead a deadline may be to get its own eta task (see the module docstring)."""
    explicit = getattr(settings, "CLOCK_ETA_HORIZON", None)
    if explicit is not None:
        return explicit
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    visibility = options.get("visibility_timeout")
    if visibility:
        return timedelta(seconds=float(visibility)) / 2
    return timedelta(hours=6)


def seat_to_move(game: Game, moves: list[Move] | None = None) -> int | None:
    """The seat to move now, from a replay of the game's moves."""
    from games.services import position_of

    return position_of(game, moves).to_move_seat


def _seat_user(game: Game, seat: int | None) -> User | None:
    if seat is None or game.pk is None:
        return None
    row = Seat.objects.filter(game_id=game.pk, seat=seat).select_related("user").first()
    return row.user if row else None


def _turn_deadline(start: datetime, days: int, user: User | None) -> datetime:
    return clocks.turn_deadline(
        start=start,
        days=days,
        time_zone=getattr(user, "time_zone", None),
        weekend_days=getattr(user, "weekend_days", None),
    )


def _deadline_for(game: Game, seat: int | None, start: datetime) -> datetime | None:
    """The deadline of ``seat``'s turn starting at ``start`` (clocks already charged)."""
    if seat is None:
        return None
    if game.time_control == clocks.LIVE:
        return clocks.live_deadline(turn_started_at=start, remaining_ms=game.clocks_ms[seat - 1])
    if game.time_control == clocks.TURN:
        return _turn_deadline(start, game.days_per_move, _seat_user(game, seat))
    return None


# --- the service hooks --------------------------------------------------------------------


def clock_start(*, game: Game, now: datetime, to_move_seat: int | None = None) -> None:
    """Fill the clock fields and the deadline for the first player to move (no save).

    ``game.category`` is not touched: ``game_create`` sets it with the time control."""
    if game.time_control not in (clocks.LIVE, clocks.TURN):
        game.clocks_ms, game.turn_started_at, game.deadline = [], None, None
        return
    seat = to_move_seat
    if seat is None:
        seat = seat_to_move(game) if game.pk is not None else 1
    game.turn_started_at = now
    if game.time_control == clocks.LIVE:
        start_ms = clocks.initial_clock_ms(
            initial_minutes=game.initial_minutes, increment_seconds=game.increment_seconds
        )
        game.clocks_ms = [start_ms] * game.seats
    else:
        game.clocks_ms = []
    game.deadline = _deadline_for(game, seat, now)
    game._clock_seat = seat
    game._clock_seat_guessed = False


def clock_on_move(*, game: Game, seat: int, now: datetime, to_move_seat: int | None = None) -> bool:
    """Charge the time since the turn started to ``seat``, add the increment and set the next
    deadline (no save). Returns False, changing nothing on the game, when the mover's time had
    already run out (turn-based: the deadline passed and no vacation could be spent)."""
    if game.time_control not in (clocks.LIVE, clocks.TURN):
        return True
    if game.turn_started_at is None:  # never started (e.g. a game created before its clock)
        clock_start(game=game, now=now, to_move_seat=seat)
    if game.time_control == clocks.LIVE:
        charge = clocks.charge_move(
            clocks_ms=game.clocks_ms,
            seat=seat,
            spent_ms=clocks.elapsed_ms(game.turn_started_at, now),
            increment_seconds=game.increment_seconds,
        )
        if charge.flagged:
            return False
        game.clocks_ms = list(charge.clocks_ms)
    elif game.deadline is not None and game.deadline <= now:
        if _spend_vacation(game, seat=seat, now=now).timed_out:
            return False
    guessed = to_move_seat is None
    next_seat = (seat % game.seats) + 1 if guessed else to_move_seat
    game.turn_started_at = now
    game.deadline = _deadline_for(game, next_seat, now)
    game._clock_seat = next_seat
    game._clock_seat_guessed = guessed
    return True


def clock_restart(*, game: Game, now: datetime, to_move_seat: int | None = None) -> None:
    """Restart the turn of ``to_move_seat`` at ``now`` without charging anyone (after an undo,
    say): live clocks keep their remaining time; a turn-based deadline is counted afresh.
    Mutates, does not save; call ``timeout_schedule`` after saving."""
    if game.time_control not in (clocks.LIVE, clocks.TURN) or game.status != IN_PROGRESS:
        return
    seat = to_move_seat if to_move_seat is not None else seat_to_move(game)
    game.turn_started_at = now
    game.deadline = _deadline_for(game, seat, now)
    game._clock_seat, game._clock_seat_guessed = seat, False


def timeout_schedule(*, game: Game) -> None:
    """Enqueue the timeout task for the game's deadline when the transaction commits.

    Deadlines beyond ``eta_horizon()`` are left to the sweeper."""
    if game.status != IN_PROGRESS or game.deadline is None or game.pk is None:
        return
    if getattr(game, "_clock_seat_guessed", False):
        _check_guessed_seat(game)
    if game.deadline - timezone.now() > eta_horizon():
        return
    _enqueue(game.pk, game.ply, game.deadline)


def _check_guessed_seat(game: Game) -> None:
    """The hook guessed the next seat by rotation; replay the saved moves and fix the deadline."""
    game._clock_seat_guessed = False
    actual = seat_to_move(game)
    if actual == getattr(game, "_clock_seat", None) or game.turn_started_at is None:
        return
    game._clock_seat = actual
    deadline = _deadline_for(game, actual, game.turn_started_at)
    if deadline != game.deadline:
        game.deadline = deadline
        Game.objects.filter(pk=game.pk).update(deadline=deadline)


def _send(game_id: int, ply: int, deadline: datetime) -> bool:
    """Send the timeout task now, to run at ``deadline``. Not in eager mode (tests): an eager
    task cannot wait for its eta, so there the sweeper (or a test calling ``timeout_fire``)
    does the work."""
    from games.tasks import game_timeout

    if game_timeout.app.conf.task_always_eager:
        return False
    game_timeout.apply_async(args=(game_id, ply), eta=deadline)
    return True


def _enqueue(game_id: int, ply: int, deadline: datetime) -> None:
    """Send the timeout task when the current transaction commits."""
    transaction.on_commit(lambda: _send(game_id, ply, deadline), robust=True)


def clock_view(*, game: Game, now: datetime, to_move_seat: int | None) -> dict[str, Any]:
    """Clock fields for the game state: each seat's remaining ms now, the deadline, category."""
    running = game.status == IN_PROGRESS and game.time_control == clocks.LIVE
    remaining = clocks.remaining_now(
        clocks_ms=game.clocks_ms or [],
        to_move_seat=to_move_seat if running else None,
        turn_started_at=game.turn_started_at,
        now=now,
    )
    return {
        "time_control": game.time_control,
        "category": game.category,
        "initial_minutes": game.initial_minutes,
        "increment_seconds": game.increment_seconds,
        "days_per_move": game.days_per_move,
        "clocks_ms": list(remaining),
        "turn_started_at": game.turn_started_at,
        "deadline": game.deadline,
        "vacation_allowed": game.vacation_allowed,
    }


# --- vacation -----------------------------------------------------------------------------


def _balance(user: User, now: datetime) -> clocks.VacationBalance:
    return clocks.vacation_balance(
        hours_left=user.vacation_hours_left,
        year=user.vacation_year,
        now=now,
        time_zone=user.time_zone,
    )


def _spend_vacation(
    game: Game,
    *,
    seat: int | None,
    now: datetime,
    user: User | None = None,
    lookup_user: bool = True,
) -> clocks.VacationSpend:
    """Spend the to-move player's vacation on the game's passed deadline (saves the user; the
    caller saves the game). ``user``, when given, is already locked; otherwise it is looked up
    and locked unless ``lookup_user`` is False."""
    if user is None and lookup_user and game.vacation_allowed and seat is not None:
        seat_row = Seat.objects.filter(game_id=game.pk, seat=seat).first()
        if seat_row is not None and seat_row.user_id is not None:
            user = User.objects.select_for_update().get(pk=seat_row.user_id)
    if user is None or not game.vacation_allowed:
        return clocks.VacationSpend(game.deadline, 0, game.deadline <= now)
    balance = _balance(user, now)
    spend = clocks.spend_vacation(
        deadline=game.deadline,
        now=now,
        hours_left=balance.hours_left,
        allowed=True,
        time_zone=user.time_zone,
        weekend_days=user.weekend_days,
    )
    if spend.hours_spent or balance.year != user.vacation_year:
        user.vacation_hours_left = balance.hours_left - spend.hours_spent
        user.vacation_year = balance.year
        user.save(update_fields=["vacation_hours_left", "vacation_year"])
    if not spend.timed_out:
        game.deadline = spend.deadline
    return spend


def vacation_status(*, user: User, now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    balance = _balance(user, now)
    return {
        "hours_left": balance.hours_left,
        "days_left": round(balance.hours_left / 24, 2),
        "year": balance.year,
        "hours_per_year": clocks.VACATION_HOURS_PER_YEAR,
    }


def _games_to_move(user: User, *, lock: bool) -> list[Game]:
    """In-progress turn-based games allowing vacation where ``user`` is to move."""
    game_ids = Seat.objects.filter(user=user).values("game_id")
    qs = Game.objects.filter(
        pk__in=game_ids,
        status=IN_PROGRESS,
        time_control=clocks.TURN,
        vacation_allowed=True,
        deadline__isnull=False,
    ).order_by("pk")
    if lock:
        qs = qs.select_for_update()
    games = list(qs)
    seats = defaultdict(set)
    for game_id, seat in Seat.objects.filter(
        game_id__in=[g.pk for g in games], user=user
    ).values_list("game_id", "seat"):
        seats[game_id].add(seat)
    return [g for g in games if seat_to_move(g) in seats[g.pk]]


def vacation_start(*, user: User, hours: int, now: datetime | None = None) -> dict[str, Any]:
    """Take ``hours`` of vacation now: push the deadline of every turn-based game (that allows
    vacation) where the user is to move by that much working time, spending the hours once."""
    now = now or timezone.now()
    if not isinstance(hours, int) or hours < 1:
        raise ApiError("bad_hours", "Vacation is taken in whole hours, at least one.")
    with transaction.atomic():
        games = _games_to_move(user, lock=True)  # games first, then the user: the same order
        locked = User.objects.select_for_update().get(pk=user.pk)  # as the timeout task's
        balance = _balance(locked, now)
        if hours > balance.hours_left:
            raise ApiError(
                "not_enough_vacation",
                f"You have {balance.hours_left} hours of vacation left this year.",
                extra={"hours_left": balance.hours_left},
            )
        if not games:
            raise ApiError(
                "no_games_to_pause",
                "It is not your turn in any turn-based game that allows vacation.",
                status_code=409,
            )
        for game in games:
            game.deadline = clocks.add_working_time(
                at=max(game.deadline, now),
                delta=timedelta(hours=hours),
                time_zone=locked.time_zone,
                weekend_days=locked.weekend_days,
            )
            game.save(update_fields=["deadline", "updated_at"])
            timeout_schedule(game=game)
        locked.vacation_hours_left = balance.hours_left - hours
        locked.vacation_year = balance.year
        locked.save(update_fields=["vacation_hours_left", "vacation_year"])
    user.vacation_hours_left, user.vacation_year = locked.vacation_hours_left, locked.vacation_year
    return {
        **vacation_status(user=locked, now=now),
        "hours_spent": hours,
        "games": [{"id": g.pk, "deadline": g.deadline} for g in games],
    }


# --- loss on time -------------------------------------------------------------------------


def _expire(
    game: Game,
    *,
    now: datetime,
    seat: int | None = None,
    moves: list[Move] | None = None,
    user: User | None = None,
    lookup_user: bool = True,
    finish: bool = True,
) -> str:
    """The locked ``game`` is past its deadline: spend vacation or finish it as a timeout.

    Returns "vacation", "timeout" or "stale" (the position is over although the row is not).
    ``user`` is the player to move, already locked; with ``lookup_user=False`` and no ``user``
    that player has no vacation to spend. With ``finish=False`` a turn-based timeout is only
    decided, not written: the caller finishes it (``_finish_turn_timeouts``)."""
    from games.services import game_finish, opponents_of

    if seat is None:
        seat = seat_to_move(game, moves)
    if seat is None:
        return "stale"
    game._timeout_seat = seat
    if game.time_control == clocks.TURN:
        spend = _spend_vacation(game, seat=seat, now=now, user=user, lookup_user=lookup_user)
        if not spend.timed_out:
            game.save(update_fields=["deadline", "updated_at"])
            timeout_schedule(game=game)
            return "vacation"
        if not finish:
            return "timeout"
    elif game.time_control == clocks.LIVE and game.clocks_ms:
        game.clocks_ms = [0 if i == seat - 1 else ms for i, ms in enumerate(game.clocks_ms)]
    game_finish(game=game, end_reason="timeout", winner_seats=opponents_of(game, seat), now=now)
    return "timeout"


def _finish_turn_timeouts(games: list[Game], now: datetime) -> None:
    """Finish many locked turn-based games lost on time: one UPDATE per winner list instead of
    one per game, then, per game, what ``game_finish`` does after its save: the
    ``game_finished`` signal and the set check (sets and ratings see a timeout like any
    result). Clocks of turn-based games have nothing to zero, so the rows differ only there."""
    from games import services
    from games.signals import game_finished

    groups: dict[tuple[int, ...], list[Game]] = defaultdict(list)
    for game in games:
        winners = sorted(set(services.opponents_of(game, game._timeout_seat)))
        game.status, game.end_reason, game.winner_seats = Game.Status.FINISHED, "timeout", winners
        game.finished_at, game.deadline, game.updated_at = now, None, now
        game.undo_requested_by = game.cancel_requested_by = None
        groups[tuple(winners)].append(game)
    for winners, group in groups.items():
        Game.objects.filter(pk__in=[g.pk for g in group]).update(
            status=Game.Status.FINISHED,
            end_reason="timeout",
            winner_seats=list(winners),
            finished_at=now,
            deadline=None,
            undo_requested_by=None,
            cancel_requested_by=None,
            updated_at=now,
        )
    for game in games:
        game_finished.send(sender=Game, game=game)
    set_ids = sorted({g.game_set_id for g in games if g.game_set_id is not None})
    if not set_ids:
        return
    services.sets_maybe_finish(game_set_ids=set_ids, now=now)  # a few queries however many sets


def timeout_fire(*, game_id: int, ply: int, now: datetime | None = None) -> str:
    """The timeout task's work: lock the game, re-check, finish. Safe to run any number of
    times. Returns "stale", "early", "vacation" or "timeout"."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != IN_PROGRESS or game.ply != ply or game.deadline is None:
            return "stale"
        if game.deadline > now:
            if game.deadline - now < timedelta(seconds=5):  # woke a little early: try again
                _enqueue(game.pk, game.ply, game.deadline)
            return "early"
        return _expire(game, now=now)


@dataclass(frozen=True, slots=True)
class SweepReport:
    timed_out: int = 0
    vacation: int = 0
    skipped: int = 0
    scheduled: int = 0


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def sweep(*, now: datetime | None = None, batch_size: int = 500) -> SweepReport:
    """Close every in-progress game whose deadline has passed (spending vacation first), in
    short transactions of ``batch_size`` games, then enqueue tasks for deadlines due before the
    next sweep that had no task of their own. Batches lock their rows with SKIP LOCKED where
    the database has it, so concurrent sweepers and tasks never wait for each other."""
    now = now or timezone.now()
    ids = list(
        Game.objects.filter(status=IN_PROGRESS, deadline__lte=now)
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)
    )
    counts = Counter(
        outcome for chunk in _chunks(ids, batch_size) for outcome in _sweep_chunk(chunk, now)
    )
    scheduled = _schedule_upcoming(now)
    return SweepReport(counts["timeout"], counts["vacation"], counts["stale"], scheduled)


def _sweep_chunk(chunk: list[int], now: datetime) -> list[str]:
    with transaction.atomic():
        qs = Game.objects.filter(pk__in=chunk, status=IN_PROGRESS, deadline__lte=now).order_by("pk")
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True)  # another sweeper or a task has it
        else:
            qs = qs.select_for_update()
        games = list(qs)
        if not games:
            return []
        moves: dict[int, list[Move]] = defaultdict(list)
        for move in Move.objects.filter(game_id__in=[g.pk for g in games]).order_by(
            "game_id", "ply"
        ):
            moves[move.game_id].append(move)
        seats = {g.pk: seat_to_move(g, moves[g.pk]) for g in games}
        users = _lock_vacation_users(games, seats, now)
        outcomes = []
        turn_timeouts = []
        for game in games:
            outcome = _expire(
                game,
                now=now,
                seat=seats[game.pk],
                moves=moves[game.pk],
                user=users.get((game.pk, seats[game.pk])),
                lookup_user=False,
                finish=False,
            )
            outcomes.append(outcome)
            if outcome == "timeout" and game.status == IN_PROGRESS:
                turn_timeouts.append(game)
        _finish_turn_timeouts(turn_timeouts, now)
        return outcomes


def _lock_vacation_users(
    games: list[Game], seats: dict[int, int | None], now: datetime
) -> dict[tuple[int, int], User]:
    """Lock, in one query, the players to move of turn-based games that allow vacation and who
    have vacation left; the others (absent from the result) have nothing to spend."""
    wanted = [g.pk for g in games if g.time_control == clocks.TURN and g.vacation_allowed]
    if not wanted:
        return {}
    user_of = {
        (game_id, seat): user_id
        for game_id, seat, user_id in Seat.objects.filter(game_id__in=wanted).values_list(
            "game_id", "seat", "user_id"
        )
        if user_id is not None and seats.get(game_id) == seat
    }
    # Only players with hours to spend need the lock (a new year's balance is computed, so a
    # player at zero whose year has turned is locked too).
    spenders = [
        pk
        for pk, hours, year, time_zone in User.objects.filter(
            pk__in=set(user_of.values())
        ).values_list("pk", "vacation_hours_left", "vacation_year", "time_zone")
        if clocks.vacation_balance(
            hours_left=hours, year=year, now=now, time_zone=time_zone
        ).hours_left
    ]
    locked = {
        u.pk: u for u in User.objects.select_for_update().filter(pk__in=spenders).order_by("pk")
    }
    return {key: locked[user_id] for key, user_id in user_of.items() if user_id in locked}


def _schedule_upcoming(now: datetime) -> int:
    """Enqueue tasks for deadlines due before the next sweep that were too far away to get a
    task when they were set (see ``eta_horizon``)."""
    interval = getattr(settings, "SWEEP_INTERVAL", timedelta(seconds=30))
    horizon = eta_horizon()
    rows = list(
        Game.objects.filter(
            status=IN_PROGRESS, deadline__gt=now, deadline__lte=now + interval
        ).values_list("pk", "ply", "deadline", "turn_started_at")
    )
    count = 0
    for game_id, ply, deadline, started in rows:
        if (started is None or deadline - started > horizon) and _send(game_id, ply, deadline):
            count += 1
    return count
