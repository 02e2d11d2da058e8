"""``bench/leaderboard.py`` still runs end to end (a small board, few requests): a benchmark the
README lists must not rot when the code it times changes. Its figures are not checked here."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE = os.environ.get("DATABASE_URL", "")


@pytest.mark.skipif(
    not BASE.startswith("postgres"), reason="needs DATABASE_URL pointing at PostgreSQL"
)
def test_the_leaderboard_benchmark_runs_and_prints_its_verdict():
    database = f"pente_bench_smoke_{uuid.uuid4().hex[:8]}"
    done = subprocess.run(
        [sys.executable, "bench/leaderboard.py", "--players", "300", "--repeat", "4"]
        + ["--rounds", "2", "--database", database],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": BASE},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Worst median ratio" in done.stdout, done.stdout + done.stderr
    assert done.returncode in (0, 1)  # 1: a target missed, which a tiny run may well do
