"""Fixtures of the computer opponents' tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bench():
    """``bench/bots.py``, loaded as a module."""
    spec = importlib.util.spec_from_file_location("bench_bots", ROOT / "bench" / "bots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("bench_bots", None)
