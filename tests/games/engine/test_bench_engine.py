"""bench/engine.py: the verdict against the targets, its exit status, and stable per-move
figures measured on boards that really hold ~10 and ~150 stones."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "engine.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_engine"] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("bench_engine", None)


def test_speed_verdict_is_ok_at_the_target_and_missed_below_it(bench):
    line, ok = bench.speed_verdict(100_000)
    assert ok and line.endswith(">= 100,000 moves/s for Pente: OK")
    line, ok = bench.speed_verdict(99_999)
    assert not ok and line.endswith(">= 100,000 moves/s for Pente: MISSED")


def test_flat_verdict_gives_both_costs_their_ratio_and_allows_up_to_twice(bench):
    line, ok = bench.flat_verdict("Pente", 1.0e-6, 1.5e-6)
    assert ok
    assert "1.00 us at ~10 stones" in line and "1.50 us at ~150 stones" in line
    assert "ratio 1.50" in line and line.endswith("flat: OK")
    assert bench.flat_verdict("Pente", 1.0e-6, 2.0e-6)[1]
    line, ok = bench.flat_verdict("Pente", 1.0e-6, 2.1e-6)
    assert not ok and line.endswith("flat: MISSED")


def test_long_games_reach_150_stones_without_ending_and_leave_a_window_to_time(bench):
    rng = random.Random(7)
    games = [bench.long_game("Pente", rng, 150) for _ in range(5)]
    positions = bench.positions_at("Pente", games, 150)
    assert len(positions) == len(games)
    for position in positions:
        assert bench.stones_on(position.game) >= 150
        assert len(position.window) == bench.WINDOW
        game = position.game.copy()
        for point in position.window:
            game.play(point)
        assert game.outcome is None
        assert bench.stones_on(position.game) >= 150  # the copy was played, not the position
    assert bench.per_move_cost(positions, repeats=2) > 0


def test_main_prints_the_verdicts_and_exits_non_zero_on_a_miss(bench, capsys, monkeypatch):
    status = bench.main(["--quick"])
    out = capsys.readouterr().out
    verdicts = [line for line in out.splitlines() if line.startswith("Verdict: ")]
    assert len(verdicts) == 5  # Pente speed, flatness of each variant, Go speed, Go flatness
    assert "for Pente: " in verdicts[0] and all("flat: " in v for v in verdicts[1:3])
    assert verdicts[3].startswith("Verdict: Go 19x19") and "flat: " in verdicts[4]
    assert status == (0 if all(v.endswith(": OK") for v in verdicts) else 1)

    monkeypatch.setattr(bench, "TARGET_MOVES_PER_S", 10**12)
    assert bench.main(["--quick"]) == 1
    assert "for Pente: MISSED" in capsys.readouterr().out
