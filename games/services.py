"""Business logic of the games app: create games and sets, play, decide, resign, cancel, undo,
finish, import.

Every action that changes a game follows the same short pattern: one ``transaction.atomic()``,
``select_for_update()`` on the game row, one SELECT of the moves ordered by ply, rebuild the
engine position (``games.engine.Game.replay``), validate, write Move rows and game fields.
``UniqueConstraint(game, ply)`` backs the lock.

Refusals are ``pente_site.api.ApiError`` with a machine-readable ``code``:

- 404 ``not_found``           unknown game or set
- 403 ``not_a_participant``   the user holds no seat in the game
- 409 ``stale_ply``           the ply sent is not the game's current ply (body has ``game``)
- 409 ``not_your_turn``       another seat is to move
- 409 ``game_over``           the game is finished or cancelled
- 409 ``archived``            the game is an imported record (status ``archived``): never played
- 409 ``time_over``           the mover's clock had run out: the game was lost on time
- 400 engine codes            ``occupied``, ``off_board``, ``bad_coordinate``, ``tournament_rule``,
                              ``g_pente_point``, ``adjacent_only``, ``decision_pending``,
                              ``no_decision_pending``, ``bad_decision``, ``wrong_stone_count``
- 409 ``cancel_forbidden``, ``undo_not_allowed``, ``no_request``
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NoReturn

from django.db import transaction
from django.utils import timezone

from games import clocks, timeouts
from games.models import Game, GameSet, Move, Seat, User
from games.signals import game_finished, set_finished
from pente_site.api import ApiError

#: Callables ``check(game) -> str | None``: a non-empty string forbids cancelling the game and is
#: the reason shown. The tournaments app appends its check (tournament games cannot be cancelled).
CANCEL_FORBIDDEN_CHECKS: list[Callable[[Game], str | None]] = []

#: Codes of engine refusals that are conflicts with the game's state rather than bad input.
CONFLICT_CODES = frozenset({"not_your_turn", "game_over"})

MESSAGE_MAX = 255


# --- engine adapter ----------------------------------------------------------------------


def _engine():
    from games import engine

    return engine


def engine_options(game: Game) -> dict[str, Any]:
    """Constructor options of the engine position for a game row."""
    return {
        "seats": game.seats,
        "partners": game.partners,
        "tournament_rule": game.tournament_rule,
        "rated": game.rated,
        "adjacent_only": game.adjacent_only,
    }


def move_actions(moves: Sequence[Move]) -> list[int | str]:
    """Engine actions (point ints, decision strings) of Move rows in ply order."""
    return [m.point if m.kind == Move.Kind.STONE else m.choice for m in moves]


def position_of(game: Game, moves: Sequence[Move] | None = None):
    """The engine position after ``moves`` (default: all the game's moves, one SELECT)."""
    if moves is None:
        moves = list(game.moves.order_by("ply"))
    return _engine().Game.replay(game.variant, move_actions(moves), **engine_options(game))


def replayed(game: Game) -> tuple[list[Move], Any] | None:
    """The moves and engine position a player's action left on this ``game`` instance (so the
    response need not SELECT and replay them again); None when the instance has none or has
    moved on since."""
    kept = getattr(game, "_replayed", None)
    if kept is None or kept[0] != game.ply:
        return None
    return kept[1], kept[2]


# --- small helpers -----------------------------------------------------------------------


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _lock_game(game_id: int) -> Game:
    """The game row, locked. An archived (imported) game is refused at once: nobody plays it,
    and its seats have no users, so this comes before the participant check."""
    try:
        game = Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise ApiError("not_found", f"There is no game {game_id}.", status_code=404) from None
    _refuse_archived(game)
    return game


def _refuse_archived(game: Game) -> None:
    if game.status == Game.Status.ARCHIVED:
        raise ApiError(
            "archived",
            f"Game {game.pk} is an imported record, kept as an archive: it cannot be played.",
            status_code=409,
        )


def _seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).order_by("seat"))


