"""The computer opponents move by themselves, off the web path: a task on the ``bots`` queue per
turn of a computer, played through the same services as a human's move. Each such turn is a
``BotTurn`` row written with the action that started it: the task claims it before thinking, and
the resend sweeper sends the task again when a turn is still unplayed a few seconds after its
move was due (a lost task). The think time and the rules it follows: docs/computer-opponents.md,
"How the computers move on the server".
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.bots.go_search import go_action
from games.bots.models import BotTurn
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

#: The longest wait between two resends of a move that no worker takes: the wait starts at
#: ``BOT_RESEND_SECONDS`` and doubles with each resend, so while the ``bots`` workers are down
#: a game waiting on a computer adds about one task a minute to the queue, not one every few
#: seconds (one copy in the queue is enough for the worker that comes back).
RESEND_MAX_WAIT = timedelta(seconds=60)


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


def _grace() -> timedelta:
    return timedelta(seconds=settings.BOT_RESEND_SECONDS)


def on_turn_started(sender, game: Game, seat: int, **kwargs) -> None:
    """``turn_started`` receiver (inside the transaction): a computer to act gets its turn's
    row, due at the end of its think time plus ``BOT_RESEND_SECONDS``, and its task."""
    if not game.against_computer:
        return
    bot = seat_bot(game, seat)
    if bot is None:
        return
    game_id, ply = game.pk, game.ply
    think = timedelta(seconds=bot_budget(game=game, seat=seat, level=bot.bot_level))
    turn = BotTurn(game_id=game_id, ply=ply, resend_at=timezone.now() + think + _grace())
    BotTurn.objects.bulk_create(
        [turn],
        update_conflicts=True,
        unique_fields=["game"],
        update_fields=["ply", "resend_at", "claimed_at", "sends"],
    )
    transaction.on_commit(lambda: enqueue(BOT_MOVE_TASK, args=(game_id, ply)), robust=True)


def _claim_turn(*, game_id: int, ply: int, budget: float) -> bool:
    """Take the computer's turn in ``game_id`` at ``ply`` for this task: True when no other
    task holds it (one conditional UPDATE; a resend frees it again). The turn is then due at
    the end of this think plus ``BOT_RESEND_SECONDS``."""
    now = timezone.now()
    taken = BotTurn.objects.filter(game_id=game_id, ply=ply, claimed_at__isnull=True).update(
        claimed_at=now, resend_at=now + timedelta(seconds=budget) + _grace()
    )
    return taken == 1


def _forget_turn(*, game_id: int, ply: int) -> None:
    """The turn at ``ply`` is over (played, or the game moved on): its row goes. A later turn's
    row (a greater ply: every action adds at least one) stays."""
    BotTurn.objects.filter(game_id=game_id, ply=ply).delete()


def bot_play(*, game_id: int, ply: int, rng: random.Random | None = None) -> str:
    """Play the computer's action in game ``game_id`` at ``ply``: "played", or why not
    ("stale": the game moved on or is over; "not_bot": someone else is to act; "claimed":
    another copy of this task holds the turn). Any number of copies may run: the claim lets
    one of them think, and the move's own ply check lets one of them play."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.IN_PROGRESS or game.ply != ply:
        _forget_turn(game_id=game_id, ply=ply)
        return "stale"
    position = played_of(game).position
    seat = position.to_move_seat
    bot = seat_bot(game, seat) if seat is not None else None
    if bot is None:
        _forget_turn(game_id=game_id, ply=ply)
        return "not_bot"
    marking = position.marks_dead and position.phase == GoPhase.MARKING
    budget = bot_budget(game=game, seat=seat, level=bot.bot_level, marking=marking)
    if not _claim_turn(game_id=game_id, ply=ply, budget=budget):
        return "claimed"
    rng = rng or random.Random()
    act = {"game_id": game_id, "user": bot, "ply": ply}
    try:
        if position.marks_dead:
            go = go_action(position, level=bot.bot_level, budget_s=budget, rng=rng)
            if go.kind == "mark":
                game_mark_dead(**act, points=sorted(go.dead))
            elif go.kind in ("accept", "reject"):  # a rejection names the stones it disputes
                game_decide(**act, choice=go.kind, disputed=sorted(go.disputed))
            else:
                move_play(**act, points=[PASS if go.point is None else go.point])
        else:
            # The level's own play, its calibrated mistakes included (as the benchmark plays it)
            choice = choose_move(
                position, level=bot.bot_level, budget_s=budget, rng=rng, mistakes=True
            )
            if choice.decision is not None:
                game_decide(**act, choice=choice.decision)
            else:
                move_play(**act, points=list(choice.points))
    except DomainError as exc:  # the game moved on meanwhile (a resignation, a timeout)
        # the row stays: the sweeper drops it if the game moved on, else sends the move again
        log.info("bot move in game %s at ply %s not played: %s", game_id, ply, exc.code)
        return "stale"
    _forget_turn(game_id=game_id, ply=ply)
    return "played"


@dataclass(frozen=True, slots=True)
class ResendReport:
    resent: int = 0  # move tasks sent again
    dropped: int = 0  # rows of turns that were over (the game moved on or ended)


def bots_resend(*, now: datetime | None = None, batch_size: int = 500) -> ResendReport:
    """The resend sweeper (beat: every ``BOT_RESEND_SWEEP_SECONDS``): send the move task again
    for every computer's turn whose ``resend_at`` has passed, the oldest first, and drop the
    rows of turns that are over. One indexed query when nothing is due. Each resend is one
    conditional UPDATE on the row as read (its ply and count of sends, still due), so two
    sweeps at once send a turn once; it frees the turn for the task and sets the next wait."""
    now = now or timezone.now()
    due = (
        BotTurn.objects.filter(resend_at__lte=now)
        .order_by("resend_at")
        .values_list("game_id", "ply", "sends", "game__status", "game__ply")[:batch_size]
    )
    resent = dropped = 0
    for game_id, ply, sends, status, game_ply in list(due):
        row = BotTurn.objects.filter(game_id=game_id, ply=ply, sends=sends, resend_at__lte=now)
        if status != Game.Status.IN_PROGRESS or game_ply != ply:
            dropped += row.delete()[0]
            continue
        wait = min(_grace() * 2 ** min(sends - 1, 16), RESEND_MAX_WAIT)
        if row.update(claimed_at=None, sends=sends + 1, resend_at=now + wait):
            enqueue(BOT_MOVE_TASK, args=(game_id, ply))
            resent += 1
    if resent:
        log.warning("computer moves sent again (a task was lost or late): %s", resent)
    return ResendReport(resent=resent, dropped=dropped)
