"""The explorer counts an imported record's result whether its moves reach it (a five) or its
Result header states it after the last stone (``recorded``): a win of its colour, a draw, or
nothing for a record without a result."""

from __future__ import annotations

import pytest

from tests.explorer.support import explore, record, store

pytestmark = pytest.mark.django_db

OPEN = "1. K10 L11 2. M12"


def test_results_stated_after_the_last_stone_count_as_the_wins_and_draws_they_are():
    store(
        record(OPEN, p1="a", Result="1-0"),
        record(OPEN, p1="b", Result="0-1", **{"End Reason": "timeout"}),
        record(OPEN, p1="c", Result="1/2-1/2"),
        record(OPEN, p1="d", Result="*"),
    )
    body = explore(game="Pente", moves="K10,L11,M12")
    assert (body["games"], body["wins"], body["draws"]) == (4, [1, 1], 1)
