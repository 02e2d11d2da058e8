"""Playing a game: stones, opening decisions, Go's marking, resignation.

Every turn goes through one pipeline (``_turn``): read the game, check the request, let the
engine play it, charge the clock, claim the row and write the moves (``games.play.claim``, the
one write), then the events (``games.play.events``). See ``docs/move-pipeline.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NoReturn

from django.db import transaction

from accounts.models import User
from games import engine
from games.clocks import services as clock_services
from games.clocks.timecontrol import Kind
from games.engine import Termination
from games.play import events
from games.play.access import (
    illegal_move_error,
    lock_game,
    now_or,
    require_in_progress,
    require_participant,
    seats_of,
    user_seats,
)
from games.play.claim import claim_turn, row_values
from games.play.finish import absence_finish, game_finish, loss_outcome
from games.play.models import Game, Move, Seat
from games.play.positions import (
    MoveRow,
    Played,
    Snapshot,
    cache_played,
    cached_game,
    move_rows,
    played_of,
)
from games.play.selectors import game_state
from pente_site.errors import Conflict, Invalid

MESSAGE_MAX = 255


@dataclass(slots=True)
class Loaded:
    """A game as one request read it: the row, its seats (users loaded), its moves and the
    position after them, the row's columns as read (what the claim checks), and whether the
    row is locked (read from the database) or came from the cache (to be checked by the
    claim, and any refusal answered from the database instead)."""

    game: Game
    seats: list[Seat]
    played: Played
    locked: bool
    as_read: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, game: Game, played: Played, *, locked: bool) -> Loaded:
        return cls(game, seats_of(game), played, locked, row_values(game))


@dataclass(frozen=True, slots=True)
class Action:
    """What a player asks: ``apply(position, seat)`` plays it on the engine position (which
    checks the turn) and returns its unsaved Move rows (``ply`` counted from 1);
    ``repeats(tail, position)`` says whether the user's last moves are this very request."""

    apply: Callable[[engine.Position, int], list[Move]]
    repeats: Callable[[Sequence[MoveRow], engine.Position], bool]


class _FromDatabase(Exception):
    """A game read from the cache asks for more than a plain turn (a refusal, the end of the
    game, a turn-based clock): the turn is read again, locked, from the database."""


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


def _turn(*, game_id: int, user: User, ply: int, now: datetime, action: Action) -> Snapshot:
    """The one pipeline of a player's turn. First from the cache, without a lock: a plain turn
    is claimed there (two statements with the token's); anything else, and a claim that finds
    the row moved on, is played from the database with the row locked, which gives every
    refusal. Returns the game as the turn left it, with its moves and position (what the answer
    is built from)."""
    cached = cached_game(game_id)
    if cached is not None:
        game, played = cached
        try:
            return _play(
                Loaded.of(game, played, locked=False), user=user, ply=ply, now=now, action=action
            )
        except _FromDatabase:
            pass
    with transaction.atomic():
        game = lock_game(game_id)
        loaded = Loaded.of(game, played_of(game), locked=True)
        shown = _play(loaded, user=user, ply=ply, now=now, action=action)
    if isinstance(shown, _TimedOut):  # the end of the game is committed, the turn refused
        shown.refuse()
    return shown


def _play(
    loaded: Loaded, *, user: User, ply: int, now: datetime, action: Action
) -> Snapshot | _TimedOut:
    """Check, play, claim, publish. From the cache (``loaded.locked`` False) every step that is
    not a plain turn raises ``_FromDatabase`` instead of answering."""

    def refuse() -> None:
        if not loaded.locked:
            raise _FromDatabase

    game, played = loaded.game, loaded.played
    position = played.position
    if not loaded.locked and game.time_control == Kind.TURN:
        refuse()  # vacations and the players' calendars: read and written under the lock
    mine = user_seats(loaded.seats, user)
    if not mine:
        refuse()
        require_participant(loaded.seats, user)
    if ply != game.ply:
        refuse()
        _answer_stale(loaded, user=user, mine=mine, ply=ply, action=action)
        return Snapshot(game, played)
    if game.status != Game.Status.IN_PROGRESS:
        refuse()
        require_in_progress(game)
    if position.to_move_seat is None:
        refuse()
        raise Conflict("game_over", "The game is over.")
    # Act as the user's seat and let the engine check the turn: its checks come in its own
    # order (a stone while a decision is pending is ``decision_pending`` whoever sends it;
    # then ``not_your_turn``), so the API gives the engine's codes and sentences.
    seat = position.to_move_seat if position.to_move_seat in mine else mine[0]
    if seat != position.to_move_seat:
        refuse()
    try:
        rows = action.apply(position, seat)
    except engine.IllegalMove as exc:
        refuse()
        raise illegal_move_error(exc) from None
    if position.outcome is not None:
        refuse()  # the end of the game: its result, ratings, sets, under the lock
    if game.time_control != Kind.NONE and not clock_services.clock_on_move(
        game=game, seat=seat, now=now, to_move_seat=position.to_move_seat
    ):
        refuse()
        return _lost_on_time(game, user=user, seat=seat, now=now)
    since_ply = game.ply
    for row in rows:
        row.ply += since_ply
    game.ply += len(rows)
    game.undo_requested_by = None
    if not claim_turn(game=game, as_read=loaded.as_read, seat=seat, user_id=user.pk, moves=rows):
        if loaded.locked:  # cannot happen: the row is locked
            raise RuntimeError(f"game {game.pk}: the locked row refused its claim")
        raise _FromDatabase
    shown = Snapshot(
        game,
        cache_played(game, played.extended(move_rows(rows, position.size), position), base=played),
    )
    # Locked, the events wait for the commit of the read's transaction. From the cache the claim
    # is committed: a transaction of their own, with no statement unless a guessed deadline is
    # corrected.
    with nullcontext() if loaded.locked else transaction.atomic():
        if position.outcome is not None:
            events.publish_on_commit([events.Changed(shown, "move", since_ply)])
            game_finish(game=game, outcome=position.outcome, now=now)
        else:
            events.publish_on_commit(
                _next_turn(shown, since_ply, position.to_move_seat, mover=seat)
            )
    return shown