def _user_seats(seats: Sequence[Seat], user: User | None) -> list[int]:
    if user is None or not user.is_authenticated:
        return []
    return [s.seat for s in seats if s.user_id == user.pk]


def _require_participant(seats: Sequence[Seat], user: User | None) -> list[int]:
    mine = _user_seats(seats, user)
    if not mine:
        raise ApiError(
            "not_a_participant", "Only the players of this game can do that.", status_code=403
        )
    return mine


def _require_in_progress(game: Game) -> None:
    _refuse_archived(game)
    if game.status != Game.Status.IN_PROGRESS:
        raise ApiError("game_over", f"Game {game.pk} is over ({game.status}).", status_code=409)


def team_of(game: Game, seat: int) -> tuple[int, ...]:
    """Seats on the same side as ``seat`` (partners: 1&3, 2&4; otherwise the seat alone)."""
    if game.partners:
        return (1, 3) if seat in (1, 3) else (2, 4)
    return (seat,)


def opponents_of(game: Game, seat: int) -> list[int]:
    team = team_of(game, seat)
    return [s for s in range(1, game.seats + 1) if s not in team]


def illegal_to_api(exc) -> ApiError:
    status_code = 409 if exc.code in CONFLICT_CODES else 400
    return ApiError(exc.code, exc.detail, status_code=status_code)


# --- creation ----------------------------------------------------------------------------


def require_valid_time_control(
    *, time_control: str, initial_minutes: int, increment_seconds: int, days_per_move: int
) -> None:
    """``clocks.validate_time_control`` with its refusal as a 400 ``ApiError``. The numbers a
    time control does not use must still be in their ranges (the database checks them)."""
    limits = (
        ("initial_minutes", initial_minutes, clocks.MAX_INITIAL_MINUTES),
        ("increment_seconds", increment_seconds, clocks.MAX_INCREMENT_SECONDS),
        ("days_per_move", days_per_move, clocks.MAX_DAYS_PER_MOVE),
    )
    for name, value, most in limits:
        if not 0 <= value <= most:
            raise ApiError("bad_time_control", f"{name} must be 0..{most}.")
    try:
        clocks.validate_time_control(
            time_control=time_control,
            initial_minutes=initial_minutes,
            increment_seconds=increment_seconds,
            days_per_move=days_per_move,
        )
    except clocks.ClockError as exc:
        raise ApiError(exc.code, exc.detail) from None


