"""The ``TimeControl`` value (games.clocks.timecontrol): validation, category, header, fields."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from games.clocks.timecontrol import Category, ClockError, Kind, TimeControl
from pente_site.errors import ErrorKind

# --- categories ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("initial", "increment", "expected"),
    [
        (5, 2, "speed"),
        (4, 6, "speed"),
        (1, 5, "speed"),
        (6, 0, "normal"),
        (4, 7, "normal"),
        (0, 23, "speed"),
        (0, 24, "normal"),
        (5, 3, "normal"),
        (999, 59, "normal"),
    ],
)
def test_category_of_live_time_control(initial, increment, expected):
    assert TimeControl.live(initial, increment).category == expected


def test_category_of_turn_based_and_untimed():
    assert TimeControl.turn(3).category == Category.TURN == "turn"
    assert TimeControl.untimed().category == Category.UNTIMED == "untimed"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time_control": "live", "initial_minutes": 0, "increment_seconds": 0},
        {"time_control": "live", "initial_minutes": 1000, "increment_seconds": 0},
        {"time_control": "live", "initial_minutes": 5, "increment_seconds": 60},
        {"time_control": "live", "initial_minutes": -1, "increment_seconds": 5},
        {"time_control": "turn", "days_per_move": 0},
        {"time_control": "turn", "days_per_move": 31},
        {"time_control": "blitz"},
        {"time_control": "live", "initial_minutes": 5, "days_per_move": 3},
        {"time_control": "turn", "days_per_move": 3, "initial_minutes": 5},
        {"time_control": "turn", "days_per_move": 3, "increment_seconds": 5},
        {"time_control": "none", "days_per_move": 3},
        {"time_control": "none", "initial_minutes": 1},
        {"time_control": "live", "initial_minutes": 5.0},
        {"time_control": "live", "initial_minutes": True},
    ],
)
def test_a_time_control_the_rules_forbid_cannot_be_made(kwargs):
    with pytest.raises(ClockError) as info:
        TimeControl.from_fields(**kwargs)
    assert info.value.code == "bad_time_control"
    assert info.value.kind is ErrorKind.INVALID


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time_control": "none"},
        {"time_control": "live", "initial_minutes": 0, "increment_seconds": 1},
        {"time_control": "live", "initial_minutes": 999, "increment_seconds": 59},
        {"time_control": "turn", "days_per_move": 1},
        {"time_control": "turn", "days_per_move": 30},
    ],
)
def test_a_time_control_at_the_limits_is_made(kwargs):
    made = TimeControl.from_fields(**kwargs)
    assert made.kind == kwargs["time_control"]


def test_an_increment_only_clock_starts_at_one_increment():
    assert TimeControl.live(0, 20).initial_clock_ms == 20_000
    assert TimeControl.live(5, 2).initial_clock_ms == 300_000


@pytest.mark.parametrize(
    ("made", "header"),
    [
        (TimeControl.live(5, 2), "5+2"),
        (TimeControl.live(15), "15"),
        (TimeControl.live(0, 20), "0+20"),
        (TimeControl.turn(3), "3"),
        (TimeControl.untimed(), None),
    ],
)
def test_the_record_header_text_of_a_time_control(made, header):
    assert made.header_text == header


def test_fields_and_of_round_trip_through_a_row():
    for made in (TimeControl.live(5, 2), TimeControl.turn(7), TimeControl.untimed()):
        row = SimpleNamespace(**made.fields())
        assert TimeControl.of(row) == made


def test_of_reads_only_the_numbers_a_rows_kind_uses():
    row = SimpleNamespace(
        time_control="turn", initial_minutes=5, increment_seconds=2, days_per_move=3
    )
    assert TimeControl.of(row) == TimeControl.turn(3)


def test_pop_from_takes_the_four_values_out_of_request_data():
    data = {"time_control": "live", "initial_minutes": 3, "rated": True}
    assert TimeControl.pop_from(data) == TimeControl(Kind.LIVE, 3)
    assert data == {"rated": True}
    assert TimeControl.pop_from({}) == TimeControl.untimed()
