"""Small compatibility graphs for the tests of the pairing's matchings."""

from __future__ import annotations

from collections.abc import Callable


def compatible_in(pairs: set[tuple[int, int]]) -> Callable[[int, int], bool]:
    """The compatibility of two players: (a, b) or (b, a) among ``pairs``."""
    return lambda a, b: (a, b) in pairs or (b, a) in pairs
