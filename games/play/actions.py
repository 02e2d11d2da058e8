"""Playing: stones, opening decisions and resignation, each one short locked transaction.

Every action follows the same pattern (``_act``): one ``transaction.atomic()``, one SELECT of
the seats joined to the game row locked ``FOR UPDATE OF`` it, the moves and the engine position
from the cache (``positions.played_of``: a SELECT and a replay only when the cache
has no entry for the row as it is now), let the engine validate, charge the clock, INSERT the
Move rows and UPDATE the changed columns of the game: four queries with the token's, however
long the game.
``UniqueConstraint(game, ply)`` backs the lock. The client sends the ply it saw: another ply is
409 ``stale_ply`` with the current game state in ``"game"`` (a repeat of the user's own last
action returns the game unchanged; a move repeated with a message it was played without is 409
``already_played``, with the game too, rather than played without its message).

The common turn, a stone that neither ends the game nor runs out a clock, in an untimed or
live game, first tries without the lock (``_unlocked_turn``): the cache keeps the game row,
its seats and users beside the position (``positions.cached_game``), the engine and the clock
act on them, and the write is a compare-and-set (``Game.save_turn_if_current``): the changed
columns and the Move rows are written only if the row still holds the ply, status,
``updated_at`` and deadline it was cached with, in one statement on PostgreSQL. Anything else
(nothing cached, a stale ply, a refusal, the end of the game, a turn-based clock, a row that
changed meanwhile) writes nothing that way and goes through ``_act``, which gives the answer:
two requests racing on one ply cannot both write, the constraint and the compare-and-set
both see to it.

Refusals (``pente_site.errors``): 404 ``not_found``; 403 ``not_a_participant``; 409
``stale_ply``, ``already_played``, ``not_your_turn``, ``game_over``, ``archived``, ``time_over`` (the mover's clock
had run out: the game was lost on time), ``start_window_over`` (a live game's first move of a
seat came after its start window closed: the game is aborted, or forfeited, as
``games.play.finish.absence_finish`` says); 400 the engine's codes (``occupied``, ``off_board``,
``bad_coordinate``, ``tournament_rule``, ``g_pente_point``, ``adjacent_only``,
``decision_pending``, ``no_decision_pending``, ``bad_decision``, ``wrong_stone_count``) and
``message_too_long``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import NoReturn

from django.db import transaction

from accounts.models import User
from games import engine
from games.clocks import services as clock_services
from games.clocks.timecontrol import Kind
from games.engine import Termination
from games.models import Game, Move
from games.play.access import (
    illegal_move_error,
    lock_game,
    now_or,
    require_in_progress,
    require_participant,
    seats_of,
    user_seats,
)
from games.play.finish import absence_finish, finish_from_position, game_finish, loss_outcome
from games.play.positions import (
    MoveRow,
    Played,
    cached_game,
    move_rows,
    played_of,
    remember_played,
)
from games.play.selectors import game_state
from games.play.signals import game_changed, turn_started
from pente_site.errors import Conflict, Invalid

MESSAGE_MAX = 255


def _stale_or_repeat(
    game: Game, moves: Sequence[MoveRow], *, user_seats: Sequence[int], ply: int, same
) -> bool:
    """True when the request repeats the last recorded action(s) of this user (harmless).
    ``moves`` ends with the game's last two moves at least."""
    n = game.ply - ply
    if n <= 0 or n > 2 or len(moves) < n:
        return False
    tail = moves[-n:]
    if any(m.seat not in user_seats for m in tail):
        return False
    return same(tail)


def _conflict_with_state(game: Game, user: User | None, code: str, detail: str) -> NoReturn:
    """A 409 refusal whose body carries the game as ``user`` sees it now."""
    raise Conflict(code, detail, extra={"game": game_state(game=game, viewer=user)})


def _check_message(message: str) -> str:
    message = (message or "").strip()
    if len(message) > MESSAGE_MAX:
        raise Invalid("message_too_long", f"A message has at most {MESSAGE_MAX} characters.")
    return message