def _next_turn(
    shown: Snapshot, since_ply: int, seat: int | None, *, mover: int
) -> list[events.Event]:
    """The events of a turn that leaves the game in progress (``seat`` to act next, None when
    the engine names none: the clock then guessed the seat after ``mover``)."""
    game = shown.game
    sent: list[events.Event] = [events.Changed(shown, "move", since_ply)]
    if game.deadline is not None:
        guessed = None if seat is not None else clock_services.rotation_seat(game=game, seat=mover)
        sent.append(events.DeadlineSet(game, guessed_seat=guessed))
    if seat is not None:
        sent.append(events.TurnStarted(game, seat))
    return sent


def _answer_stale(loaded: Loaded, *, user: User, mine: list[int], ply: int, action: Action) -> None:
    """Another ply than the game's: a repeat of the user's own last action returns (the game
    unchanged); else 409 ``stale_ply`` (or ``already_played``) with the game."""
    game, position = loaded.game, loaded.played.position
    try:
        repeated = _stale_or_repeat(
            game,
            loaded.played.tail,
            user_seats=mine,
            ply=ply,
            same=lambda t: action.repeats(t, position),
        )
    except _RepeatDiffers as differs:
        _conflict_with_state(game, user, differs.code, differs.detail)
    if not repeated:
        _conflict_with_state(
            game,
            user,
            "stale_ply",
            f"The game is at ply {game.ply}, not {ply}: reload and try again.",
        )


def _lost_on_time(game: Game, *, user: User, seat: int, now: datetime) -> _TimedOut:
    """The mover's time had run out: the game is lost on time (or, at a live seat's first
    move after its start window closed, aborted or forfeited); the refusal is raised once
    that is committed."""
    absent = game.time_control == Kind.LIVE and seat in game.awaiting_seats
    if absent:  # as the timeout task would have done a moment later
        absence_finish(game=game, seat=seat, now=now)
    else:
        game_finish(game=game, outcome=loss_outcome(game, seat, Termination.TIMEOUT), now=now)
    return _TimedOut(game, user, seat, absent)


@dataclass(frozen=True, slots=True)
class _TimedOut:
    """The game ended on time instead of the turn: answered as a refusal once committed."""

    game: Game
    user: User
    seat: int
    absent: bool

    def refuse(self) -> NoReturn:
        game, seat = self.game, self.seat
        if self.absent:
            _conflict_with_state(
                game,
                self.user,
                "start_window_over",
                f"Seat {seat}'s start window had closed before its first move: "
                + (
                    "the game is aborted."
                    if game.status == Game.Status.CANCELLED
                    else "it forfeits."
                ),
            )
        _conflict_with_state(
            game,
            self.user,
            "time_over",
            f"Seat {seat}'s time had run out: the game is lost on time.",
        )


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
) -> Snapshot:
    """Play one turn: one stone (or, in Go, ``PASS``), or two for a Connect6 turn
    (all-or-nothing). Points are ints or names on the game's board.

    ``ply`` is the game's ply the client saw. Sending the same turn twice returns the game.
    Returns the game as the turn left it, with its moves and position (``Snapshot``).
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

    return _turn(game_id=game_id, user=user, ply=ply, now=now, action=Action(apply, repeats))


def game_decide(
    *,
    game_id: int,
    user: User,
    ply: int,
    choice: str,
    disputed: Sequence[int | str] = (),
    now: datetime | None = None,
) -> Snapshot:
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

    return _turn(
        game_id=game_id, user=user, ply=ply, now=now_or(now), action=Action(apply, repeats)
    )


def game_mark_dead(
    *,
    game_id: int,
    user: User,
    ply: int,
    points: Sequence[int | str],
    now: datetime | None = None,
) -> Snapshot:
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

    return _turn(
        game_id=game_id, user=user, ply=ply, now=now_or(now), action=Action(apply, repeats)
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
