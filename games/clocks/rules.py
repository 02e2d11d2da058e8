"""Game clocks: the pure arithmetic of live clocks, start windows, turn-based deadlines and
vacation (no Django; every function takes its "now"). The rules they compute are in
``docs/timeouts.md``; the time control itself is ``timecontrol``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from games.clocks.timecontrol import ClockError

VACATION_HOURS_PER_YEAR = 240


# --- live clocks --------------------------------------------------------------------------


def elapsed_ms(since: datetime, now: datetime) -> int:
    """Whole milliseconds from ``since`` to ``now`` (never negative)."""
    delta = now - since
    return max(0, delta // timedelta(milliseconds=1))


@dataclass(frozen=True, slots=True)
class LiveCharge:
    """The result of charging a move to a live clock."""

    clocks_ms: tuple[int, ...]
    flagged: bool  # the mover's time had run out: the move does not count, the seat loses


def charge_move(
    *, clocks_ms: Sequence[int], seat: int, spent_ms: int, increment_seconds: int
) -> LiveCharge:
    """Charge ``spent_ms`` to ``seat`` (1-based) and add the increment after the move.

    A seat with no time left (``remaining <= 0``) is flagged and the clocks are unchanged."""
    clocks = list(clocks_ms)
    remaining = clocks[seat - 1] - spent_ms
    if remaining <= 0:
        return LiveCharge(tuple(clocks_ms), True)
    clocks[seat - 1] = remaining + increment_seconds * 1000
    return LiveCharge(tuple(clocks), False)


def live_deadline(*, turn_started_at: datetime, remaining_ms: int) -> datetime:
    return turn_started_at + timedelta(milliseconds=remaining_ms)


def remaining_now(
    *,
    clocks_ms: Sequence[int],
    to_move_seat: int | None,
    turn_started_at: datetime | None,
    now: datetime,
) -> tuple[int, ...]:
    """Clocks as they stand at ``now`` (the running clock has its elapsed time taken off)."""
    clocks = list(clocks_ms)
    if to_move_seat and turn_started_at is not None and 0 < to_move_seat <= len(clocks):
        clocks[to_move_seat - 1] = max(
            0, clocks[to_move_seat - 1] - elapsed_ms(turn_started_at, now)
        )
    return tuple(clocks)


# --- start window ---------------------------------------------------------------------------

#: The initial time up to which the start window is the base one.
WINDOW_BASE_MINUTES = 10
#: The window's ceiling, in base windows.
WINDOW_CAP_FACTOR = 5


def start_window(*, base_seconds: int, initial_minutes: int) -> timedelta:
    """The time a seat has for its first action: ``base_seconds`` for initial times up to 10
    minutes, plus 10% of the initial time beyond 10 minutes, at most five times the base (60 s:
    15 minutes give 90 s, 30 minutes 180 s, 50 minutes and more 300 s)."""
    extra = max(0, initial_minutes - WINDOW_BASE_MINUTES) * 60 // 10
    return timedelta(seconds=min(base_seconds + extra, base_seconds * WINDOW_CAP_FACTOR))


def clock_waits(*, starts_with_centre: bool, awaiting_seats: Iterable[int]) -> bool:
    """Whether the timer rule holds the clocks: a centre-stone game in which a seat other than
    seat 1 has not yet made an action of its own."""
    return starts_with_centre and any(seat != 1 for seat in awaiting_seats)


# --- turn-based deadlines -----------------------------------------------------------------


def zone(name: str | None) -> ZoneInfo:
    """The IANA zone ``name`` (UTC when empty or unknown)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _weekend(weekend_days: Iterable[int] | None) -> frozenset[int]:
    days = frozenset(int(d) for d in (weekend_days or ()) if 0 <= int(d) <= 6)
    return frozenset() if len(days) == 7 else days  # a week with no working day: ignore


