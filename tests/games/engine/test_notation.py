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


@pytest.mark.parametrize("size", [9, 13, 19])
def test_every_point_parses_the_same_in_lower_case_and_with_spaces(size):
    # Names as written ("K10") are looked up; any other spelling is parsed column and row.
    for index in range(size * size):
        name = point_name(index, size)
        assert parse_point(name.lower(), size) == index
        assert parse_point(f" {name} ", size) == index


@pytest.mark.parametrize("size", [9, 13, 19])
def test_an_integer_index_is_a_point_from_the_first_to_the_last(size):
    last = size * size - 1
    assert parse_point(0, size) == 0
    assert parse_point(last, size) == last
    for index in (-1, last + 1):
        with pytest.raises(IllegalMove) as exc:
            parse_point(index, size)
        assert exc.value.code == "off_board"


def test_a_board_of_one_point_to_nineteen_is_named():
    assert point_name(0, 1) == "A1" and parse_point("A1", 1) == 0
    assert parse_point("a1", 1) == 0
    for size in (0, 20, 9.0, "19"):
        with pytest.raises(
            ValueError, match=f"^board size must be between 1 and 19, not {size!r}$"
        ):
            point_name(0, size)
        with pytest.raises(
            ValueError, match=f"^board size must be between 1 and 19, not {size!r}$"
        ):
            parse_point("K10", size)


@pytest.mark.parametrize(
    ("text", "size", "code", "detail"),
    [
        ("", 19, "bad_coordinate", "An empty string is not a point; write e.g. K10"),
        ("  ", 19, "bad_coordinate", "An empty string is not a point; write e.g. K10"),
        (True, 19, "bad_coordinate", "True is not a point"),
        (1.5, 19, "bad_coordinate", "1.5 is not a point"),
        ([180], 19, "bad_coordinate", "[180] is not a point"),
        (361, 19, "off_board", "361 is off the 19x19 board (0..360)"),
        (-1, 9, "off_board", "-1 is off the 9x9 board (0..80)"),
        ("81", 9, "off_board", "81 is off the 9x9 board (0..80)"),
        (
            "KK",
            19,
            "bad_coordinate",
            "'KK' is not a point; write a column letter and a row, e.g. K10",
        ),
        ("i5", 19, "bad_coordinate", "'i5': there is no column I (columns skip from H to J)"),
        ("k20", 19, "off_board", "K20 is off the 19x19 board (A1..T19)"),
        ("O1", 13, "off_board", "O1 is off the 13x13 board (A1..N13)"),
    ],
)
def test_a_refused_point_is_told_what_is_wrong_and_the_board(text, size, code, detail):
    with pytest.raises(IllegalMove) as exc:
        parse_point(text, size)
    assert (exc.value.code, exc.value.detail) == (code, detail)


@pytest.mark.parametrize(("index", "size"), [(81, 9), (-1, 9), (True, 19)])
def test_naming_an_index_off_the_board_is_told_the_board(index, size):
    with pytest.raises(IllegalMove) as exc:
        point_name(index, size)
    last = size * size - 1
    assert exc.value.detail == f"{index!r} is off the {size}x{size} board (0..{last})"
