"""What follows an action on a game: the events a service builds, and the one place they go out.

A service lists what follows its write as events and hands them to ``publish_on_commit`` inside
the transaction of the write. What belongs to the write is done there and then; everything that
leaves the process (Redis, Celery) waits for the commit, in ``publish``. See
``docs/move-pipeline.md``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from games.clocks import services as clock_services
from games.notifications import services as notifications
from games.notifications.models import TurnNotice
from games.play.models import Game
from games.play.positions import Snapshot
from games.play.signals import game_changed, turn_due, turn_started

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Changed:
    """The game changed in progress: ``kind`` is ``move``, ``undo`` or ``request``;
    ``since_ply`` the ply before it. ``shown``: the game as the action left it (the live event
    and the answer to the request share its state). The live streams publish it."""

    shown: Snapshot
    kind: str
    since_ply: int

    @property
    def game(self) -> Game:
        return self.shown.game


@dataclass(frozen=True, slots=True)
class DeadlineSet:
    """The game's clock has a new deadline: its timeout is scheduled. ``guessed_seat``: the
    seat the clock guessed by rotation, not told who is to move (checked in the transaction)."""

    game: Game
    guessed_seat: int | None = None


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat`` is to act: a computer holding it moves, its player hears it's their turn (on the
    live streams, and by e-mail in a turn-based game when they asked for it)."""

    game: Game
    seat: int


Event = Changed | DeadlineSet | TurnStarted


def publish_on_commit(events: Sequence[Event]) -> None:
    """Call inside the transaction that wrote what ``events`` tell, once per action. Now, in
    that transaction, what must be written with it: the clock's check of a deadline guessed by
    rotation (``clock_services.settle_deadline``, which may correct the row), the rows of a turn
    (signal ``turn_due``: the computer opponents' row that resends a lost move task) and the
    notice of a turn to tell by e-mail (``notifications.keep_turn_notice``, the e-mail's outbox
    row). Once
    the transaction commits, ``publish`` sends the rest; a rollback sends nothing."""
    notices: list[TurnNotice] = []
    for event in events:
        if isinstance(event, DeadlineSet):
            clock_services.settle_deadline(game=event.game, guessed_seat=event.guessed_seat)
        elif isinstance(event, TurnStarted):
            turn_due.send(sender=Game, game=event.game, seat=event.seat)
            notice = notifications.keep_turn_notice(game=event.game, seat=event.seat)
            if notice is not None:
                notices.append(notice)
    if events:
        transaction.on_commit(lambda: publish(events, notices=notices), robust=True)


def publish(events: Sequence[Event], *, notices: Sequence[TurnNotice] = ()) -> None:
    """After the commit: each event's effects outside the process, in order. ``Changed``: the
    live streams' event (signal ``game_changed``); ``DeadlineSet``: the timeout task
    (``clock_services.send_deadline``); ``TurnStarted``: the player's ``your_turn`` event and a
    computer's move task (signal ``turn_started``: the live streams and the computer opponents
    sit above this module and cannot be called from it). Then the jobs of the turn e-mails.

    The events sent on the live streams are gathered into one Redis round trip: the block below
    writes nothing, it only holds them until it ends. A failing effect is logged and the others
    still go (a lost timeout or computer's task is picked up by its sweeper)."""
    with transaction.atomic():
        for event in events:
            if isinstance(event, Changed):
                _send(
                    game_changed,
                    game=event.game,
                    kind=event.kind,
                    since_ply=event.since_ply,
                    shown=event.shown,
                )
            elif isinstance(event, DeadlineSet):
                _guarded(clock_services.send_deadline, game=event.game)
            else:
                _send(turn_started, game=event.game, seat=event.seat)
    for notice in notices:
        _guarded(notifications.send_turn_notice, notice)


def _send(signal, **kwargs) -> None:
    for receiver, result in signal.send_robust(sender=Game, **kwargs):
        if isinstance(result, Exception):
            log.error("%s failed after a game's commit", receiver, exc_info=result)


def _guarded(effect, *args, **kwargs) -> None:
    try:
        effect(*args, **kwargs)
    except Exception:
        log.exception("%s failed after a game's commit", getattr(effect, "__name__", effect))
