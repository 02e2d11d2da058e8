"""The computer opponents move by themselves, off the web path: a task on the ``bots`` queue per
turn of a computer, played through the same services as a human's move, with a sweeper for lost
tasks. The think time and the rules it follows: docs/computer-opponents.md, "How the computers
move on the server".
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.bots.go_search import go_action
from games.bots.search import BUDGETS, choose_move
from games.clocks.timecontrol import Kind
from games.engine.go import PASS, GoPhase
from games.play.actions import game_decide, game_mark_dead, move_play
from games.play.models import Game
from games.play.positions import played_of
from games.play.selectors import seats_with_users
from pente_site.errors import DomainError
from pente_site.jobs import enqueue

log = logging.getLogger(__name__)

#: The Celery task that plays a computer's move (``games.bots.tasks``), on the ``bots`` queue.
BOT_MOVE_TASK = "games.bots.move"

#: Go: the think time of marking the dead stones or answering a marking, at every level (the
#: playouts' cap, ``go_search._MARK_CAP``, usually ends it well before).
GO_MARKING_SECONDS = 5.0


def bot_budget(*, game: Game, seat: int, level: int, marking: bool = False) -> float:
    """The think time of ``level`` on ``seat``'s turn (times ``BOT_THINK_SCALE``), within a
    twentieth of a live clock; ``marking``: Go's marking or its answer, at least
    ``GO_MARKING_SECONDS`` whatever the level."""
    seconds = max(BUDGETS[level], GO_MARKING_SECONDS) if marking else BUDGETS[level]
    budget = seconds * settings.BOT_THINK_SCALE
    if game.time_control == Kind.LIVE and game.clocks_ms:
        budget = min(budget, max(0.01, game.clocks_ms[seat - 1] / 1000 / 20))
    return budget


def seat_bot(game: Game, seat: int) -> User | None:
    """The computer opponent holding ``seat``, or None."""
    for row in seats_with_users(game):
        if row.seat == seat and row.user is not None and row.user.bot_level:
            return row.user
    return None


def on_turn_started(sender, game: Game, seat: int, **kwargs) -> None:
    """``turn_started`` receiver (sent once the action is committed, ``games.play.events``): a
    computer to act gets its task."""
    if game.against_computer and seat_bot(game, seat) is not None:
        enqueue(BOT_MOVE_TASK, args=(game.pk, game.ply))


def bot_play(*, game_id: int, ply: int, rng: random.Random | None = None) -> str:
    """Play the computer's action in game ``game_id`` at ``ply``: "played", or why not
    ("stale": the game moved on or is over; "not_bot": someone else is to act)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.IN_PROGRESS or game.ply != ply:
        return "stale"
    position = played_of(game).position
    seat = position.to_move_seat
    bot = seat_bot(game, seat) if seat is not None else None
    if bot is None:
        return "not_bot"
    rng = rng or random.Random()
    act = {"game_id": game_id, "user": bot, "ply": ply}
    try:
        if position.marks_dead:
            marking = position.phase == GoPhase.MARKING
            budget = bot_budget(game=game, seat=seat, level=bot.bot_level, marking=marking)
            go = go_action(position, level=bot.bot_level, budget_s=budget, rng=rng)
            if go.kind == "mark":
                game_mark_dead(**act, points=sorted(go.dead))
            elif go.kind in ("accept", "reject"):  # a rejection names the stones it disputes
                game_decide(**act, choice=go.kind, disputed=sorted(go.disputed))
            else:
                move_play(**act, points=[PASS if go.point is None else go.point])
        else:
            budget = bot_budget(game=game, seat=seat, level=bot.bot_level)
            # The level's own play, its calibrated mistakes included (as the benchmark plays it)
            choice = choose_move(
                position, level=bot.bot_level, budget_s=budget, rng=rng, mistakes=True
            )
            if choice.decision is not None:
                game_decide(**act, choice=choice.decision)
            else:
                move_play(**act, points=list(choice.points))
    except DomainError as exc:  # the game moved on meanwhile (a resignation, a timeout)
        log.info("bot move in game %s at ply %s not played: %s", game_id, ply, exc.code)
        return "stale"
    return "played"


def bots_sweep(*, now: datetime | None = None) -> int:
    """Send the move again for every game in progress that waits on a computer opponent since
    longer than ``BOT_STALL_SECONDS`` (a lost task); the task itself checks who is to act."""
    now = now or timezone.now()
    stalled = now - timedelta(seconds=settings.BOT_STALL_SECONDS)
    waiting = Game.objects.filter(
        against_computer=True, status=Game.Status.IN_PROGRESS, updated_at__lt=stalled
    ).values_list("pk", "ply")
    count = 0
    for game_id, ply in waiting:
        enqueue(BOT_MOVE_TASK, args=(game_id, ply))
        count += 1
    return count
