"""The explorer's data migrations."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.migrations import migrate_to

BEFORE = [("explorer", "0001_initial"), ("games", "0019_plural_names")]
AFTER = [("explorer", "0002_go_passes_indexed")]


@pytest.mark.django_db(transaction=True)
def test_go_games_are_indexed_again_for_their_passes_and_other_games_are_kept(
    at_latest_afterwards,
):
    old = migrate_to(BEFORE)
    Game, PositionRow = old.get_model("games", "Game"), old.get_model("explorer", "PositionRow")
    done = {
        "status": "finished",
        "end_reason": "resign",
        "winner_seats": [1],
        "finished_at": datetime.now(UTC),
        "positions_indexed": True,
    }
    go = Game.objects.create(variant="Go (9x9)", **done)
    pente = Game.objects.create(variant="Pente", **done)
    for game in (go, pente):
        PositionRow.objects.create(key=1, game_id=game.pk, ply=1, next_point=40)

    new = migrate_to(AFTER)
    Game, PositionRow = new.get_model("games", "Game"), new.get_model("explorer", "PositionRow")
    assert list(PositionRow.objects.values_list("game_id", flat=True)) == [pente.pk]
    assert Game.objects.get(pk=go.pk).positions_indexed is False
    assert Game.objects.get(pk=pente.pk).positions_indexed is True