class _RepeatDiffers(Exception):
    """A request repeats the user's last action but asks for more than it did (a move sent
    again with a message it was played without): refused rather than half done."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def _act(
    *,
    game_id: int,
    user: User,
    ply: int,
    now: datetime,
    repeats: Callable[[Sequence[MoveRow], engine.Position], bool],
    apply: Callable[[engine.Position, int], list[Move]],
) -> Game:
    """The one sequence of a player's action: lock, participant, stale ply (a repeat of the
    user's last action returns the game), in progress, ``apply(position, seat)`` (the engine
    action, which checks the turn; returns the unsaved Move rows, ``ply`` counted from 1),
    clock, write."""
    timed_out = absent = False
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = require_participant(seats, user)
        played = played_of(game)
        position = played.position
        if ply != game.ply:
            try:
                repeated = _stale_or_repeat(
                    game, played.tail, user_seats=mine, ply=ply, same=lambda t: repeats(t, position)
                )
            except _RepeatDiffers as differs:
                _conflict_with_state(game, user, differs.code, differs.detail)
            if repeated:
                return game
            _conflict_with_state(
                game,
                user,
                "stale_ply",
                f"The game is at ply {game.ply}, not {ply}: reload and try again.",
            )
        require_in_progress(game)
        if position.to_move_seat is None:
            raise Conflict("game_over", "The game is over.")
        # Act as the user's seat and let the engine check the turn: its checks come in its own
        # order (a stone while a decision is pending is ``decision_pending`` whoever sends it;
        # then ``not_your_turn``), so the API gives the engine's codes and sentences.
        seat = position.to_move_seat if position.to_move_seat in mine else mine[0]
        try:
            rows = apply(position, seat)
        except engine.IllegalMove as exc:
            raise illegal_move_error(exc) from None
        if game.time_control != Kind.NONE and not clock_services.clock_on_move(
            game=game, seat=seat, now=now, to_move_seat=position.to_move_seat
        ):
            absent = game.time_control == Kind.LIVE and seat in game.awaiting_seats
            if absent:  # as the timeout task would have done a moment later
                absence_finish(game=game, seat=seat, now=now)
            else:
                loss = loss_outcome(game, seat, Termination.TIMEOUT)
                game_finish(game=game, outcome=loss, now=now)
            timed_out = True
        else:
            since_ply = _advance(game, rows)
            Move.objects.bulk_create(rows)
            game.save_changed()
            _written(game, played, rows, position, since_ply=since_ply, now=now)
    if timed_out and absent:
        _conflict_with_state(
            game,
            user,
            "start_window_over",
            f"Seat {seat}'s start window had closed before its first move: "
            + ("the game is aborted." if game.status == Game.Status.CANCELLED else "it forfeits."),
        )
    if timed_out:
        _conflict_with_state(
            game,
            user,
            "time_over",
            f"Seat {seat}'s time had run out: the game is lost on time.",
        )
    return game


def _advance(game: Game, rows: Sequence[Move]) -> int:
    """Number ``rows`` (a turn's moves, ``ply`` counted from 1) after the game's moves and move
    the game on (unsaved); returns the ply before them."""
    since_ply = game.ply
    for row in rows:
        row.game = game
        row.ply += since_ply
    game.ply += len(rows)
    game.undo_requested_by = None
    return since_ply


def _written(
    game: Game,
    played: Played,
    rows: Sequence[Move],
    position: engine.Position,
    *,
    since_ply: int,
    now: datetime,
) -> None:
    """What follows a turn's write: the moves and position kept for the next request, the
    event, then the end of the game or the next turn (its timeout, a computer's move)."""
    remember_played(game, played.extended(move_rows(rows, position.size), position), base=played)
    game_changed.send(sender=Game, game=game, kind="move", since_ply=since_ply)
    if position.outcome is not None:
        finish_from_position(game=game, position=position, now=now)
    else:
        if game.deadline is not None:
            clock_services.timeout_schedule(game=game)
        if position.to_move_seat is not None:
            turn_started.send(sender=Game, game=game, seat=position.to_move_seat)


def _unlocked_turn(
    *,
    game_id: int,
    user: User,
    ply: int,
    now: datetime,
    apply: Callable[[engine.Position, int], list[Move]],
) -> Game | None:
    """The common turn without the row lock: from the cached row and position, written with a
    compare-and-set (``Game.save_turn_if_current``: one statement on PostgreSQL, with the token's
    two queries a move). None, having written nothing, whenever the turn is not a plain one:
    nothing cached, another ply, not the user's turn, a refusal, the end of the game, a
    turn-based clock (vacations and the players' calendars), a live clock run out, or a row
    changed since it was cached; ``_act`` then plays it under the lock and gives the answer."""
    cached = cached_game(game_id)
    if cached is None:
        return None
    game, played = cached
    if game.ply != ply or game.status != Game.Status.IN_PROGRESS or game.time_control == Kind.TURN:
        return None
    position = played.position
    seat = position.to_move_seat
    if seat is None or seat not in user_seats(seats_of(game), user):
        return None
    try:
        rows = apply(position, seat)
    except engine.IllegalMove:
        return None
    if position.outcome is not None:
        return None
    if game.time_control != Kind.NONE and not clock_services.clock_on_move(
        game=game, seat=seat, now=now, to_move_seat=position.to_move_seat
    ):
        return None
    since_ply = _advance(game, rows)
    if not game.save_turn_if_current(rows):
        return None
    # No statement runs in here: the block only gathers what follows the write (the events,
    # a computer's move, the timeout) to send when it ends, the events in one round trip.
    with transaction.atomic():
        _written(game, played, rows, position, since_ply=since_ply, now=now)
    return game


def _tokens(position: engine.Position, points: Sequence[int | str]) -> list[int | None]:
    """The points of a turn on this board (``None``: Go's pass); raises the engine's refusal."""
    return [position.parse_move(p) for p in points]


def move_play(
    *,
    game_id: int,
    user: User,
    ply: int,
    points: Sequence[int | str],
    message: str = "",
    now: datetime | None = None,
) -> Game:
    """Play one turn: one stone (or, in Go, ``PASS``), or two for a Connect6 turn
    (all-or-nothing). Points are ints or names on the game's board.

    ``ply`` is the game's ply the client saw. Sending the same turn twice returns the game.
    """
    now = now_or(now)
    message = _check_message(message)
    if not points:
        raise Invalid("wrong_stone_count", "Send a point to play.")

    def repeats(tail: Sequence[MoveRow], position: engine.Position) -> bool:
        try:
            wanted = _tokens(position, points)
        except engine.IllegalMove:
            return False
        same = [m.point for m in tail] == wanted and all(
            m.kind in (Move.Kind.STONE, Move.Kind.PASS) for m in tail
        )
        if same and message and tail[0].message != message:
            raise _RepeatDiffers(
                "already_played",
                "This move is already played, without this message: say it in the game's chat.",
            )
        return same

    def apply(position: engine.Position, seat: int) -> list[Move]:
        turn = _tokens(position, points)
        results = position.play_turn(turn, seat=seat)
        return [
            Move(
                ply=i,
                seat=seat,
                kind=Move.Kind.STONE if r.point is not None else Move.Kind.PASS,
                point=r.point,
                message=message if i == 1 else "",
            )
            for i, r in enumerate(results, start=1)
        ]

    played = _unlocked_turn(game_id=game_id, user=user, ply=ply, now=now, apply=apply)
    if played is not None:
        return played
    return _act(game_id=game_id, user=user, ply=ply, now=now, repeats=repeats, apply=apply)


def game_decide(
    *,
    game_id: int,
    user: User,
    ply: int,
    choice: str,
    disputed: Sequence[int | str] = (),
    now: datetime | None = None,
) -> Game:
    """Make the pending decision: D-Pente / Swap2 (``keep``/``swap``/``place_two``/``colour1``/
    ``colour2``), or in Go the answer to the marking of dead stones (``accept``: the game is
    counted; ``reject``: play resumes). A rejection may name the stones it ``disputes`` (the
    computer's do): the Move's ``choice`` is then ``reject C3 D4``, and the state shows them
    (``go.disputed``) until the next marking."""

    def repeats(tail: Sequence[MoveRow], position: engine.Position) -> bool:
        return (
            bool(tail)
            and tail[-1].kind == Move.Kind.DECISION
            and tail[-1].choice.split()[:1] == [choice]
        )

    def apply(position: engine.Position, seat: int) -> list[Move]:
        if disputed and choice != "reject":
            raise engine.IllegalMove("bad_decision", "Only Go's rejection names disputed stones.")
        stored = position.decide(choice, seat=seat, disputed=disputed)
        return [Move(ply=1, seat=seat, kind=Move.Kind.DECISION, choice=stored)]

    return _act(
        game_id=game_id,
        user=user,
        ply=ply,
        now=now_or(now),
        repeats=repeats,
        apply=apply,
    )


def game_mark_dead(
    *,
    game_id: int,
    user: User,
    ply: int,
    points: Sequence[int | str],
    now: datetime | None = None,
) -> Game:
    """Go, after two passes: the player who passed first proposes the dead stones (names or
    ints; none at all is a proposal too); the other then accepts or rejects (``game_decide``)."""

    def marked(position: engine.Position) -> str:
        dead = sorted({position.parse_point(p) for p in points})
        return " ".join(position.point_name(p) for p in dead)

    def repeats(tail: Sequence[MoveRow], position: engine.Position) -> bool:
        try:
            return (
                bool(tail)
                and tail[-1].kind == Move.Kind.MARK
                and tail[-1].choice == marked(position)
            )
        except engine.IllegalMove:
            return False

    def apply(position: engine.Position, seat: int) -> list[Move]:
        if not position.marks_dead:
            raise engine.IllegalMove("not_marking", "Only Go has dead stones to mark.")
        choice = marked(position)
        position.mark_dead(choice.split(), seat=seat)
        return [Move(ply=1, seat=seat, kind=Move.Kind.MARK, choice=choice)]

    return _act(
        game_id=game_id,
        user=user,
        ply=ply,
        now=now_or(now),
        repeats=repeats,
        apply=apply,
    )


def game_resign(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """Resign: the user's side loses; every other side wins (2 players: the opponent)."""
    now = now_or(now)
    with transaction.atomic():
        game = lock_game(game_id)
        mine = require_participant(seats_of(game), user)
        require_in_progress(game)
        game_finish(game=game, outcome=loss_outcome(game, mine[0], Termination.RESIGN), now=now)
    return game
