"""Ending games: a result or a cancellation, and the sets they close (inside the caller's
transaction, the game row locked)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db.models import F

from accounts.models import User
from games import engine
from games.clocks.selectors import seats_at_table
from games.engine import Outcome, Termination
from games.play.access import now_or
from games.play.models import ABORTED, Game, GameSet, Seat
from games.play.positions import opponents_of
from games.play.sets import next_games_schedule, one_at_a_time
from games.play.signals import game_finished, set_finished, sets_finished


def game_finish(
    *,
    game: Game,
    outcome: Outcome,
    now: datetime | None = None,
    finished_at: datetime | None = None,
) -> None:
    """End a game with ``outcome``: status, end_reason, winners, finished_at (``now`` unless
    given: a timeout is finished at its deadline); clear the deadline and requests; send
    ``game_finished``; finish the set when all its games are over. Saves the game."""
    now = now_or(now)
    _close(
        game,
        Game.Status.FINISHED,
        outcome.termination,
        outcome.winners,
        now,
        finished_at=finished_at,
    )


def game_cancel_finish(*, game: Game, now: datetime) -> None:
    """End a game as cancelled (no result): as ``game_finish`` otherwise."""
    _close(game, Game.Status.CANCELLED, "", (), now)


def absence_finish(
    *, game: Game, seat: int, now: datetime, finished_at: datetime | None = None
) -> None:
    """The start window closed on ``seat`` (to move, no action of its own yet) in the locked
    ``game``; what follows is the game's ``on_absence``:

    - ``abort``: the game is cancelled with end reason ``aborted`` (no winner, not rated, not
      counted), ``absent_seats`` is ``[seat]`` and its player's ``User.aborts`` grows by one;
      the set, if any, is aborted with it (its other games in progress too).
    - ``forfeit``: the absent seats lose (end reason ``forfeit``): ``seat`` and every seat that
      has not acted either and whose player does not have the game open. When no side is left
      (both players of a two-player game) the game is finished with no winner: a double
      forfeit.
    - ``none`` (no window should have been set): a loss on time.

    ``finished_at`` (default ``now``) is when the window closed."""
    if game.on_absence == Game.OnAbsence.ABORT:
        game.absent_seats = [seat]
        _close(game, Game.Status.CANCELLED, ABORTED, (), now, finished_at=finished_at)
        user_id = Seat.objects.filter(game_id=game.pk, seat=seat).values_list("user_id", flat=True)
        User.objects.filter(pk__in=user_id).update(aborts=F("aborts") + 1)
        if game.game_set_id is not None:
            _set_abort(game, now)
        return
    if game.on_absence != Game.OnAbsence.FORFEIT:
        outcome = loss_outcome(game, seat, Termination.TIMEOUT)
        game_finish(game=game, outcome=outcome, now=now, finished_at=finished_at)
        return
    here = seats_at_table(game) if len(game.awaiting_seats) > 1 else set()
    absent = {seat} | {s for s in game.awaiting_seats if s not in here}
    winners = set(range(1, game.seats + 1)) - absent
    for s in absent:
        winners &= set(opponents_of(game, s))
    game.absent_seats = sorted(absent)
    _close(
        game,
        Game.Status.FINISHED,
        Termination.FORFEIT,
        sorted(winners),
        now,
        finished_at=finished_at,
    )


def _set_abort(game: Game, now: datetime) -> None:
    """Abort the set of the aborted ``game``: its other games in progress, then the set."""
    others = Game.objects.select_for_update().filter(
        game_set_id=game.game_set_id, status=Game.Status.IN_PROGRESS
    )
    for other in others.exclude(pk=game.pk).order_by("pk"):
        _close(other, Game.Status.CANCELLED, ABORTED, (), now, check_set=False)
    GameSet.objects.filter(pk=game.game_set_id, status=GameSet.Status.IN_PROGRESS).update(
        status=GameSet.Status.CANCELLED, finished_at=now
    )


def loss_outcome(game: Game, seat: int, termination: Termination) -> Outcome:
    """``seat`` loses (resigns, forfeits, runs out of time): every other side wins."""
    return Outcome(termination, tuple(opponents_of(game, seat)))


def finish_from_position(*, game: Game, position: engine.Position, now: datetime) -> None:
    """Finish the game when its engine position is over (a five, captures, a full board)."""
    if position.outcome is not None:
        game_finish(game=game, outcome=position.outcome, now=now)


def _close(
    game: Game,
    status: str,
    end_reason: str,
    winner_seats: Sequence[int],
    now: datetime,
    *,
    check_set: bool = True,
    finished_at: datetime | None = None,
) -> None:
    game.status = status
    game.end_reason = end_reason
    game.winner_seats = sorted(set(winner_seats))
    game.finished_at = finished_at or now
    game.deadline = None
    game.undo_requested_by = None
    game.cancel_requested_by = None
    game.save()
    game_finished.send(sender=Game, game=game)
    if check_set and game.game_set_id is not None:
        sets_maybe_finish(game_set_ids=[game.game_set_id], now=now)


#: Sets written by one UPDATE when many finish at once.
SET_UPDATE_BATCH = 500


def sets_maybe_finish(*, game_set_ids: Iterable[int], now: datetime) -> None:
    """Give each set of ``game_set_ids`` whose games are all over its result and send
    ``set_finished`` (then ``sets_finished`` once with all of them); a live set played one game
    at a time whose game is over and has a game to come gets its countdown to it
    (``games.play.sets``). Locks the sets in id order; a fixed number of queries however many sets
    (the timeout sweeper finishes thousands at once)."""
    sets = list(
        GameSet.objects.select_for_update()
        .filter(pk__in=sorted(set(game_set_ids)), status=GameSet.Status.IN_PROGRESS)
        .order_by("pk")
    )
    games_of: dict[int, list[Game]] = defaultdict(list)
    for g in Game.objects.filter(game_set__in=[s.pk for s in sets]).order_by("set_index"):
        games_of[g.game_set_id].append(g)
    over = [s for s in sets if not any(g.status == Game.Status.IN_PROGRESS for g in games_of[s.pk])]
    ready, next_up = [], []
    for s in over:
        games = games_of[s.pk]
        if len(games) >= s.games_count or any(g.status == Game.Status.CANCELLED for g in games):
            ready.append(s)
        elif one_at_a_time(games=games):  # a live set: its next game after a countdown
            next_up.append(s)
        # else fewer games than the set has: set_create is still running
    if next_up:
        next_games_schedule(game_sets=next_up, games_of=games_of, now=now)
    if not ready:
        return
    seat_users = {
        (game_id, seat): user_id
        for game_id, seat, user_id in Seat.objects.filter(
            game__game_set__in=[s.pk for s in ready]
        ).values_list("game_id", "seat", "user_id")
    }
    for game_set in ready:
        _set_result(game_set, games_of[game_set.pk], seat_users, now)
    _write_results(ready, now)
    finished = [s for s in ready if s.status == GameSet.Status.FINISHED]
    for game_set in finished:
        set_finished.send(sender=GameSet, game_set=game_set)
    if finished:
        sets_finished.send(sender=GameSet, game_sets=finished)


def _write_results(sets: Sequence[GameSet], now: datetime) -> None:
    """Save the results ``_set_result`` gave: one UPDATE per kind of result (the winner is
    then a column of the row: player 1, player 2 or nobody), not a CASE per set, which costs
    far more to build for thousands of sets."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for game_set in sets:
        groups[(game_set.status, game_set.result)].append(game_set.pk)
    winners = {GameSet.Result.PLAYER1: F("player1"), GameSet.Result.PLAYER2: F("player2")}
    for (status, result), ids in groups.items():
        for start in range(0, len(ids), SET_UPDATE_BATCH):
            GameSet.objects.filter(pk__in=ids[start : start + SET_UPDATE_BATCH]).update(
                status=status, result=result, winner=winners.get(result), finished_at=now
            )


def _set_result(
    game_set: GameSet, games: Sequence[Game], seat_users: dict[tuple[int, int], int], now
) -> None:
    """Fill a set's status, result and winner from its finished games (no save)."""
    game_set.finished_at = now
    if any(g.status == Game.Status.CANCELLED for g in games):
        game_set.status = GameSet.Status.CANCELLED
        return
    wins = {game_set.player1_id: 0, game_set.player2_id: 0}
    for g in games:
        winners = {seat_users.get((g.pk, seat)) for seat in g.winner_seats}
        for user_id in winners:
            if user_id in wins:
                wins[user_id] += 1
    p1, p2 = wins[game_set.player1_id], wins[game_set.player2_id]
    if p1 > p2:
        game_set.result, game_set.winner_id = GameSet.Result.PLAYER1, game_set.player1_id
    elif p2 > p1:
        game_set.result, game_set.winner_id = GameSet.Result.PLAYER2, game_set.player2_id
    else:
        game_set.result, game_set.winner_id = GameSet.Result.DRAW, None
    game_set.status = GameSet.Status.FINISHED