def game_create(
    *,
    variant: str,
    players: list[User],
    rated: bool = False,
    tournament_rule: bool | None = None,
    adjacent_only: bool = False,
    partners: bool = False,
    time_control: str = "none",
    initial_minutes: int = 0,
    increment_seconds: int = 0,
    days_per_move: int = 0,
    vacation_allowed: bool = True,
    game_set: GameSet | None = None,
    set_index: int = 1,
    now: datetime | None = None,
) -> Game:
    """Create a game with ``players`` in seat order (seat 1 moves first).

    Stones the engine places by itself (the centre stone) are written as Move rows, so
    ``game.ply`` always equals the engine's number of actions. Starts the clock.
    """
    now = _now(now)
    engine = _engine()
    v = engine.get_variant(variant)
    seats = len(players)
    if not 2 <= seats <= 6:
        raise ApiError("bad_seats", "A game has 2 to 6 players.")
    if partners and seats != 4:
        raise ApiError("bad_seats", "Partners games have exactly 4 players.")
    if len({user.pk for user in players}) != seats:
        raise ApiError("bad_players", "A player can take only one seat of a game.")
    require_valid_time_control(
        time_control=time_control,
        initial_minutes=initial_minutes,
        increment_seconds=increment_seconds,
        days_per_move=days_per_move,
    )
    try:
        fresh = engine.Game(
            v,
            seats=seats,
            partners=partners,
            tournament_rule=tournament_rule,
            rated=rated,
            adjacent_only=adjacent_only,
        )
    except engine.EngineError as exc:
        raise ApiError("bad_options", str(exc)) from None
    tournament_rule = fresh.tournament_rule
    with transaction.atomic():
        game = Game.objects.create(
            variant=v.name,
            game_set=game_set,
            set_index=set_index,
            seats=seats,
            partners=partners,
            rated=rated,
            tournament_rule=tournament_rule,
            adjacent_only=adjacent_only,
            time_control=time_control,
            initial_minutes=initial_minutes,
            increment_seconds=increment_seconds,
            days_per_move=days_per_move,
            category=clocks.category_of(
                time_control=time_control,
                initial_minutes=initial_minutes,
                increment_seconds=increment_seconds,
            ),
            vacation_allowed=vacation_allowed,
            started_at=now,
        )
        Seat.objects.bulk_create(
            Seat(game=game, seat=i, user=user, name=user.username)
            for i, user in enumerate(players, start=1)
        )
        actions = list(fresh.actions)
        Move.objects.bulk_create(
            Move(
                game=game,
                ply=i,
                seat=1,
                kind=Move.Kind.STONE if isinstance(a, int) else Move.Kind.DECISION,
                point=a if isinstance(a, int) else None,
                choice="" if isinstance(a, int) else a,
            )
            for i, a in enumerate(actions, start=1)
        )
        game.ply = len(actions)
        if time_control != "none":
            timeouts.clock_start(game=game, now=now, to_move_seat=fresh.to_move_seat)
        game.save()
        if game.deadline is not None:
            timeouts.timeout_schedule(game=game)
    return game


def set_create(
    *,
    player1: User,
    player2: User,
    variant: str,
    rated: bool,
    games_count: int | None = None,
    time_control: str = "none",
    initial_minutes: int = 0,
    increment_seconds: int = 0,
    days_per_move: int = 0,
    vacation_allowed: bool = True,
    tournament_rule: bool | None = None,
    adjacent_only: bool = False,
    now: datetime | None = None,
) -> GameSet:
    """A set between two players, its games created at once (game 2 has the colours swapped).

    ``games_count`` None: the variant's set size when rated (2, or 1 for Swap2), else 1.
    """
    v = _engine().get_variant(variant)
    if games_count is None:
        games_count = v.set_size if rated else 1
    if games_count not in (1, 2):
        raise ApiError("bad_games_count", "A set has 1 or 2 games.")
    if player1.pk == player2.pk:
        raise ApiError("bad_players", "A set needs two different players.")
    with transaction.atomic():
        game_set = GameSet.objects.create(
            player1=player1,
            player2=player2,
            variant=v.name,
            rated=rated,
            category=clocks.category_of(
                time_control=time_control,
                initial_minutes=initial_minutes,
                increment_seconds=increment_seconds,
            ),
            games_count=games_count,
        )
        order = [[player1, player2], [player2, player1]]
        for index in range(1, games_count + 1):
            game_create(
                variant=v.name,
                players=order[index - 1],
                rated=rated,
                tournament_rule=tournament_rule,
                adjacent_only=adjacent_only,
                time_control=time_control,
                initial_minutes=initial_minutes,
                increment_seconds=increment_seconds,
                days_per_move=days_per_move,
                vacation_allowed=vacation_allowed,
                game_set=game_set,
                set_index=index,
                now=now,
            )
    return game_set


# --- finishing ---------------------------------------------------------------------------


def game_finish(
    *,
    game: Game,
    end_reason: str,
    winner_seats: Sequence[int],
    now: datetime | None = None,
    status: str = Game.Status.FINISHED,
) -> None:
    """End a game (row already locked): status, end_reason, winners, finished_at; clear the
    deadline and requests; send ``game_finished``; finish the set when all its games are over.
    Saves the game."""
    now = _now(now)
    game.status = status
    game.end_reason = end_reason
    game.winner_seats = sorted(set(winner_seats))
    game.finished_at = now
    game.deadline = None
    game.undo_requested_by = None
    game.cancel_requested_by = None
    game.save()
    game_finished.send(sender=Game, game=game)
    if game.game_set_id is not None:
        sets_maybe_finish(game_set_ids=[game.game_set_id], now=now)


