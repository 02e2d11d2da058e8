"""Clocks of games on ``Game`` rows: the hooks the play services call inside their game-row
transaction (``clock_start``, ``clock_on_move``, ``clock_restart``), the one entry point for a
changed deadline (``schedule_deadline``), and the spending of vacation on a passed deadline.

How deadlines are enforced (the timeout task and the sweeper behind it): ``docs/timeouts.md``.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clocks import rules
from games.clocks.selectors import (
    clock_waits,
    eta_horizon,
    seat_user,
    start_window,
    vacation_balance,
)
from games.clocks.timecontrol import Kind, TimeControl
from games.play.models import Game, Seat
from games.play.positions import seat_to_move
from pente_site.celery import app

#: The Celery task that finishes one game on time (defined in ``games.clocks.tasks``).
TIMEOUT_TASK = "games.game_timeout"
IN_PROGRESS = Game.Status.IN_PROGRESS


def _turn_deadline(start: datetime, days: int, user: User | None) -> datetime:
    return rules.turn_deadline(
        start=start,
        days=days,
        time_zone=getattr(user, "time_zone", None),
        weekend_days=getattr(user, "weekend_days", None),
    )


def _deadline_for(game: Game, seat: int | None, start: datetime) -> datetime | None:
    """The deadline of ``seat``'s turn starting at ``start`` (clocks already charged)."""
    if seat is None:
        return None
    if game.time_control == Kind.LIVE:
        clock = rules.live_deadline(turn_started_at=start, remaining_ms=game.clocks_ms[seat - 1])
        if seat not in game.awaiting_seats:
            return clock
        window = start + start_window(game)  # the seat's first action: its start window
        return window if clock_waits(game) else min(window, clock)
    if game.time_control == Kind.TURN:
        return _turn_deadline(start, game.days_per_move, seat_user(game, seat))
    return None


def clock_start(*, game: Game, now: datetime, to_move_seat: int | None = None) -> None:
    """Fill the clock fields and the deadline for the first player to move (no save).

    ``game.category`` is not touched: ``game_create`` sets it with the time control."""
    if game.time_control not in (Kind.LIVE, Kind.TURN):
        game.clocks_ms, game.turn_started_at, game.deadline = [], None, None
        return
    seat = to_move_seat
    if seat is None:
        seat = seat_to_move(game) if game.pk is not None else 1
    game.turn_started_at = now
    if game.time_control == Kind.LIVE:
        start_ms = TimeControl.of(game).initial_clock_ms
        game.clocks_ms = [start_ms] * game.seats
    else:
        game.clocks_ms = []
    game.deadline = _deadline_for(game, seat, now)


def rotation_seat(*, game: Game, seat: int) -> int:
    """The seat after ``seat`` in rotation: the guess of ``clock_on_move`` when it is not told
    who is to move (``schedule_deadline`` checks it against the saved moves)."""
    return (seat % game.seats) + 1


def clock_on_move(*, game: Game, seat: int, now: datetime, to_move_seat: int | None = None) -> bool:
    """Charge the time since the turn started to ``seat``, add the increment and set the next
    deadline (no save). Returns False, changing nothing on the game, when the mover's time had
    already run out (turn-based: the deadline passed and no vacation could be spent; a live
    seat's first move: its start window had closed, ``absence_finish``'s case)."""
    if game.time_control not in (Kind.LIVE, Kind.TURN):
        return True
    if game.turn_started_at is None:  # never started (e.g. a game created before its clock)
        clock_start(game=game, now=now, to_move_seat=seat)
    if game.time_control == Kind.LIVE and seat in game.awaiting_seats:
        if game.deadline is not None and game.deadline <= now:
            return False  # the start window closed before this first move came
    if game.time_control == Kind.LIVE and clock_waits(game):
        pass  # the timer rule: no clock runs yet, nothing to charge
    elif game.time_control == Kind.LIVE:
        charge = rules.charge_move(
            clocks_ms=game.clocks_ms,
            seat=seat,
            spent_ms=rules.elapsed_ms(game.turn_started_at, now),
            increment_seconds=game.increment_seconds,
        )
        if charge.flagged:
            return False
        game.clocks_ms = list(charge.clocks_ms)
    elif game.deadline is not None and game.deadline <= now:
        if spend_vacation(game, seat=seat, now=now).timed_out:
            return False
    if seat in game.awaiting_seats:  # the seat's first action of its own: it is here
        game.awaiting_seats = [s for s in game.awaiting_seats if s != seat]
    next_seat = rotation_seat(game=game, seat=seat) if to_move_seat is None else to_move_seat
    game.turn_started_at = now
    game.deadline = _deadline_for(game, next_seat, now)
    return True


