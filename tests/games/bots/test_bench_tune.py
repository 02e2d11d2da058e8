"""``bench/tune.py``: self-play games written one JSON line each, and the evaluation's parts of
their quiet positions fitted to the games' outcomes."""

from __future__ import annotations

import json

from games.engine import Game


def _pair_white_can_take(to_move: int) -> Game:
    # white takes K10 L10 at M10
    return Game.from_position("Pente", stones={1: "K10 L10 C3", 2: "J10 Q16"}, to_move=to_move)


def test_the_parts_count_the_waiting_side_s_captures_against_the_side_to_move(tune):
    parts = dict(zip(tune.PARTS, tune.parts(_pair_white_can_take(1)), strict=True))
    assert parts["exposed"] == 1 and parts["ready"] == 0
    parts = dict(zip(tune.PARTS, tune.parts(_pair_white_can_take(2)), strict=True))
    assert parts["exposed"] == 0 and parts["ready"] == 1


def test_a_position_with_a_four_is_not_quiet(tune):
    game = Game.from_position("Pente", stones={1: "K10 L10 M10 N10", 2: "C3 Q16"}, to_move=2)
    assert tune.parts(game) is None


def test_games_are_written_and_fitted(tune, tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert tune.main(["games", "Pente", "2", str(out), "--nodes", "100", "--procs", "1"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2 and all(r["actions"] and r["winners"] for r in records)
    assert tune.main(["fit", "Pente", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "quiet positions" in printed and "level 8" in printed
    assert all(name in printed for name in tune.PARTS)


def test_a_shape_and_its_mirror_image_are_one_part(tune):
    assert len(tune.SHAPES) == 15  # 3 shapes of one stone, 6 of two, 6 of three
    assert tune._SHAPE_INDEX[0b00011] == tune._SHAPE_INDEX[0b11000]
    assert tune._SHAPE_INDEX[0b01011] == tune._SHAPE_INDEX[0b11010]
    assert tune._SHAPE_INDEX[0b00111] != tune._SHAPE_INDEX[0b01110]


def test_by_shape_a_solid_open_three_counts_its_three_windows_of_three(tune):
    # black's K10 L10 M10 with the row open: windows H..M, J..N and K..O hold all three
    game = Game.from_position("Pente", stones={1: "K10 L10 M10", 2: "C3 Q16"}, to_move=2)
    x = tune.parts(game, shapes=True)
    n = len(tune.SHAPES)
    waiting = dict(zip(tune.SHAPES, x[n : 2 * n], strict=True))
    assert waiting[0b00111] == 2 and waiting[0b01110] == 1
    counts = tune.parts(game)  # by count: the same windows, so the same totals per side
    assert sum(x[:n]) == sum(counts[:3]) and sum(x[n : 2 * n]) == sum(counts[3:6])
    assert x[2 * n :] == counts[6:]


def test_the_fit_by_shapes_prints_each_shape(tune, tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert tune.main(["games", "Pente", "2", str(out), "--nodes", "100", "--procs", "1"]) == 0
    assert tune.main(["fit", "Pente", str(out), "--shapes"]) == 0
    printed = capsys.readouterr().out
    assert "c01110" in printed and "w10101" in printed and "open_three" in printed
