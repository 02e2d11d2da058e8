"""Pure clock arithmetic (games.clocks.rules): frozen times passed explicitly."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.clocks import rules as clocks
from games.clocks.timecontrol import ClockError

SAT_SUN = [5, 6]


def local(zone: str, *args: int) -> datetime:
    return datetime(*args, tzinfo=ZoneInfo(zone))


# --- Fischer accounting -------------------------------------------------------------------


def test_fischer_move_is_charged_then_the_increment_added():
    charge = clocks.charge_move(
        clocks_ms=[300_000, 300_000], seat=1, spent_ms=10_000, increment_seconds=2
    )
    assert charge == clocks.LiveCharge((292_000, 300_000), False)


def test_fischer_increment_can_grow_the_clock_past_the_initial_time():
    charge = clocks.charge_move(
        clocks_ms=[300_000, 300_000], seat=2, spent_ms=500, increment_seconds=6
    )
    assert charge.clocks_ms == (300_000, 305_500)


def test_a_move_after_the_clock_ran_out_is_flagged_and_changes_nothing():
    charge = clocks.charge_move(
        clocks_ms=[1_000, 5_000], seat=1, spent_ms=1_000, increment_seconds=10
    )
    assert charge.flagged
    assert charge.clocks_ms == (1_000, 5_000)


def test_a_move_one_millisecond_before_the_flag_counts():
    charge = clocks.charge_move(clocks_ms=[1_000, 5_000], seat=1, spent_ms=999, increment_seconds=0)
    assert not charge.flagged
    assert charge.clocks_ms == (1, 5_000)


def test_elapsed_ms_uses_server_timestamps_and_is_never_negative():
    t0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
    assert clocks.elapsed_ms(t0, t0 + timedelta(seconds=1, microseconds=2500)) == 1002
    assert clocks.elapsed_ms(t0, t0 - timedelta(seconds=3)) == 0


def test_remaining_now_runs_only_the_clock_of_the_seat_to_move():
    t0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
    now = t0 + timedelta(seconds=7)
    got = clocks.remaining_now(
        clocks_ms=[60_000, 60_000], to_move_seat=2, turn_started_at=t0, now=now
    )
    assert got == (60_000, 53_000)
    late = t0 + timedelta(minutes=5)
    assert clocks.remaining_now(
        clocks_ms=[60_000, 60_000], to_move_seat=1, turn_started_at=t0, now=late
    ) == (0, 60_000)


# --- turn-based deadlines -----------------------------------------------------------------
# 2025-01-02 is a Thursday. The rule: the days per move are whole local days of the player to
# move that are not that player's weekend days; the local time of day is kept.


def deadline(start: datetime, days: int, zone: str, weekend=SAT_SUN) -> datetime:
    return clocks.turn_deadline(start=start, days=days, time_zone=zone, weekend_days=weekend)


# The rule book's four examples (weekend Saturday and Sunday).


def test_rule_book_one_day_turn_begun_thursday_2351_ends_friday_2351():
    start = local("UTC", 2025, 1, 2, 23, 51)
    assert deadline(start, 1, "UTC") == local("UTC", 2025, 1, 3, 23, 51)


def test_rule_book_one_day_turn_begun_friday_1000_ends_monday_1000():
    start = local("UTC", 2025, 1, 3, 10, 0)
    assert deadline(start, 1, "UTC") == local("UTC", 2025, 1, 6, 10, 0)


def test_rule_book_one_day_turn_begun_saturday_1500_ends_tuesday_midnight():
    start = local("UTC", 2025, 1, 4, 15, 0)
    assert deadline(start, 1, "UTC") == local("UTC", 2025, 1, 7, 0, 0)


def test_rule_book_two_day_turn_begun_thursday_1000_ends_monday_1000():
    start = local("UTC", 2025, 1, 2, 10, 0)
    assert deadline(start, 2, "UTC") == local("UTC", 2025, 1, 6, 10, 0)


# Midnight and the weekend's edges.


def test_a_turn_begun_at_midnight_ends_at_midnight_whole_days_later():
    start = local("UTC", 2025, 1, 1, 0, 0)  # Wednesday
    assert deadline(start, 1, "UTC") == local("UTC", 2025, 1, 2, 0, 0)
    assert deadline(start, 2, "UTC") == local("UTC", 2025, 1, 3, 0, 0)


def test_working_time_ending_at_the_midnight_that_starts_the_weekend_ends_when_it_ends():
    # Friday 00:00 + 1 day: the working time runs out at Saturday 00:00; no working time lies
    # between then and Monday 00:00, and the deadline is the latter (a working day, 00:00 kept).
    assert deadline(local("UTC", 2025, 1, 3, 0, 0), 1, "UTC") == local("UTC", 2025, 1, 6, 0, 0)
    assert deadline(local("UTC", 2025, 1, 2, 0, 0), 2, "UTC") == local("UTC", 2025, 1, 6, 0, 0)


def test_one_microsecond_after_midnight_keeps_its_time_of_day():
    start = local("UTC", 2025, 1, 3, 0, 0, 0, 1)  # Friday
    assert deadline(start, 1, "UTC") == local("UTC", 2025, 1, 6, 0, 0, 0, 1)


@pytest.mark.parametrize(
    "start",
    [
        (2025, 1, 4, 0, 0),  # Saturday, the first instant of the weekend
        (2025, 1, 4, 15, 0),
        (2025, 1, 5, 0, 0),  # Sunday
        (2025, 1, 5, 23, 59, 59, 999999),  # the last instant of the weekend
    ],
)
def test_a_turn_begun_on_either_weekend_day_counts_from_monday_midnight(start):
    got = deadline(local("UTC", *start), 1, "UTC")
    assert got == local("UTC", 2025, 1, 7, 0, 0)  # Tuesday 00:00
    assert deadline(local("UTC", *start), 3, "UTC") == local("UTC", 2025, 1, 9, 0, 0)


def test_a_turn_begun_on_monday_midnight_is_not_delayed():
    assert deadline(local("UTC", 2025, 1, 6, 0, 0), 1, "UTC") == local("UTC", 2025, 1, 7, 0, 0)


def test_a_friday_saturday_weekend_is_skipped_and_sunday_counts():
    fri_sat = [4, 5]
    thursday = local("Asia/Riyadh", 2025, 1, 2, 10, 0)
    assert deadline(thursday, 1, "Asia/Riyadh", fri_sat) == local("Asia/Riyadh", 2025, 1, 5, 10)
    friday = local("Asia/Riyadh", 2025, 1, 3, 10, 0)
    saturday = local("Asia/Riyadh", 2025, 1, 4, 10, 0)
    sunday_midnight = local("Asia/Riyadh", 2025, 1, 5, 0, 0)
    assert deadline(friday, 1, "Asia/Riyadh", fri_sat) == local("Asia/Riyadh", 2025, 1, 6)
    assert deadline(saturday, 1, "Asia/Riyadh", fri_sat) == local("Asia/Riyadh", 2025, 1, 6)
    assert deadline(sunday_midnight, 1, "Asia/Riyadh", fri_sat) == local("Asia/Riyadh", 2025, 1, 6)
    # Saturday and Sunday are not this player's weekend: a Friday-morning turn ends Sunday.
    assert deadline(local("Asia/Riyadh", 2025, 1, 2, 8), 2, "Asia/Riyadh", fri_sat) == local(
        "Asia/Riyadh", 2025, 1, 6, 8
    )


def test_a_single_midweek_weekend_day_is_skipped():
    tuesday = local("UTC", 2025, 1, 7, 18, 0)
    assert deadline(tuesday, 1, "UTC", [2]) == local("UTC", 2025, 1, 9, 18, 0)  # Thursday


@pytest.mark.parametrize("weekend", [[], None, list(range(7))])
def test_no_weekend_counts_every_day_as_24_hours(weekend):
    # A player with no weekend (an empty list, none given, or all seven days, which is ignored).
    friday = local("UTC", 2025, 1, 3, 10, 30)
    for days in (1, 2, 3, 30):
        assert deadline(friday, days, "UTC", weekend) == friday + timedelta(days=days)


def test_thirty_day_turn_skips_every_weekend_on_the_way():
    monday = local("UTC", 2025, 1, 6, 9, 0)
    assert deadline(monday, 30, "UTC") == local("UTC", 2025, 2, 17, 9, 0)  # six weeks on
    friday_late = local("UTC", 2025, 1, 3, 23, 59)
    assert deadline(friday_late, 30, "UTC") == local("UTC", 2025, 2, 14, 23, 59)  # a Friday
    saturday = local("UTC", 2025, 1, 4, 12, 0)
    assert deadline(saturday, 30, "UTC") == local("UTC", 2025, 2, 17, 0, 0)


def test_deadlines_are_utc_instants():
    got = deadline(local("America/New_York", 2025, 1, 2, 10, 30), 3, "America/New_York")
    assert got.tzinfo is UTC
    assert got == local("America/New_York", 2025, 1, 7, 10, 30)


def test_the_zone_decides_which_day_a_utc_moment_falls_on():
    # Friday 23:30 UTC is already Saturday 08:30 in Tokyo: there counting starts on Monday.
    start = datetime(2025, 1, 3, 23, 30, tzinfo=UTC)
    assert deadline(start, 1, "UTC") == local("UTC", 2025, 1, 6, 23, 30)
    assert deadline(start, 1, "Asia/Tokyo") == local("Asia/Tokyo", 2025, 1, 7, 0, 0)


def test_unknown_zone_falls_back_to_utc():
    start = local("UTC", 2025, 1, 2, 10, 30)
    assert deadline(start, 3, "Mars/Olympus") == local("UTC", 2025, 1, 7, 10, 30)
    assert deadline(start, 3, None) == local("UTC", 2025, 1, 7, 10, 30)


def test_fewer_than_one_day_per_move_is_refused():
    with pytest.raises(ClockError):
        deadline(local("UTC", 2025, 1, 2, 10, 30), 0, "UTC")


# Zones whose offset is not a whole number of hours.


def test_kabul_one_day_turn_begun_thursday_2351_has_a_whole_day():
    # The complaint behind the rule: this turn used to end at midnight, 8 minutes later.
    start = local("Asia/Kabul", 2025, 1, 2, 23, 51, 16)  # +04:30, 19:21:16 UTC
    got = deadline(start, 1, "Asia/Kabul")
    assert got == local("Asia/Kabul", 2025, 1, 3, 23, 51, 16)
    assert got - start == timedelta(hours=24)


def test_kathmandu_weekend_starts_at_its_own_midnight():
    # Friday 18:20 UTC is Saturday 00:05 in Kathmandu (+05:45): counting starts Monday 00:00.
    start = datetime(2025, 1, 3, 18, 20, tzinfo=UTC)
    got = deadline(start, 1, "Asia/Kathmandu")
    assert got == local("Asia/Kathmandu", 2025, 1, 7, 0, 0)
    assert got == datetime(2025, 1, 6, 18, 15, tzinfo=UTC)
    before = datetime(2025, 1, 3, 18, 10, tzinfo=UTC)  # still Friday 23:55 there
    assert deadline(before, 1, "Asia/Kathmandu") == local("Asia/Kathmandu", 2025, 1, 6, 23, 55)


# Daylight saving time: whole local days (23 or 25 hours of real time across a change).
# Europe/Berlin: 2025-03-30 02:00 -> 03:00, 2025-10-26 03:00 -> 02:00 (both Sundays).
# America/New_York: 2025-03-09 02:00 -> 03:00, 2025-11-02 02:00 -> 01:00 (Sundays).
# Australia/Sydney: 2025-04-06 03:00 -> 02:00 (DST ends), 2025-10-05 02:00 -> 03:00 (Sundays).


@pytest.mark.parametrize(
    ("zone", "start", "end", "hours"),
    [
        ("Europe/Berlin", (2025, 3, 29, 12, 0), (2025, 3, 30, 12, 0), 23),
        ("Europe/Berlin", (2025, 10, 25, 12, 0), (2025, 10, 26, 12, 0), 25),
        ("America/New_York", (2025, 3, 8, 12, 0), (2025, 3, 9, 12, 0), 23),
        ("America/New_York", (2025, 11, 1, 12, 0), (2025, 11, 2, 12, 0), 25),
        ("Australia/Sydney", (2025, 10, 4, 12, 0), (2025, 10, 5, 12, 0), 23),
        ("Australia/Sydney", (2025, 4, 5, 12, 0), (2025, 4, 6, 12, 0), 25),
    ],
)
def test_a_day_across_a_dst_change_keeps_the_local_time(zone, start, end, hours):
    begun = local(zone, *start)
    got = deadline(begun, 1, zone, [])  # no weekend: the Sunday of the change counts
    assert got == local(zone, *end)
    assert got - begun == timedelta(hours=hours)


@pytest.mark.parametrize(
    ("zone", "start", "end_utc"),
    [
        # 02:30 does not exist on the landing day: the deadline is the end of the gap, 03:00.
        ("Europe/Berlin", (2025, 3, 29, 2, 30), (2025, 3, 30, 1, 0)),
        ("America/New_York", (2025, 3, 8, 2, 30), (2025, 3, 9, 7, 0)),
        ("Australia/Sydney", (2025, 10, 4, 2, 15), (2025, 10, 4, 16, 0)),
    ],
)
def test_a_local_time_skipped_by_spring_forward_moves_to_the_end_of_the_gap(zone, start, end_utc):
    got = deadline(local(zone, *start), 1, zone, [])
    assert got == datetime(*end_utc, tzinfo=UTC)
    assert got.astimezone(ZoneInfo(zone)).time() == time(3, 0)


@pytest.mark.parametrize(
    ("zone", "start", "end_utc"),
    [
        # The landing time occurs twice: the deadline is its first occurrence (24 h of real time).
        ("Europe/Berlin", (2025, 10, 25, 2, 30), (2025, 10, 26, 0, 30)),
        ("America/New_York", (2025, 11, 1, 1, 30), (2025, 11, 2, 5, 30)),
        ("Australia/Sydney", (2025, 4, 5, 2, 30), (2025, 4, 5, 15, 30)),
    ],
)
def test_a_local_time_repeated_by_fall_back_takes_its_first_occurrence(zone, start, end_utc):
    begun = local(zone, *start)
    got = deadline(begun, 1, zone, [])
    assert got == datetime(*end_utc, tzinfo=UTC)
    assert got - begun == timedelta(hours=24)


def test_a_turn_begun_in_the_repeated_hour_keeps_its_local_time():
    # New York 01:30 on 2025-11-02 occurs at 05:30 UTC (EDT) and again at 06:30 UTC (EST).
    first = datetime(2025, 11, 2, 5, 30, tzinfo=UTC)
    second = datetime(2025, 11, 2, 6, 30, tzinfo=UTC)
    monday = local("America/New_York", 2025, 11, 3, 1, 30)  # EST, 06:30 UTC
    assert deadline(first, 1, "America/New_York", []) == monday  # 25 h
    assert deadline(second, 1, "America/New_York", []) == monday  # 24 h


def test_a_dst_change_on_the_weekend_shortens_the_weekend_not_the_turn():
    # Friday 10:00 + 1 day ends Monday 10:00 local; the lost hour was a weekend hour.
    for zone, friday, monday in [
        ("Europe/Berlin", (2025, 3, 28, 10), (2025, 3, 31, 10)),
        ("America/New_York", (2025, 3, 7, 10), (2025, 3, 10, 10)),
        ("Australia/Sydney", (2025, 10, 3, 10), (2025, 10, 6, 10)),
    ]:
        got = deadline(local(zone, *friday), 1, zone)
        assert got == local(zone, *monday)
        assert got - local(zone, *friday) == timedelta(hours=71)


def test_deadline_across_a_dst_change_keeps_the_time_of_day_new_york():
    start = local("America/New_York", 2025, 3, 6, 22, 0)  # Thursday, EST
    got = deadline(start, 3, "America/New_York")  # Friday, Monday, Tuesday
    assert got == local("America/New_York", 2025, 3, 11, 22, 0)  # EDT
    assert got - start == timedelta(days=5) - timedelta(hours=1)


# Properties, over many starts, zones and weekends.

ZONES = [
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Australia/Sydney",
    "Asia/Kabul",
    "Asia/Kathmandu",
    "Asia/Tokyo",
]
NO_DST = ["UTC", "Asia/Kabul", "Asia/Kathmandu", "Asia/Tokyo"]  # none since 2000
# Instants of DST changes (UTC) to start turns near, so that deadlines land in gaps and repeats.
CHANGES = [
    ("Europe/Berlin", datetime(2025, 3, 30, 1, 0, tzinfo=UTC)),
    ("Europe/Berlin", datetime(2025, 10, 26, 1, 0, tzinfo=UTC)),
    ("America/New_York", datetime(2025, 3, 9, 7, 0, tzinfo=UTC)),
    ("America/New_York", datetime(2025, 11, 2, 6, 0, tzinfo=UTC)),
    ("Australia/Sydney", datetime(2025, 4, 5, 16, 0, tzinfo=UTC)),
    ("Australia/Sydney", datetime(2025, 10, 4, 16, 0, tzinfo=UTC)),
]
PROPERTIES = settings(max_examples=300, deadline=None)

instants = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2037, 12, 31)).map(
    lambda naive: naive.replace(tzinfo=UTC)
)
weekends = st.sets(st.integers(0, 6), max_size=6)
day_counts = st.integers(1, 30)


def working_clock_time(start: datetime, end: datetime, zone: str, weekend) -> timedelta:
    """Local clock time from ``start`` to ``end`` that lies on days not in ``weekend``, day by
    day on the naive local times (an oracle written apart from the rule's code)."""
    tz = ZoneInfo(zone)
    a = start.astimezone(tz).replace(tzinfo=None)
    b = end.astimezone(tz).replace(tzinfo=None)
    total = timedelta(0)
    day = a.date()
    while day <= b.date():
        if day.weekday() not in weekend:
            day_start = datetime.combine(day, time(0))
            overlap = min(b, day_start + timedelta(days=1)) - max(a, day_start)
            total += max(overlap, timedelta(0))
        day += timedelta(days=1)
    return total


def check_the_rule(start: datetime, days: int, zone: str, weekend) -> None:
    """What every deadline satisfies, stated without the rule's own arithmetic.

    1. It falls on a working day of the player's zone, and the working local clock time from
       the start to it is exactly ``days * 24`` hours, except when the local time of day it
       keeps was skipped by a spring-forward gap on the landing day: then it is the end of the
       gap, and the working clock time exceeds ``days * 24`` hours by at most the gap (an hour).
    2. Real time: ``deadline - start >= days * 24 h - (offset at deadline - offset at start)``
       when the offset grew, and ``>= days * 24 h`` otherwise; the zones used change their
       offset by one hour at most, so a turn has at least ``days * 24 - 1`` hours, and in zones
       without DST at least ``days * 24`` hours.
    """
    tz = ZoneInfo(zone)
    got = deadline(start, days, zone, weekend)
    assert got.tzinfo is UTC
    begun = start.astimezone(tz)
    kept = begun.time() if begun.weekday() not in weekend else time(0)
    ended = got.astimezone(tz)
    assert ended.weekday() not in weekend
    extra = working_clock_time(start, got, zone, weekend) - timedelta(days=days)
    if ended.time().replace(fold=0) == kept.replace(fold=0):
        assert extra == timedelta(0)
    else:  # the end of a gap: the instant before it is still earlier than the kept time
        assert timedelta(0) < extra <= timedelta(hours=1)
        just_before = (got - timedelta(microseconds=1)).astimezone(tz)
        assert just_before.utcoffset() < ended.utcoffset()
        assert just_before.time() < kept <= ended.time()
    offset_growth = max(ended.utcoffset() - begun.utcoffset(), timedelta(0))
    assert offset_growth <= timedelta(hours=1)
    assert got - start >= timedelta(days=days) - offset_growth
    if zone in NO_DST:
        assert got - start >= timedelta(days=days)


@PROPERTIES
@given(instants, day_counts, st.sampled_from(ZONES), weekends)
def test_property_every_deadline_keeps_the_rule(start, days, zone, weekend):
    check_the_rule(start, days, zone, weekend)


@PROPERTIES
@given(st.sampled_from(CHANGES), day_counts, st.integers(-150, 150), st.booleans(), weekends)
def test_property_deadlines_near_dst_changes_keep_the_rule(change, days, minutes, plain, weekend):
    zone, instant = change
    # Start whole days before the change (so that, with no weekend, the deadline lands near it).
    start = instant - timedelta(days=days) + timedelta(minutes=minutes)
    check_the_rule(start, days, zone, frozenset() if plain else weekend)


@PROPERTIES
@given(instants, day_counts, st.sampled_from(NO_DST), weekends)
def test_property_without_dst_days_are_24_hours_of_working_time_as_vacation_counts_them(
    start, days, zone, weekend
):
    # Vacation (add_working_time) counts real hours of working time; with no DST in the zone a
    # day of a turn is exactly 24 of those hours, weekend edges included.
    got = deadline(start, days, zone, weekend)
    assert got == clocks.add_working_time(
        at=start, delta=timedelta(days=days), time_zone=zone, weekend_days=weekend
    )


def test_vacation_and_turns_end_working_time_at_the_weekend_midnight_alike():
    friday = local("UTC", 2025, 1, 3, 0, 0)
    monday = local("UTC", 2025, 1, 6, 0, 0)
    assert deadline(friday, 1, "UTC") == monday
    assert (
        clocks.add_working_time(
            at=friday, delta=timedelta(hours=24), time_zone="UTC", weekend_days=SAT_SUN
        )
        == monday
    )


# --- working time -------------------------------------------------------------------------


def test_working_time_within_a_day():
    at = local("UTC", 2025, 1, 7, 0, 0)
    got = clocks.add_working_time(
        at=at, delta=timedelta(hours=1), time_zone="UTC", weekend_days=SAT_SUN
    )
    assert got == local("UTC", 2025, 1, 7, 1, 0)


def test_working_time_skips_the_weekend():
    at = local("UTC", 2025, 1, 3, 23, 30)  # Friday
    got = clocks.add_working_time(
        at=at, delta=timedelta(hours=1), time_zone="UTC", weekend_days=SAT_SUN
    )
    assert got == local("UTC", 2025, 1, 6, 0, 30)


def test_working_time_ending_at_a_weekend_moves_past_it():
    at = local("UTC", 2025, 1, 3, 23, 0)
    got = clocks.add_working_time(
        at=at, delta=timedelta(hours=1), time_zone="UTC", weekend_days=SAT_SUN
    )
    assert got == local("UTC", 2025, 1, 6, 0, 0)


def test_working_time_from_inside_a_weekend_starts_on_monday():
    at = local("America/New_York", 2025, 1, 4, 12, 0)
    got = clocks.add_working_time(
        at=at, delta=timedelta(hours=30), time_zone="America/New_York", weekend_days=SAT_SUN
    )
    assert got == local("America/New_York", 2025, 1, 7, 6, 0)


# --- vacation -----------------------------------------------------------------------------


def test_vacation_spends_one_hour_when_a_deadline_just_passed():
    deadline = local("UTC", 2025, 1, 7)
    got = clocks.spend_vacation(
        deadline=deadline,
        now=deadline + timedelta(seconds=30),
        hours_left=240,
        allowed=True,
        time_zone="UTC",
        weekend_days=SAT_SUN,
    )
    assert got == clocks.VacationSpend(local("UTC", 2025, 1, 7, 1), 1, False)


def test_vacation_catches_up_hour_by_hour_after_a_long_outage():
    deadline = local("UTC", 2025, 1, 7)
    got = clocks.spend_vacation(
        deadline=deadline,
        now=deadline + timedelta(hours=5, minutes=10),
        hours_left=240,
        allowed=True,
        time_zone="UTC",
        weekend_days=SAT_SUN,
    )
    assert got.hours_spent == 6
    assert got.deadline == local("UTC", 2025, 1, 7, 6)
    assert not got.timed_out


def test_vacation_hours_skip_the_weekend():
    deadline = local("UTC", 2025, 1, 3, 23, 30)  # a deadline pushed to Friday 23:30
    got = clocks.spend_vacation(
        deadline=deadline,
        now=deadline,
        hours_left=5,
        allowed=True,
        time_zone="UTC",
        weekend_days=SAT_SUN,
    )
    assert got == clocks.VacationSpend(local("UTC", 2025, 1, 6, 0, 30), 1, False)


def test_no_vacation_left_is_a_loss_on_time():
    deadline = local("UTC", 2025, 1, 7)
    got = clocks.spend_vacation(
        deadline=deadline,
        now=deadline + timedelta(hours=3),
        hours_left=2,
        allowed=True,
        time_zone="UTC",
        weekend_days=SAT_SUN,
    )
    assert got.hours_spent == 2
    assert got.timed_out


def test_vacation_not_allowed_times_out_at_once_and_spends_nothing():
    deadline = local("UTC", 2025, 1, 7)
    got = clocks.spend_vacation(
        deadline=deadline,
        now=deadline + timedelta(seconds=1),
        hours_left=240,
        allowed=False,
        time_zone="UTC",
        weekend_days=SAT_SUN,
    )
    assert got == clocks.VacationSpend(deadline, 0, True)


def test_deadline_not_passed_spends_nothing():
    deadline = local("UTC", 2025, 1, 7)
    got = clocks.spend_vacation(
        deadline=deadline,
        now=deadline - timedelta(seconds=1),
        hours_left=240,
        allowed=True,
        time_zone="UTC",
        weekend_days=SAT_SUN,
    )
    assert got == clocks.VacationSpend(deadline, 0, False)


def test_vacation_balance_resets_when_the_year_changes():
    now = local("UTC", 2026, 1, 1, 0, 30)
    assert clocks.vacation_balance(hours_left=3, year=2025, now=now, time_zone="UTC") == (
        clocks.VacationBalance(240, 2026)
    )
    assert clocks.vacation_balance(hours_left=3, year=2026, now=now, time_zone="UTC") == (
        clocks.VacationBalance(3, 2026)
    )


def test_vacation_year_is_the_players_local_year():
    now = datetime(2025, 12, 31, 20, 0, tzinfo=UTC)  # already 2026 in Tokyo
    tokyo = clocks.vacation_balance(hours_left=3, year=2025, now=now, time_zone="Asia/Tokyo")
    new_york = clocks.vacation_balance(
        hours_left=3, year=2025, now=now, time_zone="America/New_York"
    )
    assert tokyo == clocks.VacationBalance(240, 2026)
    assert new_york == clocks.VacationBalance(3, 2025)
