"""Fixtures of the computer opponents' tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(name, None)


@pytest.fixture(scope="module")
def bench():
    """``bench/bots.py``, loaded as a module."""
    yield from _load("bench_bots", ROOT / "bench" / "bots.py")


@pytest.fixture(scope="module")
def tune():
    """``bench/tune.py``, loaded as a module."""
    yield from _load("bench_tune", ROOT / "bench" / "tune.py")
