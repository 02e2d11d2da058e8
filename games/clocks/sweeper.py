"""Loss on time: the timeout task's work and the sweeper behind it.

The task (``games.game_timeout``, enqueued for each deadline) locks the game row and re-checks
``ply``, ``status`` and ``deadline <= now`` before finishing, so a stale task (a move was made
meanwhile), a repeated one, or one racing a move does nothing. The periodic ``sweep`` closes
any game past its deadline that a task missed, spending vacation hours first for turn-based
games, and enqueues the tasks of deadlines that were too far away to get one when set.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games.clocks import rules
from games.clocks.selectors import eta_horizon
from games.clocks.services import (
    enqueue_timeout,
    send_timeout,
    spend_vacation,
    timeout_schedule,
)
from games.clocks.timecontrol import Kind
from games.engine import Termination
from games.models import Game, Move, Seat
from games.play.finish import absence_finish, game_finish, loss_outcome, sets_maybe_finish
from games.play.positions import opponents_of, seat_to_move
from games.play.signals import game_finished

IN_PROGRESS = Game.Status.IN_PROGRESS


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

    Returns "vacation", "timeout", "absent" (the start window closed on a seat that has not
    acted: ``absence_finish``) or "stale" (the position is over although the row is not).
    ``user`` is the player to move, already locked; with ``lookup_user=False`` and no ``user``
    that player has no vacation to spend. With ``finish=False`` a turn-based timeout is only
    decided, not written: the caller finishes it (``_finish_turn_timeouts``)."""
    if seat is None:
        seat = seat_to_move(game, moves)
    if seat is None:
        return "stale"
    game._timeout_seat = seat
    if game.time_control == Kind.LIVE and seat in game.awaiting_seats:
        absence_finish(game=game, seat=seat, now=now)
        return "absent"
    if game.time_control == Kind.TURN:
        spend = spend_vacation(game, seat=seat, now=now, user=user, lookup_user=lookup_user)
        if not spend.timed_out:
            game.save(update_fields=["deadline", "updated_at"])
            timeout_schedule(game=game)
            return "vacation"
        if not finish:
            return "timeout"
    elif game.time_control == Kind.LIVE and game.clocks_ms:
        game.clocks_ms = [0 if i == seat - 1 else ms for i, ms in enumerate(game.clocks_ms)]
    game_finish(game=game, outcome=loss_outcome(game, seat, Termination.TIMEOUT), now=now)
    return "timeout"


def _finish_turn_timeouts(games: list[Game], now: datetime) -> None:
    """Finish many locked turn-based games lost on time: one UPDATE per winner list instead of
    one per game, then, per game, what ``game_finish`` does after its save: the
    ``game_finished`` signal (with the games' seats read in one query) and the set check (sets
    and ratings see a timeout like any result). Clocks of turn-based games have nothing to
    zero, so the rows differ only there."""
    groups: dict[tuple[int, ...], list[Game]] = defaultdict(list)
    for game in games:
        winners = sorted(set(opponents_of(game, game._timeout_seat)))
        game.status, game.end_reason, game.winner_seats = (
            Game.Status.FINISHED,
            Termination.TIMEOUT,
            winners,
        )
        game.finished_at, game.deadline, game.updated_at = now, None, now
        game.undo_requested_by = game.cancel_requested_by = None
        groups[tuple(winners)].append(game)
    for winners, group in groups.items():
        Game.objects.filter(pk__in=[g.pk for g in group]).update(
            status=Game.Status.FINISHED,
            end_reason=Termination.TIMEOUT,
            winner_seats=list(winners),
            finished_at=now,
            deadline=None,
            undo_requested_by=None,
            cancel_requested_by=None,
            updated_at=now,
        )
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(game__in=games).select_related("user").order_by("game_id", "seat")
    ):
        seats[seat.game_id].append(seat)
    for game in games:
        game_finished.send(sender=Game, game=game, seats=seats[game.pk])
    set_ids = sorted({g.game_set_id for g in games if g.game_set_id is not None})
    if not set_ids:
        return
    sets_maybe_finish(game_set_ids=set_ids, now=now)  # a few queries however many sets


def timeout_fire(*, game_id: int, ply: int, now: datetime | None = None) -> str:
    """The timeout task's work: lock the game, re-check, finish. Safe to run any number of
    times. Returns "stale", "early", "vacation", "timeout" or "absent"."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != IN_PROGRESS or game.ply != ply or game.deadline is None:
            return "stale"
        if game.deadline > now:
            if game.deadline - now < timedelta(seconds=5):  # woke a little early: try again
                enqueue_timeout(game.pk, game.ply, game.deadline)
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
    """Close every in-progress game whose deadline has passed (``close_due``), then enqueue
    tasks for deadlines due before the next sweep that had no task of their own."""
    now = now or timezone.now()
    closed = close_due(now=now, batch_size=batch_size)
    return SweepReport(closed.timed_out, closed.vacation, closed.skipped, _schedule_upcoming(now))


def close_due(*, now: datetime | None = None, batch_size: int = 500) -> SweepReport:
    """Close every in-progress game whose deadline has passed, spending vacation first, in short
    transactions of ``batch_size`` games. Batches lock their rows with SKIP LOCKED where the
    database has it, so concurrent sweepers and tasks never wait for each other. Beat runs this
    every second (``TIMEOUT_POLL_SECONDS``): a timeout task lost with a killed worker (its message
    waits out the broker's visibility timeout) costs at most that much delay."""
    now = now or timezone.now()
    ids = list(
        Game.objects.filter(status=IN_PROGRESS, deadline__lte=now)
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)
    )
    counts = Counter(
        outcome for chunk in _chunks(ids, batch_size) for outcome in _sweep_chunk(chunk, now)
    )
    closed = counts["timeout"] + counts["absent"]  # a start window closed is closed on time too
    return SweepReport(closed, counts["vacation"], counts["stale"], 0)


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
    wanted = [g.pk for g in games if g.time_control == Kind.TURN and g.vacation_allowed]
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
        if rules.vacation_balance(
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
        if (started is None or deadline - started > horizon) and send_timeout(
            game_id, ply, deadline
        ):
            count += 1
    return count
