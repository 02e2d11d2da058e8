"""Point names <-> integer form on 9x9, 13x13 and 19x19 (docs/rules.md, "Board and notation")."""

from __future__ import annotations

import pytest

from games.engine import COLUMNS, IllegalMove, parse_point, point_name


def test_columns_skip_i():
    assert COLUMNS == "ABCDEFGHJKLMNOPQRST"
    assert "I" not in COLUMNS


@pytest.mark.parametrize(
    ("name", "index"),
    [("A19", 0), ("K10", 180), ("T1", 360), ("T19", 18), ("A1", 342), ("J10", 179), ("H10", 178)],
)
def test_19x19_names_and_integers_match(name, index):
    assert parse_point(name) == index
    assert point_name(index) == name


@pytest.mark.parametrize(
    ("size", "name", "index"),
    [
        (9, "A9", 0),
        (9, "J1", 80),
        (9, "E5", 40),
        (9, "H1", 79),
        (13, "A13", 0),
        (13, "N1", 168),
        (13, "G7", 84),
    ],
)
def test_small_board_names_and_integers_match(size, name, index):
    assert parse_point(name, size) == index
    assert point_name(index, size) == name


@pytest.mark.parametrize("size", [9, 13, 19])
def test_every_point_round_trips(size):
    seen = set()
    for index in range(size * size):
        name = point_name(index, size)
        assert "I" not in name
        assert parse_point(name, size) == index
        assert parse_point(str(index), size) == index
        seen.add(name)
    assert len(seen) == size * size


def test_lower_case_and_integer_text_are_accepted():
    assert parse_point("k10") == 180
    assert parse_point(" K10 ") == 180
    assert parse_point("180") == 180
    assert parse_point(180) == 180


@pytest.mark.parametrize("text", ["I10", "i5", "", "10K", "KK", "K", "K1.5", "Ä3", "-1"])
def test_malformed_names_are_bad_coordinates(text):
    with pytest.raises(IllegalMove) as exc:
        parse_point(text)
    assert exc.value.code == "bad_coordinate"
    assert exc.value.detail


@pytest.mark.parametrize(
    ("text", "size"), [("U10", 19), ("K20", 19), ("K0", 19), ("361", 19), ("K5", 9), ("O1", 13)]
)
def test_points_outside_the_board_are_off_board(text, size):
    with pytest.raises(IllegalMove) as exc:
        parse_point(text, size)
    assert exc.value.code == "off_board"


def test_point_name_refuses_an_index_off_the_board():
    with pytest.raises(IllegalMove) as exc:
        point_name(81, 9)
    assert exc.value.code == "off_board"
