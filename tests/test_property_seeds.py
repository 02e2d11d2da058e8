"""Property tests draw the same examples on every run unless asked to explore
(``tests/conftest.py``), so a failure seen once is seen again."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

DRAWN: list[list[int]] = []


@settings(max_examples=5)
@given(st.lists(st.integers()))
def _draw(values: list[int]) -> None:
    DRAWN.append(values)


def test_property_tests_are_seeded_unless_exploring():
    exploring = os.environ.get("HYPOTHESIS_PROFILE") == "explore"
    assert settings.default.derandomize is not exploring
    assert settings.default.print_blob


def test_two_runs_of_a_property_test_draw_the_same_examples():
    if os.environ.get("HYPOTHESIS_PROFILE") == "explore":
        return
    DRAWN.clear()
    _draw()
    first = list(DRAWN)
    DRAWN.clear()
    _draw()
    assert DRAWN == first
