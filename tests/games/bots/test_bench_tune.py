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