def sets_maybe_finish(*, game_set_ids: Iterable[int], now: datetime) -> None:
    """Give each set of ``game_set_ids`` whose games are all over its result and send
    ``set_finished``. Locks the sets in id order; a fixed number of queries however many sets
    (the timeout sweeper finishes thousands at once)."""
    sets = list(
        GameSet.objects.select_for_update()
        .filter(pk__in=sorted(set(game_set_ids)), status=GameSet.Status.IN_PROGRESS)
        .order_by("pk")
    )
    games_of: dict[int, list[Game]] = defaultdict(list)
    for g in Game.objects.filter(game_set__in=[s.pk for s in sets]).order_by("set_index"):
        games_of[g.game_set_id].append(g)
    ready = [
        s
        for s in sets
        # fewer games than the set has: set_create is still running
        if len(games_of[s.pk]) >= s.games_count
        and not any(g.status == Game.Status.IN_PROGRESS for g in games_of[s.pk])
    ]
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
    GameSet.objects.bulk_update(ready, ["status", "result", "winner", "finished_at"])
    for game_set in ready:
        if game_set.status == GameSet.Status.FINISHED:
            set_finished.send(sender=GameSet, game_set=game_set)


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


def _finish_from_position(game: Game, position, now: datetime) -> None:
    if position.status == "in_progress":
        return
    reason = position.result_reason or ("draw" if position.status == "draw" else "five")
    game_finish(
        game=game, end_reason=reason, winner_seats=list(position.winner_seats or ()), now=now
    )


def _timeout_loss(game: Game, seat: int, now: datetime) -> None:
    game_finish(game=game, end_reason="timeout", winner_seats=opponents_of(game, seat), now=now)


# --- playing -----------------------------------------------------------------------------


def _stale_or_repeat(
    game: Game, moves: Sequence[Move], *, user_seats: Sequence[int], ply: int, same
) -> bool:
    """True when the request repeats the last recorded action(s) of this user (harmless)."""
    n = game.ply - ply
    if n <= 0 or n > 2 or len(moves) < n:
        return False
    tail = moves[-n:]
    if any(m.seat not in user_seats for m in tail):
        return False
    return same(tail)


def _conflict_with_state(game: Game, user: User | None, code: str, detail: str) -> NoReturn:
    """A 409 refusal whose body carries the game as ``user`` sees it now."""
    from games.selectors import game_state  # local: selectors import services helpers

    raise ApiError(
        code, detail, status_code=409, extra={"game": game_state(game=game, viewer=user)}
    )


def _check_message(message: str) -> str:
    message = (message or "").strip()
    if len(message) > MESSAGE_MAX:
        raise ApiError("message_too_long", f"A message has at most {MESSAGE_MAX} characters.")
    return message


