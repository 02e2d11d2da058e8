"""The timeout claim under PostgreSQL row locks: a task that waited for a move re-checks the row,
and the sweeper passes over a row another transaction holds."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction

from games.clocks.sweeper import close_due, timeout_fire
from games.play.models import Game
from tests.factories import make_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

T0 = datetime(2025, 1, 2, 10, 30, tzinfo=UTC)


def live_game() -> Game:
    return make_game(
        time_control="live", initial_minutes=1, increment_seconds=0, on_absence="none", now=T0
    )


class Holder(threading.Thread):
    """Holds the game row locked in a transaction of its own (a move in progress) until
    ``release`` is set; with ``move_on`` it advances the ply first, as a move does."""

    def __init__(self, game_id: int, *, move_on: bool) -> None:
        super().__init__()
        self.game_id, self.move_on = game_id, move_on
        self.locked, self.release = threading.Event(), threading.Event()

    def run(self) -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=self.game_id)
                if self.move_on:
                    Game.objects.filter(pk=self.game_id).update(
                        ply=2, deadline=T0 + timedelta(hours=1)
                    )
                self.locked.set()
                self.release.wait(10)
        finally:
            connection.close()


def fire_in_thread(game_id: int, now: datetime) -> tuple[threading.Thread, list[str]]:
    result: list[str] = []

    def run() -> None:
        try:
            result.append(timeout_fire(game_id=game_id, ply=1, now=now))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


@pytest.mark.parametrize(("move_on", "expected"), [(True, "stale"), (False, "timeout")])
def test_a_task_that_waited_for_a_moves_lock_claims_only_if_the_row_still_qualifies(
    move_on, expected
):
    game = live_game()
    late = game.deadline + timedelta(seconds=1)
    holder = Holder(game.pk, move_on=move_on)
    holder.start()
    assert holder.locked.wait(10)
    task, result = fire_in_thread(game.pk, late)
    task.join(0.5)
    assert task.is_alive()  # waiting for the row
    holder.release.set()
    holder.join(10)
    task.join(10)
    game.refresh_from_db()
    assert result == [expected]
    assert game.status == ("in_progress" if move_on else "finished")


def test_the_sweeper_passes_over_a_row_another_transaction_holds():
    game = live_game()
    late = game.deadline + timedelta(seconds=1)
    holder = Holder(game.pk, move_on=False)
    holder.start()
    try:
        assert holder.locked.wait(10)
        assert close_due(now=late).timed_out == 0  # does not wait for it
    finally:
        holder.release.set()
        holder.join(10)
    assert close_due(now=late).timed_out == 1
