"""What follows an action on a game: the events a service builds, sent from one place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.clocks import services as clock_services
from games.play.models import Game
from games.play.signals import game_changed, turn_started


@dataclass(frozen=True, slots=True)
class Changed:
    """The game changed in progress: ``kind`` is ``move``, ``undo`` or ``request``;
    ``since_ply`` the ply before it. The live streams publish it."""

    game: Game
    kind: str
    since_ply: int


@dataclass(frozen=True, slots=True)
class DeadlineSet:
    """The game's clock has a new deadline: its timeout is scheduled. ``guessed_seat``: the
    seat the clock guessed by rotation, not told who is to move (checked when scheduled)."""

    game: Game
    guessed_seat: int | None = None


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat`` is to act: a computer holding it moves, its player hears it's their turn."""

    game: Game
    seat: int


Event = Changed | DeadlineSet | TurnStarted


def publish(events: Sequence[Event]) -> None:
    """Send ``events``, in order, from inside the transaction that wrote them. Nothing leaves
    the process before it commits: the clock enqueues its timeout with ``on_commit``, the live
    streams gather their events into one round trip at the commit, the computer opponents'
    task is sent at the commit. Other apps hear of them by the signals of
    ``games.play.signals``: they sit above this app and cannot be called from it."""
    for event in events:
        if isinstance(event, Changed):
            game_changed.send(
                sender=Game, game=event.game, kind=event.kind, since_ply=event.since_ply
            )
        elif isinstance(event, DeadlineSet):
            clock_services.schedule_deadline(game=event.game, guessed_seat=event.guessed_seat)
        else:
            turn_started.send(sender=Game, game=event.game, seat=event.seat)
