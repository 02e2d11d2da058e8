"""Game clocks: pure arithmetic, no Django (the time control itself is ``timecontrol``).

Everything here takes the server's own timestamps (timezone-aware ``datetime``) explicitly, so
it is deterministic and testable with a frozen "now".

Live time controls (Fischer)
    ``initial_minutes`` (0..999) plus ``increment_seconds`` (0..59), not both zero. Each seat's
    clock starts at the initial time; when a seat moves, the time since its turn started is
    charged to it and, if it had time left, the increment is added *after* the move. A seat whose
    clock reaches zero before it moves loses on time. With no initial time (e.g. 0+20) every
    clock starts at one increment, so the first move is possible at all.

Category (used by ratings)
    live: **speed** when ``initial*60 + increment*15 <= 330`` (with no initial time: when the
    increment is under 24 s), otherwise **normal**; turn-based: **turn**; no clock: **untimed**.

Turn-based deadlines (1..30 days per move)
    Days are counted as whole *working days* of the player to move, in that player's own time
    zone (their weekend days, default Saturday and Sunday, never count):

    1. If the turn starts on a weekend day, counting starts at 00:00 of the next working day.
    2. The day the turn starts (or that first working day) is the first counted day; the
       deadline is the midnight that *ends* the ``days``-th working day.
    3. A deadline falling on the midnight that starts a weekend moves to the end of that
       weekend (00:00 of the next working day).

    So with a Saturday/Sunday weekend: Thursday 10:30 + 3 days counts Thursday, Friday, Monday
    and ends on Tuesday 00:00; Friday + 1 ends on Monday 00:00; Saturday + 1 counts Monday and
    ends on Tuesday 00:00. A consequence (the price of day-granular deadlines): the rest of the
    day the turn starts counts as a whole day, so a turn that starts late in the evening has
    less than ``days * 24`` hours. Deadlines are always local midnights.

Vacation (turn-based games only)
    10 days (240 hours) a calendar year per player (the year in the player's zone; the balance
    resets to 240 when the year changes). When a deadline passes and the game allows vacation,
    one hour is spent and the deadline moves one hour of *working time* on (skipping the weekend
    again); this repeats while the deadline is still past and hours are left. With no hours left
    (or vacation not allowed) the player to move loses on time.

Loss on time
    The seat that runs out of time loses: two seats, the opponent wins; partners, the other team
    wins; more seats, the game ends and every other seat is listed as a winner (the timed-out
    seat is the only loser).
"""

from __future__ import annotations

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


def _midnight(day: date, tz: ZoneInfo) -> datetime:
    """00:00 of ``day`` in ``tz``, as UTC (a midnight that a DST jump skips maps forward)."""
    return datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)


def _next_working(day: date, weekend: frozenset[int]) -> date:
    while day.weekday() in weekend:
        day += timedelta(days=1)
    return day


def turn_deadline(
    *, start: datetime, days: int, time_zone: str | None, weekend_days: Iterable[int] | None
) -> datetime:
    """The deadline of a turn that starts at ``start`` (see the module docstring), in UTC."""
    if days < 1:
        raise ClockError("Days per move must be at least 1.")
    tz = zone(time_zone)
    weekend = _weekend(weekend_days)
    day = _next_working(start.astimezone(tz).date(), weekend)
    counted = 1
    while counted < days:
        day = _next_working(day + timedelta(days=1), weekend)
        counted += 1
    return _midnight(_next_working(day + timedelta(days=1), weekend), tz)


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
