"""``bench/bots.py``: a match between two levels prints each result, the score with its 95%
interval and the think times, and judges the level above against its target."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_bots", ROOT / "bench" / "bots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("bench_bots", None)


def test_the_wilson_interval_holds_the_score_and_narrows_with_games(bench):
    low, high = bench.wilson(0.7, 10)
    assert low < 0.7 < high
    low_many, high_many = bench.wilson(0.7, 400)
    assert high_many - low_many < high - low


def test_a_short_match_prints_every_game_and_the_score(bench, capsys):
    status = bench.main(["2", "1", "Gomoku", "2", "--budget-scale", "0.05"])
    out = capsys.readouterr().out
    assert out.count("game ") == 2 and "level 2 scores" in out and "95% interval" in out
    assert status == (0 if "target: the level above scores >= 65%: OK" in out else 1)


def test_go_is_played_to_its_count_by_the_simple_policy(bench, capsys):
    assert bench.main(["1", "1", "go-9", "1", "--budget-scale", "0.05"]) == 0
    assert "go-9: level 1 v level 1, 1 games" in capsys.readouterr().out
