"""Requests between the players of a game: cancel it, take a move back (ask, agree, decline,
withdraw)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import User
from games.clocks import services as clock_services
from games.play import events
from games.play.access import (
    lock_game,
    now_or,
    require_in_progress,
    require_participant,
    seats_of,
)
from games.play.finish import game_cancel_finish
from games.play.models import Game, Move
from games.play.positions import (
    Snapshot,
    cancel_forbidden_reason,
    forget_played,
    opponents_of,
    played_of,
)
from pente_site.errors import Conflict


def game_cancel_request(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """Ask to cancel; when an opponent already asked, this agrees and the game is cancelled."""
    now = now_or(now)
    with transaction.atomic():
        game = lock_game(game_id)
        mine = require_participant(seats_of(game), user)
        require_in_progress(game)
        reason = cancel_forbidden_reason(game)
        if reason:
            raise Conflict("cancel_forbidden", reason)
        asked = game.cancel_requested_by
        if asked is not None and asked not in mine and mine[0] in opponents_of(game, asked):
            game_cancel_finish(game=game, now=now)
        elif asked is None:
            game.cancel_requested_by = mine[0]
            game.save(update_fields=["cancel_requested_by", "updated_at"])
            events.publish_on_commit([events.Changed(Snapshot(game), "request", game.ply)])
    return game


def game_cancel_withdraw(*, game_id: int, user: User) -> Game:
    """Withdraw one's own cancel request, or decline the opponent's."""
    return _clear_request(game_id=game_id, user=user, field="cancel_requested_by")


def game_undo_request(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """The player who just moved asks to take the move back; when the opponent then calls this
    (agree), the move (Connect6: the whole turn) is taken back. What may be taken back is the
    engine's rule (``engine.Game.takeback``): never into the opening protocol."""
    now = now_or(now)
    with transaction.atomic():
        game = lock_game(game_id)
        mine = require_participant(seats_of(game), user)
        require_in_progress(game)
        span = played_of(game).position.takeback()
        asked = game.undo_requested_by
        if asked is not None and asked not in mine:
            if span is None or span.seat != asked:
                game.undo_requested_by = None
                game.save(update_fields=["undo_requested_by", "updated_at"])
                raise Conflict("undo_not_allowed", "That move can no longer be taken back.")
            first = game.ply - span.actions + 1
            Move.objects.filter(game=game, ply__gte=first).delete()
            game.ply = first - 1
            game.undo_requested_by = None
            # The asker moves again: live clocks keep their time, a turn-based deadline restarts.
            clock_services.clock_restart(game=game, now=now, to_move_seat=asked)
            game.save()
            forget_played(game)
            deadline = [events.DeadlineSet(game)] if game.deadline is not None else []
            events.publish_on_commit([*deadline, events.Changed(Snapshot(game), "undo", game.ply)])
            return game
        if asked is not None:
            return game  # already asked: harmless repeat
        if span is None or span.seat not in mine:
            raise Conflict(
                "undo_not_allowed",
                "Only the player who just moved can ask to take it back, and not during the opening.",
            )
        game.undo_requested_by = span.seat
        game.save(update_fields=["undo_requested_by", "updated_at"])
        events.publish_on_commit([events.Changed(Snapshot(game), "request", game.ply)])
    return game


def game_undo_withdraw(*, game_id: int, user: User) -> Game:
    """Withdraw one's own undo request, or decline the opponent's."""
    return _clear_request(game_id=game_id, user=user, field="undo_requested_by")


def _clear_request(*, game_id: int, user: User, field: str) -> Game:
    with transaction.atomic():
        game = lock_game(game_id)
        require_participant(seats_of(game), user)
        require_in_progress(game)
        if getattr(game, field) is None:
            raise Conflict("no_request", "There is no pending request.")
        setattr(game, field, None)
        game.save(update_fields=[field, "updated_at"])
        events.publish_on_commit([events.Changed(Snapshot(game), "request", game.ply)])
    return game
