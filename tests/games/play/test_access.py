"""Finding and locking a game by an id a client sent."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.play.access import lock_game
from pente_site.errors import NotFound


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", [10**30, -(10**30), "12x", None])
def test_an_id_no_game_can_have_is_not_found(game_id):
    """Ids past the database's integer range overflow in SQLite's driver: still a 404."""
    with transaction.atomic(), pytest.raises(NotFound):
        lock_game(game_id)