def _act(
    *,
    game_id: int,
    user: User,
    ply: int,
    now: datetime,
    repeats: Callable[[Sequence[Move]], bool],
    apply: Callable[[Any, int], list[Move]],
) -> Game:
    """The one sequence of a player's action: lock, participant, stale ply (a repeat of the
    user's last action returns the game), in progress, ``apply(position, seat)`` (the engine
    action, which checks the turn; returns the unsaved Move rows, ``ply`` counted from 1),
    clock, write."""
    timed_out = False
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = _seats_of(game)
        mine = _require_participant(seats, user)
        moves = list(Move.objects.filter(game=game).order_by("ply"))
        if ply != game.ply:
            if _stale_or_repeat(game, moves, user_seats=mine, ply=ply, same=repeats):
                return game
            _conflict_with_state(
                game,
                user,
                "stale_ply",
                f"The game is at ply {game.ply}, not {ply}: reload and try again.",
            )
        _require_in_progress(game)
        position = position_of(game, moves)
        if position.to_move_seat is None:
            raise ApiError("game_over", "The game is over.", status_code=409)
        # Act as the user's seat and let the engine check the turn: its checks come in its own
        # order (a stone while a decision is pending is ``decision_pending`` whoever sends it;
        # then ``not_your_turn``), so the API gives the engine's codes and sentences.
        seat = position.to_move_seat if position.to_move_seat in mine else mine[0]
        try:
            rows = apply(position, seat)
        except _engine().IllegalMove as exc:
            raise illegal_to_api(exc) from None
        if game.time_control != "none" and not timeouts.clock_on_move(
            game=game, seat=seat, now=now, to_move_seat=position.to_move_seat
        ):
            _timeout_loss(game, seat, now)
            timed_out = True
        else:
            for row in rows:
                row.game = game
                row.ply += game.ply
            Move.objects.bulk_create(rows)
            game.ply += len(rows)
            game._replayed = (game.ply, [*moves, *rows], position)
            game.undo_requested_by = None
            game.save()
            if position.status != "in_progress":
                _finish_from_position(game, position, now)
            elif game.deadline is not None:
                timeouts.timeout_schedule(game=game)
    if timed_out:
        _conflict_with_state(
            game,
            user,
            "time_over",
            f"Seat {seat}'s time had run out: the game is lost on time.",
        )
    return game


def move_play(
    *,
    game_id: int,
    user: User,
    ply: int,
    points: list[int],
    message: str = "",
    now: datetime | None = None,
) -> Game:
    """Play one turn: one stone, or two for a Connect6 turn (all-or-nothing).

    ``ply`` is the game's ply the client saw. Sending the same turn twice returns the game.
    """
    now = _now(now)
    message = _check_message(message)
    if not points:
        raise ApiError("wrong_stone_count", "Send a point to play.")

    def repeats(tail: Sequence[Move]) -> bool:
        return [m.point for m in tail] == list(points) and all(
            m.kind == Move.Kind.STONE for m in tail
        )

    def apply(position, seat: int) -> list[Move]:
        results = position.play_turn(list(points), seat=seat)
        return [
            Move(
                ply=i,
                seat=seat,
                kind=Move.Kind.STONE,
                point=r.point,
                message=message if i == 1 else "",
            )
            for i, r in enumerate(results, start=1)
        ]

    return _act(game_id=game_id, user=user, ply=ply, now=now, repeats=repeats, apply=apply)


def game_decide(
    *, game_id: int, user: User, ply: int, choice: str, now: datetime | None = None
) -> Game:
    """Make the pending D-Pente / Swap2 decision (``keep``/``swap``/``place_two``/``colour1``/
    ``colour2``)."""

    def repeats(tail: Sequence[Move]) -> bool:
        return len(tail) == 1 and tail[0].kind == Move.Kind.DECISION and tail[0].choice == choice

    def apply(position, seat: int) -> list[Move]:
        position.decide(choice, seat=seat)  # a decision never ends the game
        return [Move(ply=1, seat=seat, kind=Move.Kind.DECISION, choice=choice)]

    return _act(
        game_id=game_id,
        user=user,
        ply=ply,
        now=_now(now),
        repeats=repeats,
        apply=apply,
    )


