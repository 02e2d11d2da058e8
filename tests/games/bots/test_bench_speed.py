"""``bench/bots.py``: nodes per second of the pure and the compiled search side by side
(``--speed``), and matches on fixed node budgets against the pure search (``--pure-b``)."""

from __future__ import annotations

import pytest

from games.bots import fastboard

pytestmark = pytest.mark.skipif(not fastboard.COMPILED, reason="numba does not import here")


def test_speed_prints_both_rates_for_each_game_and_the_same_moves(bench, capsys):  # noqa: F811
    assert bench.main(["--speed", "--nodes", "40"]) == 0
    text = capsys.readouterr().out
    assert "pure n/s" in text and "compiled n/s" in text
    for game in bench.SPEED_GAMES:
        row = next(line for line in text.splitlines() if line.startswith(game))
        assert row.endswith("yes")
    assert fastboard._ON[0] == fastboard.COMPILED  # the switch is put back


def test_a_match_on_node_budgets_against_the_pure_search(bench, capsys, monkeypatch):  # noqa: F811
    seen = []
    real = bench.choose_move

    def spy(game, **kwargs):
        seen.append((kwargs["max_nodes"], fastboard._ON[0]))
        return real(game, **kwargs)

    monkeypatch.setattr(bench, "choose_move", spy)
    bench.main(["8", "8", "Pente", "2", "--nodes", "60", "--nodes-b", "30", "--pure-b"])
    out = capsys.readouterr().out
    assert out.count("game ") == 2 and "level 8 scores" in out
    assert {(60, True), (30, False)} <= set(seen) <= {(60, True), (30, False)}
    assert fastboard._ON[0] == fastboard.COMPILED
