"""Games brought to a given point through the play services, shared by tests of several apps."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.clocks.sweeper import SweepReport, close_due
from games.clocks.timecontrol import TimeControl
from games.play.actions import game_mark_dead, move_play
from games.play.models import Game
from tests.factories import make_game


def lost_on_time_while_marking(black, white) -> tuple[Game, SweepReport]:
    """A 9x9 game on a one-minute clock: two passes, black marks no stone dead, and white's
    clock runs out before it answers. The game (read again) and the sweeper's report."""
    start = timezone.now()
    game = make_game(
        players=[black, white],
        variant="Go (9x9)",
        time_control=TimeControl.live(initial_minutes=1),
        now=start,
    )
    move_play(game_id=game.pk, user=black, ply=0, points=["PASS"], now=start)
    move_play(game_id=game.pk, user=white, ply=1, points=["PASS"], now=start)
    game_mark_dead(game_id=game.pk, user=black, ply=2, points=[], now=start)
    report = close_due(now=start + timedelta(minutes=2))
    game.refresh_from_db()
    return game, report