def clock_restart(*, game: Game, now: datetime, to_move_seat: int | None = None) -> None:
    """Restart the turn of ``to_move_seat`` at ``now`` without charging anyone (after an undo,
    say): live clocks keep their remaining time; a turn-based deadline is counted afresh.
    Mutates, does not save; call ``schedule_deadline`` after saving."""
    if game.time_control not in (Kind.LIVE, Kind.TURN) or game.status != IN_PROGRESS:
        return
    seat = to_move_seat if to_move_seat is not None else seat_to_move(game)
    game.turn_started_at = now
    game.deadline = _deadline_for(game, seat, now)


def schedule_deadline(*, game: Game, guessed_seat: int | None = None) -> None:
    """Call after saving a game whose deadline may have changed (a start, a vacation hour spent):
    ``settle_deadline`` now, and the timeout task sent when the transaction commits. A game with no
    deadline, or one beyond ``eta_horizon()``, gets no task: the sweeper closes it once it is
    overdue. (The play services do the two halves from ``games.play.events``.)"""
    settle_deadline(game=game, guessed_seat=guessed_seat)
    if _timeout_due(game):
        enqueue_timeout(game.pk, game.ply, game.deadline)


def settle_deadline(*, game: Game, guessed_seat: int | None = None) -> None:
    """In the transaction that saved the game: ``guessed_seat``, the seat ``clock_on_move``
    guessed by rotation (not told who is to move), is checked against the saved moves, and the
    deadline corrected in the row when the guess was wrong."""
    if game.status != IN_PROGRESS or game.deadline is None or game.pk is None:
        return
    if guessed_seat is not None:
        _check_guessed_seat(game, guessed_seat)


def send_deadline(*, game: Game) -> None:
    """Once the game's deadline is committed: its timeout task (``games.game_timeout`` with the
    game's id and ply, ``eta`` = the deadline), unless the deadline is beyond ``eta_horizon()``
    (the sweeper closes the game once it is overdue)."""
    if _timeout_due(game):
        send_timeout(game.pk, game.ply, game.deadline)


def _timeout_due(game: Game) -> bool:
    """Whether the game's deadline gets a timeout task: in progress, with a deadline within
    ``eta_horizon()``."""
    return (
        game.status == IN_PROGRESS
        and game.deadline is not None
        and game.pk is not None
        and game.deadline - timezone.now() <= eta_horizon()
    )


def _check_guessed_seat(game: Game, guessed_seat: int) -> None:
    """The hook guessed the next seat by rotation; replay the saved moves and fix the deadline."""
    actual = seat_to_move(game)
    if actual == guessed_seat or game.turn_started_at is None:
        return
    deadline = _deadline_for(game, actual, game.turn_started_at)
    if deadline != game.deadline:
        game.deadline = deadline
        Game.objects.filter(pk=game.pk).update(deadline=deadline)


def send_timeout(game_id: int, ply: int, deadline: datetime) -> bool:
    """Send the timeout task now, to run at ``deadline``. Not in eager mode (tests): an eager
    task cannot wait for its eta, so there the sweeper (or a test calling ``timeout_fire``)
    does the work."""
    if app.conf.task_always_eager:
        return False
    app.send_task(TIMEOUT_TASK, args=(game_id, ply), eta=deadline)
    return True


def enqueue_timeout(game_id: int, ply: int, deadline: datetime) -> None:
    """Send the timeout task when the current transaction commits."""
    transaction.on_commit(lambda: send_timeout(game_id, ply, deadline), robust=True)


def spend_vacation(
    game: Game,
    *,
    seat: int | None,
    now: datetime,
    user: User | None = None,
    lookup_user: bool = True,
) -> rules.VacationSpend:
    """Spend the to-move player's vacation on the game's passed deadline (saves the user; the
    caller saves the game). ``user``, when given, is already locked; otherwise it is looked up
    and locked unless ``lookup_user`` is False."""
    if user is None and lookup_user and game.vacation_allowed and seat is not None:
        seat_row = Seat.objects.filter(game_id=game.pk, seat=seat).first()
        if seat_row is not None and seat_row.user_id is not None:
            user = User.objects.select_for_update().get(pk=seat_row.user_id)
    if user is None or not game.vacation_allowed:
        return rules.VacationSpend(game.deadline, 0, game.deadline <= now)
    balance = vacation_balance(user, now)
    spend = rules.spend_vacation(
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