def game_resign(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """Resign: the user's side loses; every other side wins (2 players: the opponent)."""
    now = _now(now)
    with transaction.atomic():
        game = _lock_game(game_id)
        mine = _require_participant(_seats_of(game), user)
        _require_in_progress(game)
        game_finish(
            game=game, end_reason="resign", winner_seats=opponents_of(game, mine[0]), now=now
        )
    return game


# --- cancel ------------------------------------------------------------------------------


def cancel_forbidden_reason(game: Game) -> str | None:
    """Why the game cannot be cancelled (None when it can)."""
    if game.status == Game.Status.ARCHIVED:
        return "The game is an imported record."
    if game.status != Game.Status.IN_PROGRESS:
        return "The game is over."
    for check in CANCEL_FORBIDDEN_CHECKS:
        reason = check(game)
        if reason:
            return str(reason)
    return None


def game_cancel_request(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """Ask to cancel; when an opponent already asked, this agrees and the game is cancelled."""
    now = _now(now)
    with transaction.atomic():
        game = _lock_game(game_id)
        mine = _require_participant(_seats_of(game), user)
        _require_in_progress(game)
        reason = cancel_forbidden_reason(game)
        if reason:
            raise ApiError("cancel_forbidden", reason, status_code=409)
        asked = game.cancel_requested_by
        if asked is not None and asked not in mine and mine[0] in opponents_of(game, asked):
            game_finish(
                game=game, end_reason="", winner_seats=[], now=now, status=Game.Status.CANCELLED
            )
        elif asked is None:
            game.cancel_requested_by = mine[0]
            game.save(update_fields=["cancel_requested_by", "updated_at"])
    return game


def game_cancel_withdraw(*, game_id: int, user: User) -> Game:
    """Withdraw one's own cancel request, or decline the opponent's."""
    return _clear_request(game_id=game_id, user=user, field="cancel_requested_by")


def _clear_request(*, game_id: int, user: User, field: str) -> Game:
    with transaction.atomic():
        game = _lock_game(game_id)
        _require_participant(_seats_of(game), user)
        _require_in_progress(game)
        if getattr(game, field) is None:
            raise ApiError("no_request", "There is no pending request.", status_code=409)
        setattr(game, field, None)
        game.save(update_fields=[field, "updated_at"])
    return game


# --- undo --------------------------------------------------------------------------------


def _undo_span(game: Game, moves: Sequence[Move]) -> list[Move]:
    """The Move rows an undo would take back (empty when nothing can be)."""
    if not moves:
        return []
    last = moves[-1]
    if last.kind != Move.Kind.STONE:
        return []
    # Never across a decision (the opening protocol) or into the server's own opening stones.
    base = len(_engine().Game(game.variant, **engine_options(game)).actions)
    v = _engine().get_variant(game.variant)
    if v.opening in ("d", "swap2"):
        decisions = [m.ply for m in moves if m.kind == Move.Kind.DECISION]
        if not decisions:
            return []
        base = max(base, decisions[-1])
        if v.opening == "swap2":
            # Until colour 2's first stone after the protocol, the opening is still running.
            base = max(base, _swap2_protocol_end(moves))
    span = [last]
    if v.opening == "connect6" and len(moves) >= 2 and moves[-2].seat == last.seat:
        if moves[-2].kind == Move.Kind.STONE:
            span.insert(0, moves[-2])
    if span[0].ply <= base:
        return []
    return span


def _swap2_protocol_end(moves: Sequence[Move]) -> int:
    """Ply of the last action that belongs to the Swap2 protocol (the last decision, or the
    stones placed under it before the next decision)."""
    decisions = [m for m in moves if m.kind == Move.Kind.DECISION]
    last = decisions[-1]
    if last.choice == "place_two":
        return last.ply + 2  # stones four and five, then a colour decision follows
    return last.ply


def game_undo_request(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """The player who just moved asks to take the move back; when the opponent then calls this
    (agree), the move (Connect6: the whole turn) is taken back."""
    now = _now(now)
    with transaction.atomic():
        game = _lock_game(game_id)
        mine = _require_participant(_seats_of(game), user)
        _require_in_progress(game)
        moves = list(Move.objects.filter(game=game).order_by("ply"))
        span = _undo_span(game, moves)
        asked = game.undo_requested_by
        if asked is not None and asked not in mine:
            if not span or span[-1].seat != asked:
                game.undo_requested_by = None
                game.save(update_fields=["undo_requested_by", "updated_at"])
                raise ApiError(
                    "undo_not_allowed", "That move can no longer be taken back.", status_code=409
                )
            Move.objects.filter(game=game, ply__gte=span[0].ply).delete()
            game.ply = span[0].ply - 1
            game.undo_requested_by = None
            # The asker moves again: live clocks keep their time, a turn-based deadline restarts.
            timeouts.clock_restart(game=game, now=now, to_move_seat=asked)
            game.save()
            if game.deadline is not None:
                timeouts.timeout_schedule(game=game)
            return game
        if asked is not None:
            return game  # already asked: harmless repeat
        if not span or span[-1].seat not in mine:
            raise ApiError(
                "undo_not_allowed",
                "Only the player who just moved can ask to take it back, and not during the opening.",
                status_code=409,
            )
        game.undo_requested_by = span[-1].seat
        game.save(update_fields=["undo_requested_by", "updated_at"])
    return game


def game_undo_withdraw(*, game_id: int, user: User) -> Game:
    """Withdraw one's own undo request, or decline the opponent's."""
    return _clear_request(game_id=game_id, user=user, field="undo_requested_by")


# --- import ------------------------------------------------------------------------------


def games_import(*, text: str, user: User | None = None) -> list[Game]:
    """Import Pente.org records as archived games (status ``archived``, imported=True, unrated,
    seats without users, names from the headers, the time control from ``TimeControl``). The
    replayed outcome is in end_reason / winner_seats (an unfinished record: end_reason "")."""
    from games.engine import records

    engine = _engine()
    if "\x00" in text:
        # PostgreSQL text and jsonb cannot hold NUL; no real record has one.
        raise ApiError("bad_record", "The text contains a NUL character.")
    try:
        parsed = records.parse_records(text)
    except engine.BadRecord as exc:
        raise ApiError(
            "bad_record",
            _shortened(exc.detail),
            extra={"line": exc.line, "record_code": exc.code},
        ) from None
    if not parsed:
        raise ApiError("bad_record", "No game record found in the text.")
    created: list[Game] = []
    with transaction.atomic():
        for index, record in enumerate(parsed, start=1):
            try:
                replay = records.replay_record(record)
            except engine.EngineError as exc:
                detail = getattr(exc, "detail", str(exc))
                raise ApiError(
                    "bad_record",
                    _shortened(f"Record {index}: {detail}"),
                    extra={"record": index, "line": getattr(exc, "line", None)},
                ) from None
            created.append(_archive(record, replay))
    return created


IMPORT_DETAIL_MAX = 300


def _shortened(detail: str) -> str:
    """Error details quote the offending text; keep a huge bad token from flooding the body."""
    if len(detail) <= IMPORT_DETAIL_MAX:
        return detail
    return detail[: IMPORT_DETAIL_MAX - 1] + "…"


def _archive(record, replay) -> Game:
    """Store one record, replayed once (``records.replay_record``), as an archived game."""
    position = replay.game
    headers = record.header_dict
    seats = position.seats
    reason = ""
    winners: list[int] = []
    if replay.status == "finished":
        reason = replay.reason or "draw"
        colour = replay.winner
        if colour is not None:
            winners = [s for s in range(1, seats + 1) if position.seat_colour(s) == colour]
    names = []
    for seat in range(1, seats + 1):
        key = seat if position.partners else position.seat_colour(seat)
        name = headers.get(f"Player {key} Name", "")
        # The name column holds 150 characters; a longer recorded name is cut, not refused.
        names.append("" if name in ("?", "-") else name[: Seat._meta.get_field("name").max_length])
    when = _header_date(headers)
    clock = imported_time_control(headers)
    game = Game.objects.create(
        variant=position.variant.name,
        seats=seats,
        partners=position.partners,
        rated=False,
        tournament_rule=position.tournament_rule,
        adjacent_only=position.adjacent_only,
        imported=True,
        headers=headers,
        status=Game.Status.ARCHIVED,
        end_reason=reason,
        winner_seats=winners,
        ply=len(position.actions),
        time_control=clock.time_control,
        initial_minutes=clock.initial_minutes,
        increment_seconds=clock.increment_seconds,
        days_per_move=clock.days_per_move,
        category=clock.category,
        started_at=when,
        finished_at=when if reason else None,
    )
    Seat.objects.bulk_create(
        Seat(game=game, seat=i, user=None, name=name) for i, name in enumerate(names, start=1)
    )
    Move.objects.bulk_create(_moves_from_replay(game, replay))
    return game


def _moves_from_replay(game: Game, replay) -> list[Move]:
    """Move rows for a replayed record's actions, with the seat that took each (no new replay)."""
    rows: list[Move] = []
    for i, (action, seat) in enumerate(zip(replay.game.actions, replay.seats, strict=True), 1):
        if isinstance(action, str):
            rows.append(Move(game=game, ply=i, seat=seat, kind=Move.Kind.DECISION, choice=action))
        else:
            rows.append(Move(game=game, ply=i, seat=seat, kind=Move.Kind.STONE, point=action))
    return rows


@dataclass(frozen=True)
class ImportedClock:
    """The time control of an imported record (untimed unless its header is a valid one)."""

    time_control: str = clocks.NONE
    initial_minutes: int = 0
    increment_seconds: int = 0
    days_per_move: int = 0
    category: str = clocks.UNTIMED


_LIVE_TIME_CONTROL = re.compile(r"^(\d{1,3})(?:\s*\+\s*(\d{1,2}))?$", re.ASCII)
_TURN_DAYS = re.compile(r"^(\d{1,2})$", re.ASCII)


def _is_turn_based(headers: dict) -> bool:
    """Pente.org marks turn-based games in the ``Game`` name ("Turn-based Pente") or the
    ``Event`` ("Turn-based Game"); this server's exports write "... Turn-based Game" too."""
    game = str(headers.get("Game") or headers.get("GameType") or "").strip().casefold()
    event = str(headers.get("Event") or "").casefold()
    return game.startswith("turn-based") or "turn-based" in event


def imported_time_control(headers: dict) -> ImportedClock:
    """Pente.org's ``TimeControl`` header as a time control: ``initial`` or ``initial+increment``
    (minutes, seconds) for live games, the days per move for turn-based ones (see
    ``games.engine.records``). A missing, placeholder (``-``/``?``) or invalid value (out of the
    ranges ``clocks`` allows) is untimed: a record is never refused for its clock."""
    raw = str(headers.get("TimeControl") or "").strip()
    if _is_turn_based(headers):
        match = _TURN_DAYS.match(raw)
        if match is None:
            return ImportedClock()
        values = {"time_control": clocks.TURN, "days_per_move": int(match[1])}
    else:
        match = _LIVE_TIME_CONTROL.match(raw)
        if match is None:
            return ImportedClock()
        values = {
            "time_control": clocks.LIVE,
            "initial_minutes": int(match[1]),
            "increment_seconds": int(match[2] or 0),
        }
    try:
        clocks.validate_time_control(**values)
    except clocks.ClockError:
        return ImportedClock()
    category = clocks.category_of(
        time_control=values["time_control"],
        initial_minutes=values.get("initial_minutes", 0),
        increment_seconds=values.get("increment_seconds", 0),
    )
    return ImportedClock(**values, category=category)


def _header_date(headers: dict) -> datetime | None:
    raw = (headers.get("Date") or "").strip()
    if not raw or raw in ("?", "-"):
        return None
    clock = (headers.get("Time") or "").strip()
    for fmt in ("%m/%d/%Y", "%Y.%m.%d", "%Y-%m-%d"):
        try:
            day = datetime.strptime(raw, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
        try:
            t = datetime.strptime(clock, "%H:%M:%S")
            return day.replace(hour=t.hour, minute=t.minute, second=t.second)
        except ValueError:
            return day
    return None