def _instant(wall: datetime, tz: ZoneInfo) -> datetime:
    """The naive local time ``wall`` in ``tz`` as a UTC instant.

    An ambiguous time (a fall-back repeats it) is its first occurrence; a time that does not
    exist (a spring-forward gap skips it) moves forward to the first instant after the gap."""
    wall = wall.replace(fold=0)
    after = wall.replace(tzinfo=tz).astimezone(UTC)  # fold 0: the offset before a change
    if after.astimezone(tz).replace(tzinfo=None) == wall:
        return after
    # In a gap: with the offset before the jump ``wall`` reads as an instant after the gap,
    # with the offset after it as one before; the gap ends in between, on a whole second.
    before = wall.replace(tzinfo=tz, fold=1).astimezone(UTC)
    low, high = math.floor(before.timestamp()), math.ceil(after.timestamp())
    while high - low > 1:  # the first whole second whose local time is at least ``wall``
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, tz).replace(tzinfo=None) >= wall:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, UTC)


def _midnight(day: date, tz: ZoneInfo) -> datetime:
    """00:00 of ``day`` in ``tz``, as UTC (a midnight that a DST gap skips: the gap's end)."""
    return _instant(datetime.combine(day, time(0)), tz)


def _next_working(day: date, weekend: frozenset[int]) -> date:
    while day.weekday() in weekend:
        day += timedelta(days=1)
    return day


def turn_deadline(
    *, start: datetime, days: int, time_zone: str | None, weekend_days: Iterable[int] | None
) -> datetime:
    """The deadline of a turn that starts at ``start`` (``docs/timeouts.md``), in UTC:
    the local time of day of ``start`` (00:00 when it is a weekend day) on the ``days``-th
    working day after it."""
    if days < 1:
        raise ClockError("Days per move must be at least 1.")
    tz = zone(time_zone)
    weekend = _weekend(weekend_days)
    wall = start.astimezone(tz).replace(tzinfo=None)
    if wall.weekday() in weekend:  # counting starts when the weekend ends
        wall = datetime.combine(_next_working(wall.date(), weekend), time(0))
    day = wall.date()
    for _ in range(days):
        day = _next_working(day + timedelta(days=1), weekend)
    return _instant(datetime.combine(day, wall.time()), tz)


def add_working_time(
    *,
    at: datetime,
    delta: timedelta,
    time_zone: str | None,
    weekend_days: Iterable[int] | None,
) -> datetime:
    """``at`` moved on by ``delta`` of the player's working time (weekend days do not count).

    A moment inside a weekend counts from the end of it; a result on the midnight that starts a
    weekend moves to the end of that weekend."""
    tz = zone(time_zone)
    weekend = _weekend(weekend_days)
    current = at.astimezone(UTC)
    left = delta
    while True:
        local_day = current.astimezone(tz).date()
        if local_day.weekday() in weekend:
            current = _midnight(_next_working(local_day, weekend), tz)
            continue
        day_end = _midnight(local_day + timedelta(days=1), tz)
        if left < day_end - current:
            return current + left
        left -= day_end - current
        current = day_end
        if left <= timedelta(0):
            next_day = day_end.astimezone(tz).date()
            return _midnight(_next_working(next_day, weekend), tz)


# --- vacation -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VacationBalance:
    hours_left: int
    year: int


def vacation_balance(
    *, hours_left: int, year: int, now: datetime, time_zone: str | None
) -> VacationBalance:
    """The balance at ``now``: a new calendar year (in the player's zone) restores 240 hours."""
    current_year = now.astimezone(zone(time_zone)).year
    if year != current_year:
        return VacationBalance(VACATION_HOURS_PER_YEAR, current_year)
    return VacationBalance(max(0, hours_left), year)


@dataclass(frozen=True, slots=True)
class VacationSpend:
    deadline: datetime  # the (possibly extended) deadline
    hours_spent: int
    timed_out: bool  # the deadline is still past: the player to move loses on time


def spend_vacation(
    *,
    deadline: datetime,
    now: datetime,
    hours_left: int,
    allowed: bool,
    time_zone: str | None,
    weekend_days: Iterable[int] | None,
) -> VacationSpend:
    """Spend vacation an hour at a time while ``deadline`` has passed (``deadline <= now``)."""
    spent = 0
    while deadline <= now and allowed and spent < hours_left:
        deadline = add_working_time(
            at=deadline, delta=timedelta(hours=1), time_zone=time_zone, weekend_days=weekend_days
        )
        spent += 1
    return VacationSpend(deadline, spent, deadline <= now)
