"""Loss on time: the one claim and the work of the timeout task and of the sweeper behind it
(see ``docs/timeouts.md``)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from accounts.models import User
from games.clocks import rules
from games.clocks.services import enqueue_timeout, schedule_deadline, spend_vacation
from games.clocks.timecontrol import Kind
from games.engine import Termination
from games.play.finish import absence_finish, game_finish, loss_outcome, sets_maybe_finish
from games.play.models import Game, Move, Seat
from games.play.positions import opponents_of, seat_to_move
from games.play.signals import game_finished

IN_PROGRESS = Game.Status.IN_PROGRESS


def _claim(games: QuerySet[Game], *, now: datetime, skip_locked: bool = False) -> list[Game]:
    """Lock and return those of ``games`` still in progress and past their deadline: the one
    claim of the task and the sweeper. The conditions are part of the locking query, so
    PostgreSQL checks them again on a row that a concurrent move changed while it waited, and
    SQLite's transactions (``transaction_mode`` IMMEDIATE) hold the write lock from their start:
    a repeated or stale caller claims nothing and writes nothing. ``skip_locked`` (the
    sweeper) passes over rows another transaction holds rather than waiting for them."""
    rows = games.filter(status=IN_PROGRESS, deadline__lte=now).order_by("pk")
    if skip_locked and connection.features.has_select_for_update_skip_locked:
        return list(rows.select_for_update(skip_locked=True))
    return list(rows.select_for_update())


@dataclass(frozen=True, slots=True)
class Expiry:
    """What ``_expire`` did: ``outcome`` is "vacation", "timeout", "absent" (the start window
    closed on a seat that has not acted: ``absence_finish``) or "stale" (the position is over
    although the row is not); ``seat`` ran out of time at ``at`` (the deadline, after any
    vacation spent), which is when the game is finished."""

    outcome: str
    seat: int | None = None
    at: datetime | None = None


def _expire(
    game: Game,
    *,
    now: datetime,
    seat: int | None = None,
    moves: list[Move] | None = None,
    user: User | None = None,
    lookup_user: bool = True,
    finish: bool = True,
) -> Expiry:
    """The claimed ``game`` is past its deadline: spend vacation or finish it, at the deadline.

    ``user`` is the player to move, already locked; with ``lookup_user=False`` and no ``user``
    that player has no vacation to spend. With ``finish=False`` a turn-based timeout is only
    decided, not written: the caller finishes it (``_finish_turn_timeouts``)."""
    if seat is None:
        seat = seat_to_move(game, moves)
    if seat is None:
        return Expiry("stale")
    at = game.deadline
    if game.time_control == Kind.LIVE and seat in game.awaiting_seats:
        absence_finish(game=game, seat=seat, now=now, finished_at=at)
        return Expiry("absent", seat, at)
    if game.time_control == Kind.TURN:
        spend = spend_vacation(game, seat=seat, now=now, user=user, lookup_user=lookup_user)
        if not spend.timed_out:
            game.save(update_fields=["deadline", "updated_at"])
            schedule_deadline(game=game)
            return Expiry("vacation", seat)
        at = spend.deadline  # the vacation hours spent, then the time ran out
        if not finish:
            return Expiry("timeout", seat, at)
    elif game.time_control == Kind.LIVE and game.clocks_ms:
        game.clocks_ms = [0 if i == seat - 1 else ms for i, ms in enumerate(game.clocks_ms)]
    outcome = loss_outcome(game, seat, Termination.TIMEOUT)
    game_finish(game=game, outcome=outcome, now=now, finished_at=at)
    return Expiry("timeout", seat, at)


def _finish_turn_timeouts(timeouts: list[tuple[Game, Expiry]], now: datetime) -> None:
    """Finish many claimed turn-based games lost on time: one UPDATE per winner list instead
    of one per game, then, per game, what ``game_finish`` does after its save: the
    ``game_finished`` signal (with the games' seats read in one query) and the set check (sets
    and ratings see a timeout like any result). Clocks of turn-based games have nothing to
    zero, so the rows differ only in their winners and in ``finished_at``: the deadline in the
    row, or, when vacation was spent first, the later moment it ran out."""
    groups: dict[tuple[tuple[int, ...], datetime | None], list[Game]] = defaultdict(list)
    for game, expiry in timeouts:
        winners = tuple(sorted(set(opponents_of(game, expiry.seat))))
        at_row_deadline = expiry.at == game.deadline
        groups[(winners, None if at_row_deadline else expiry.at)].append(game)
        game.status, game.end_reason, game.winner_seats = (
            Game.Status.FINISHED,
            Termination.TIMEOUT,
            list(winners),
        )
        game.finished_at, game.deadline, game.updated_at = expiry.at, None, now
        game.undo_requested_by = game.cancel_requested_by = None
    for (winners, at), group in groups.items():
        Game.objects.filter(pk__in=[g.pk for g in group]).update(
            status=Game.Status.FINISHED,
            end_reason=Termination.TIMEOUT,
            winner_seats=list(winners),
            # SQL reads the row as it was: ``deadline`` here is the one being cleared
            finished_at=F("deadline") if at is None else at,
            deadline=None,
            undo_requested_by=None,
            cancel_requested_by=None,
            updated_at=now,
        )
    games = [game for game, _ in timeouts]
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
    """The timeout task's work: claim the game at ``ply`` (``_claim``) and finish it. Safe to
    run any number of times. Returns "stale" (nothing to do: finished, moved on, no game),
    "early" (the deadline is still ahead), "vacation", "timeout" or "absent"."""
    now = now or timezone.now()
    with transaction.atomic():
        claimed = _claim(Game.objects.filter(pk=game_id, ply=ply), now=now)
        if claimed:
            return _expire(claimed[0], now=now).outcome
        ahead = Game.objects.filter(
            pk=game_id, ply=ply, status=IN_PROGRESS, deadline__gt=now
        ).values_list("deadline", flat=True)
        deadline = next(iter(ahead), None)
        if deadline is None:
            return "stale"
        if deadline - now < timedelta(seconds=5):  # woke a little early: try again
            enqueue_timeout(game_id, ply, deadline)
        return "early"


@dataclass(frozen=True, slots=True)
class SweepReport:
    timed_out: int = 0
    vacation: int = 0
    skipped: int = 0


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def close_due(*, now: datetime | None = None, batch_size: int = 500) -> SweepReport:
    """The sweeper: close every in-progress game past its deadline that no task closed (a
    lost task, a deadline beyond the eta horizon), spending vacation first, in short
    transactions of ``batch_size`` games that claim as the task does, skipping rows another
    transaction holds."""
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
    return SweepReport(closed, counts["vacation"], counts["stale"])


def _sweep_chunk(chunk: list[int], now: datetime) -> list[str]:
    with transaction.atomic():
        games = _claim(Game.objects.filter(pk__in=chunk), now=now, skip_locked=True)
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
            expiry = _expire(
                game,
                now=now,
                seat=seats[game.pk],
                moves=moves[game.pk],
                user=users.get((game.pk, seats[game.pk])),
                lookup_user=False,
                finish=False,
            )
            outcomes.append(expiry.outcome)
            if expiry.outcome == "timeout" and game.status == IN_PROGRESS:
                turn_timeouts.append((game, expiry))
        if turn_timeouts:
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
