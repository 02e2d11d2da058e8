"""Live rated sets, one game at a time (as Pente.org plays them): game 2 (seats swapped, game 1's
options) starts ``SET_NEXT_GAME_SECONDS`` after game 1 ends, or at once when both players are
ready. Turn-based sets keep both games at once; a set of one game (Swap2) has no next game.
What players see: docs/api.md, "Rated sets and the rankings"; the countdown's task and sweeper:
docs/timeouts.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.clocks.timecontrol import Kind, TimeControl
from games.play.access import now_or
from games.play.create import game_create
from games.play.models import Game, GameSet
from games.play.signals import set_next_game, set_next_game_started
from pente_site.celery import app
from pente_site.errors import Conflict, Forbidden, NotFound

NEXT_GAME_TASK = "games.set_next_game"


def one_at_a_time(*, games: Sequence[Game]) -> bool:
    """Whether a set whose games so far are ``games`` waits for its next game to be created
    (rather than having all its games at once): live games only."""
    return bool(games) and all(g.time_control == Kind.LIVE for g in games)


def next_games_schedule(*, game_sets: Sequence[GameSet], games_of, now: datetime) -> None:
    """Start the countdown of each locked set of ``game_sets`` (live sets whose games so far are
    all over, none cancelled, fewer than the set has): ``next_game_at``, nobody ready yet; the
    start task enqueued on commit; ``set_next_game`` sent. A set already counting is left
    alone."""
    waiting = [s for s in game_sets if s.next_game_at is None]
    if not waiting:
        return
    at = now + timedelta(seconds=settings.SET_NEXT_GAME_SECONDS)
    GameSet.objects.filter(pk__in=[s.pk for s in waiting], next_game_at__isnull=True).update(
        next_game_at=at, player1_ready=False, player2_ready=False
    )
    for game_set in waiting:
        game_set.next_game_at = at
        game_set.player1_ready = game_set.player2_ready = False
        set_id = game_set.pk
        transaction.on_commit(lambda set_id=set_id: _send_start(set_id, at), robust=True)
        last = games_of[game_set.pk][-1]
        set_next_game.send(sender=GameSet, game_set=game_set, game_id=last.pk)


def _send_start(set_id: int, at: datetime) -> bool:
    """Send the start task now, to run at ``at``. Not in eager mode (tests): an eager task
    cannot wait for its eta, so there the sweeper (or a test) starts the game."""
    if app.conf.task_always_eager:
        return False
    app.send_task(NEXT_GAME_TASK, args=(set_id,), eta=at)
    return True


def set_next_game_start(
    *, game_set_id: int, now: datetime | None = None, at_once: bool = False
) -> Game | None:
    """Create the next game of set ``game_set_id`` if its countdown is over (or ``at_once``: both
    players are ready). Claims the countdown with a conditional UPDATE first (it clears
    ``next_game_at``), backed by the unique (set, index) of the games, so only one caller (the
    task, the sweeper ``sets_start_due`` or the ready players) creates it; returns the game, or None when there was nothing to start (already
    started, not due, the set over)."""
    now = now_or(now)
    due = Q() if at_once else Q(next_game_at__lte=now)
    with transaction.atomic():
        claimed = (
            GameSet.objects.filter(due, pk=game_set_id, status=GameSet.Status.IN_PROGRESS)
            .filter(next_game_at__isnull=False)
            .update(next_game_at=None, player1_ready=False, player2_ready=False)
        )
        if not claimed:
            return None
        game_set = GameSet.objects.select_related("player1", "player2").get(pk=game_set_id)
        previous = Game.objects.filter(game_set=game_set).order_by("-set_index").first()
        if previous is None or previous.set_index >= game_set.games_count:
            return None
        index = previous.set_index + 1
        # Seats swapped: player 1 moves first in the odd games, player 2 in the even ones.
        players = [game_set.player1, game_set.player2]
        if index % 2 == 0:
            players.reverse()
        game = game_create(
            variant=game_set.variant,
            players=players,
            rated=game_set.rated,
            tournament_rule=previous.tournament_rule,
            adjacent_only=previous.adjacent_only,
            time_control=TimeControl.of(previous),
            vacation_allowed=previous.vacation_allowed,
            spectator_delay=previous.spectator_delay,
            game_set=game_set,
            set_index=index,
            now=now,
            # No start window: its clock runs from the start, and a player who left loses
            # this game only by its clock; except where absence forfeits (tournament sets):
            # nobody needs to have been at game 1's table, and two players absent from both
            # games make a double forfeit, not a loss on time for whoever was to move.
            on_absence=Game.OnAbsence.FORFEIT
            if previous.on_absence == Game.OnAbsence.FORFEIT
            else Game.OnAbsence.NONE,
        )
        set_next_game_started.send(
            sender=GameSet, game_set=game_set, game=game, previous_id=previous.pk
        )
    return game


def set_ready(*, game_set_id: int, user: User, now: datetime | None = None) -> GameSet:
    """``user``, a player of the set, is ready for its next game; when both are, it starts now.
    Refused when the set has no countdown running (its next game started already, or none
    comes)."""
    with transaction.atomic():
        game_set = GameSet.objects.select_for_update().filter(pk=game_set_id).first()
        if game_set is None:
            raise NotFound("not_found", f"There is no set {game_set_id}.")
        if user.pk not in (game_set.player1_id, game_set.player2_id):
            raise Forbidden("not_participant", "Only the set's two players can say they are ready.")
        if game_set.next_game_at is None or game_set.status != GameSet.Status.IN_PROGRESS:
            raise Conflict(
                "no_next_game",
                f"Set {game_set.pk} has no game waiting to start: it started already or the "
                "set is over. Open the set to see its games.",
            )
        field = "player1_ready" if user.pk == game_set.player1_id else "player2_ready"
        setattr(game_set, field, True)
        game_set.save(update_fields=[field])
        if game_set.player1_ready and game_set.player2_ready:
            set_next_game_start(game_set_id=game_set.pk, now=now, at_once=True)
            game_set.refresh_from_db()
        else:
            last = Game.objects.filter(game_set=game_set).order_by("-set_index").first()
            set_next_game.send(sender=GameSet, game_set=game_set, game_id=last.pk)
    return game_set


def sets_start_due(*, now: datetime | None = None) -> int:
    """Start the next game of every set whose countdown is over (their task was lost or late):
    the beat's backstop. Returns how many started."""
    now = now or timezone.now()
    due = GameSet.objects.filter(
        status=GameSet.Status.IN_PROGRESS, next_game_at__isnull=False, next_game_at__lte=now
    ).values_list("pk", flat=True)
    return sum(
        set_next_game_start(game_set_id=pk, now=now) is not None for pk in list(due.order_by("pk"))
    )
