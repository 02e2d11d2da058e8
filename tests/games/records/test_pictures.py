import xml.etree.ElementTree as ET

import pytest

from games.records.pictures import board_svg

NS = "{http://www.w3.org/2000/svg}"


def _empty(size=19):
    return ["." * size for _ in range(size)]


def _stones(svg):
    root = ET.fromstring(svg.encode())
    return {
        c.get("data-point"): c.get("class")
        for c in root.iter(f"{NS}circle")
        if (c.get("class") or "").startswith("stone")
    }


def test_svg_is_valid_xml_with_one_circle_per_stone():
    rows = _empty()
    rows[9] = "." * 9 + "1" + "." * 9  # K10
    rows[0] = "2" + "." * 18  # A19
    svg = board_svg(rows, last_point=0, captures=(2, 4))
    assert _stones(svg) == {"K10": "stone colour1", "A19": "stone colour2"}


def test_svg_marks_the_last_move_and_shows_the_capture_counts():
    rows = _empty()
    rows[9] = "." * 9 + "1" + "." * 9
    root = ET.fromstring(board_svg(rows, last_point=180, captures=(2, 4)).encode())
    marks = [c for c in root.iter(f"{NS}circle") if c.get("class") == "last-move"]
    assert len(marks) == 1 and marks[0].get("cx") == marks[0].get("cy")
    texts = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "captures"]
    assert texts == ["Captures white: 2, black: 4"]


def test_svg_draws_six_colours_differently():
    rows = _empty()
    rows[0] = "123456" + "." * 13
    root = ET.fromstring(board_svg(rows).encode())
    fills = {
        c.get("fill")
        for c in root.iter(f"{NS}circle")
        if (c.get("class") or "").startswith("stone")
    }
    assert len(fills) == 6


def test_svg_labels_columns_without_i():
    root = ET.fromstring(board_svg(_empty()).encode())
    labels = {t.text for t in root.iter(f"{NS}text")}
    assert "J" in labels and "I" not in labels and "19" in labels


def test_svg_refuses_a_grid_that_is_not_square():
    with pytest.raises(ValueError):
        board_svg(["...", ".."])
