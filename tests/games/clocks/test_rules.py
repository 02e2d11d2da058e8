"""Pure clock arithmetic (games.clocks.rules): frozen times passed explicitly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.clocks import rules as clocks

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
# 2025-01-02 is a Thursday.


def test_thursday_plus_three_days_lands_on_tuesday_midnight():
    start = local("UTC", 2025, 1, 2, 10, 30)
    got = clocks.turn_deadline(start=start, days=3, time_zone="UTC", weekend_days=SAT_SUN)
    assert got == local("UTC", 2025, 1, 7, 0, 0)
    assert got.weekday() == 1  # Tuesday


@pytest.mark.parametrize("hour", [0, 10, 23])
def test_friday_plus_one_day_lands_on_monday_midnight(hour):
    start = local("UTC", 2025, 1, 3, hour, 30)
    got = clocks.turn_deadline(start=start, days=1, time_zone="UTC", weekend_days=SAT_SUN)
    assert got == local("UTC", 2025, 1, 6, 0, 0)


@pytest.mark.parametrize("day", [4, 5])  # Saturday and Sunday
def test_weekend_move_plus_one_day_lands_on_tuesday_midnight(day):
    start = local("UTC", 2025, 1, day, 15, 0)
    got = clocks.turn_deadline(start=start, days=1, time_zone="UTC", weekend_days=SAT_SUN)
    assert got == local("UTC", 2025, 1, 7, 0, 0)


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Tokyo"])
def test_weekend_examples_hold_in_the_players_own_zone(zone):
    thursday = clocks.turn_deadline(
        start=local(zone, 2025, 1, 2, 10, 30), days=3, time_zone=zone, weekend_days=SAT_SUN
    )
    friday = clocks.turn_deadline(
        start=local(zone, 2025, 1, 3, 10, 30), days=1, time_zone=zone, weekend_days=SAT_SUN
    )
    saturday = clocks.turn_deadline(
        start=local(zone, 2025, 1, 4, 10, 30), days=1, time_zone=zone, weekend_days=SAT_SUN
    )
    assert thursday == local(zone, 2025, 1, 7, 0, 0)
    assert friday == local(zone, 2025, 1, 6, 0, 0)
    assert saturday == local(zone, 2025, 1, 7, 0, 0)
    assert thursday.tzinfo is UTC


def test_the_zone_decides_which_day_a_utc_moment_falls_on():
    # Friday 23:30 UTC is already Saturday 08:30 in Tokyo: counting starts on Monday there.
    start = datetime(2025, 1, 3, 23, 30, tzinfo=UTC)
    utc = clocks.turn_deadline(start=start, days=1, time_zone="UTC", weekend_days=SAT_SUN)
    tokyo = clocks.turn_deadline(start=start, days=1, time_zone="Asia/Tokyo", weekend_days=SAT_SUN)
    assert utc == local("UTC", 2025, 1, 6)
    assert tokyo == local("Asia/Tokyo", 2025, 1, 7)


def test_custom_weekend_days_are_skipped():
    # Friday/Saturday weekend: Thursday + 1 ends on Friday 00:00 -> moved to Sunday 00:00.
    start = local("Asia/Tokyo", 2025, 1, 2, 9, 0)
    got = clocks.turn_deadline(start=start, days=1, time_zone="Asia/Tokyo", weekend_days=[4, 5])
    assert got == local("Asia/Tokyo", 2025, 1, 5)


def test_no_weekend_counts_every_day():
    start = local("UTC", 2025, 1, 2, 10, 30)
    got = clocks.turn_deadline(start=start, days=3, time_zone="UTC", weekend_days=[])
    assert got == local("UTC", 2025, 1, 5)


def test_thirty_days_skip_every_weekend_on_the_way():
    start = local("UTC", 2025, 1, 6, 9, 0)  # Monday
    got = clocks.turn_deadline(start=start, days=30, time_zone="UTC", weekend_days=SAT_SUN)
    assert got == local("UTC", 2025, 2, 15) + timedelta(days=2)  # 6 weeks: Monday 17 Feb


def test_deadline_across_a_dst_change_is_local_midnight():
    # New York springs forward on Sunday 2025-03-09.
    start = local("America/New_York", 2025, 3, 6, 22, 0)  # Thursday
    got = clocks.turn_deadline(
        start=start, days=3, time_zone="America/New_York", weekend_days=SAT_SUN
    )
    assert got.astimezone(ZoneInfo("America/New_York")) == local("America/New_York", 2025, 3, 11)


def test_unknown_zone_falls_back_to_utc():
    start = local("UTC", 2025, 1, 2, 10, 30)
    got = clocks.turn_deadline(start=start, days=3, time_zone="Mars/Olympus", weekend_days=SAT_SUN)
    assert got == local("UTC", 2025, 1, 7)


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
