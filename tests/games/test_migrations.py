"""Data migrations of the games app, run forwards (and back) on a real schema."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0004_constraints")]
AFTER = [("games", "0005_game_status_archived")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_latest_afterwards():
    """Whatever happens in the test, leave the schema migrated to the latest state."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_imported_games_become_archived_and_keep_their_outcome(at_latest_afterwards):
    old = _migrate(BEFORE)
    Game = old.get_model("games", "Game")
    finished = Game.objects.create(
        variant="Pente", imported=True, status="finished", end_reason="five", winner_seats=[1]
    )
    unfinished = Game.objects.create(variant="Pente", imported=True, status="in_progress")
    played = Game.objects.create(variant="Pente", status="in_progress")

    new = _migrate(AFTER)
    Game = new.get_model("games", "Game")
    assert Game.objects.get(pk=finished.pk).status == "archived"
    assert Game.objects.get(pk=finished.pk).end_reason == "five"
    assert Game.objects.get(pk=unfinished.pk).status == "archived"
    assert Game.objects.get(pk=unfinished.pk).end_reason == ""
    assert Game.objects.get(pk=played.pk).status == "in_progress"

    old = _migrate(BEFORE)
    Game = old.get_model("games", "Game")
    assert Game.objects.get(pk=finished.pk).status == "finished"
    assert Game.objects.get(pk=unfinished.pk).status == "in_progress"
