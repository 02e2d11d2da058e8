"""Reads of the games app: the full game state a client renders, game lists, sets."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from games.models import Game, GameSet, Move, Seat, User
from games.services import cancel_forbidden_reason, position_of, replayed, team_of
from games.timeouts import clock_view
from pente_site.api import ApiError


def _user_brief(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "username": user.username}


def games_queryset() -> QuerySet[Game]:
    """Games with their seats and users prefetched (for lists)."""
    return Game.objects.prefetch_related(
        Prefetch("seat_rows", queryset=Seat.objects.select_related("user").order_by("seat"))
    )


def game_get(*, game_id: int | str) -> Game:
    try:
        return games_queryset().get(pk=int(game_id))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise ApiError("not_found", f"There is no game {game_id}.", status_code=404) from None


def set_get(*, set_id: int | str) -> GameSet:
    try:
        return GameSet.objects.select_related("player1", "player2", "winner").get(pk=int(set_id))
    except (GameSet.DoesNotExist, ValueError, TypeError):
        raise ApiError("not_found", f"There is no set {set_id}.", status_code=404) from None


def _seats(game: Game) -> list[Seat]:
    cache = getattr(game, "_prefetched_objects_cache", {})
    if "seat_rows" in cache:
        return list(cache["seat_rows"])
    return list(Seat.objects.filter(game=game).select_related("user").order_by("seat"))


def is_participant(game: Game, viewer: User | None) -> bool:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return False
    return any(s.user_id == viewer.pk for s in _seats(game))


def game_summary(game: Game) -> dict[str, Any]:
    """A game as shown in lists (no board, no moves)."""
    seats = _seats(game)
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "end_reason": game.end_reason,
        "winner_seats": list(game.winner_seats),
        "ply": game.ply,
        "rated": game.rated,
        "imported": game.imported,
        "category": game.category,
        "set_id": game.game_set_id,
        "set_index": game.set_index,
        "players": [{"seat": s.seat, "name": s.name, "user": _user_brief(s.user)} for s in seats],
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def _remaining_ms(game: Game, to_move: int | None, now: datetime) -> list[int]:
    """Each seat's remaining time now (the clock of the seat to move is running)."""
    return [int(ms) for ms in clock_view(game=game, now=now, to_move_seat=to_move)["clocks_ms"]]


def game_state(
    *,
    game: Game,
    viewer: User | None,
    moves: list[Move] | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Everything a client needs to draw and play the game (one SELECT of moves + seats; none of
    moves and no replay right after a player's action on this instance)."""
    from games.engine.notation import point_name

    now = now or timezone.now()
    kept = replayed(game) if moves is None else None
    if kept is not None:
        moves, position = kept
    else:
        if moves is None:
            moves = list(Move.objects.filter(game=game).order_by("ply"))
        position = position_of(game, moves)
    seats = _seats(game)
    by_seat = {s.seat: s for s in seats}
    size = position.size
    in_progress = game.status == Game.Status.IN_PROGRESS
    show_messages = not in_progress or is_participant(game, viewer)
    board = list(position.board)
    stones = [
        {"point": p, "name": point_name(p, size), "colour": c} for p, c in enumerate(board) if c
    ]
    captures = list(position.captures)
    to_move_seat = position.to_move_seat if in_progress else None
    to_move = None
    if to_move_seat is not None:
        seat_row = by_seat.get(to_move_seat)
        to_move = {
            "seat": to_move_seat,
            "colour": position.to_move_colour,
            "user": _user_brief(seat_row.user if seat_row else None),
            "name": seat_row.name if seat_row else "",
            "stones": position.stones_this_turn(),
        }
    pending = position.pending_decision if in_progress else None
    players = []
    for seat in range(1, game.seats + 1):
        row = by_seat.get(seat)
        colour = position.seat_colour(seat)
        players.append(
            {
                "seat": seat,
                "colour": colour,
                "team": list(team_of(game, seat)),
                "name": row.name if row else "",
                "user": _user_brief(row.user if row else None),
                "captures": captures[colour - 1] if 0 < colour <= len(captures) else 0,
            }
        )
    winners = [p for p in players if p["seat"] in game.winner_seats]
    move_list = []
    for m in moves:
        visible = show_messages or not m.message
        move_list.append(
            {
                "ply": m.ply,
                "seat": m.seat,
                "kind": m.kind,
                "point": m.point,
                "name": point_name(m.point, size) if m.point is not None else None,
                "choice": m.choice,
                "message": m.message if show_messages else None,
                "message_visible": visible,
                "created_at": m.created_at,
            }
        )
    cancel_reason = cancel_forbidden_reason(game)
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "end_reason": game.end_reason,
        "winner_seats": list(game.winner_seats),
        "winners": winners,
        "ply": game.ply,
        "seats": game.seats,
        "partners": game.partners,
        "rated": game.rated,
        "tournament_rule": game.tournament_rule,
        "adjacent_only": game.adjacent_only,
        "imported": game.imported,
        "headers": game.headers,
        "set_id": game.game_set_id,
        "set_index": game.set_index,
        "players": players,
        "board": {
            "size": size,
            "rows": position.rows(),
            "stones": stones,
            "last_point": position.last_point,
            "last_name": point_name(position.last_point, size)
            if position.last_point is not None
            else None,
        },
        "captures": captures,
        "to_move": to_move,
        "pending_decision": pending,
        "decisions_available": list(position.decisions_available()) if pending else [],
        "clock": {
            "time_control": game.time_control,
            "category": game.category,
            "initial_minutes": game.initial_minutes,
            "increment_seconds": game.increment_seconds,
            "days_per_move": game.days_per_move,
            "clocks_ms": list(game.clocks_ms or []),
            "remaining_ms": _remaining_ms(game, to_move_seat, now),
            "turn_started_at": game.turn_started_at,
            "deadline": game.deadline,
            "vacation_allowed": game.vacation_allowed,
        },
        "moves": move_list,
        "undo_requested_by": game.undo_requested_by,
        "cancel_requested_by": game.cancel_requested_by,
        "cancellable": cancel_reason is None,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "updated_at": game.updated_at,
    }


def game_rows_at(*, game: Game, ply: int | None) -> tuple[list[str], int | None, tuple[int, ...]]:
    """Board rows, last point and captures after ``ply`` actions (None: now)."""
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    if ply is not None:
        if ply < 0 or ply > len(moves):
            raise ApiError("bad_ply", f"ply must be between 0 and {len(moves)}.")
        moves = moves[:ply]
        if ply == 0:
            from games import engine

            size = engine.Game(game.variant).size
            return ["." * size] * size, None, ()
    position = position_of(game, moves)
    return position.rows(), position.last_point, tuple(position.captures)


def set_detail(*, game_set: GameSet) -> dict[str, Any]:
    games = list(games_queryset().filter(game_set=game_set).order_by("set_index"))
    return {
        "id": game_set.pk,
        "variant": game_set.variant,
        "rated": game_set.rated,
        "category": game_set.category,
        "games_count": game_set.games_count,
        "status": game_set.status,
        "result": game_set.result,
        "player1": _user_brief(game_set.player1),
        "player2": _user_brief(game_set.player2),
        "winner": _user_brief(game_set.winner),
        "created_at": game_set.created_at,
        "finished_at": game_set.finished_at,
        "games": [game_summary(g) for g in games],
    }


def position_for_record(*, game: Game):
    """The engine position of the game (for ``records.record_from_game``)."""
    return position_of(game)


def _time_control_text(game: Game) -> str | None:
    if game.time_control == "live":
        if game.increment_seconds:
            return f"{game.initial_minutes}+{game.increment_seconds}"
        return str(game.initial_minutes)
    if game.time_control == "turn":
        return str(game.days_per_move)
    return None


def _sides(game: Game) -> int:
    """How many colours (and result columns) the game has: partners play two."""
    return 2 if game.partners or game.seats == 2 else game.seats


def record_headers(*, game: Game, position=None) -> list[tuple[str, str]]:
    """Pente.org header block of a game (imported games keep their own headers)."""
    from games.engine import records

    if game.imported and game.headers:
        return [(k, str(v)) for k, v in game.headers.items() if k != "Result"]
    position = position if position is not None else position_of(game)
    seats = _seats(game)
    by_seat = {s.seat: s for s in seats}
    sides = _sides(game)
    names: list[str | None] = []
    types: list[str | None] = []
    for colour in range(1, sides + 1):
        holders = [by_seat[s] for s in sorted(by_seat) if position.seat_colour(s) == colour]
        names.append("/".join(h.name for h in holders) or None)
        computer = any(h.user is not None and h.user.is_computer for h in holders)
        types.append(("Computer" if computer else "Human") if holders else None)
    event = "Rated Game" if game.rated else "Unrated Game"
    if game.time_control == "turn":
        # Pente.org's mark of a turn-based game: its TimeControl is then days per move.
        event = event.replace(" Game", " Turn-based Game")
    return list(
        records.standard_headers(
            game=game.variant,
            site="pente-server",
            event=event,
            played_at=game.started_at or game.created_at,
            time_control=_time_control_text(game),
            rated=game.rated,
            player_names=names,
            player_types=types,
        )
    )


def game_record(*, game: Game):
    """The ``records.Record`` of a game: every stone, decisions in headers, the result (also for
    resignations and losses on time, which the stones alone do not show)."""
    from dataclasses import replace

    from games.engine import records

    position = position_of(game)
    headers = record_headers(game=game, position=position)
    resigned = None
    forfeit = False
    losers = [s for s in range(1, game.seats + 1) if s not in game.winner_seats]
    if game.end_reason in ("resign", "forfeit") and game.winner_seats and losers:
        resigned = position.seat_colour(losers[0])
        forfeit = game.end_reason == "forfeit"
    record = records.record_from_game(position, headers, resigned_colour=resigned, forfeit=forfeit)
    sides = _sides(game)
    if game.end_reason and position.status == "in_progress" and game.winner_seats:
        win_colours = {position.seat_colour(s) for s in game.winner_seats}
        token = "-".join("1" if c in win_colours else "0" for c in range(1, sides + 1))
        record = replace(record, result=token).with_header("Result", token)
    return record


def game_record_text(*, game: Game) -> str:
    from games.engine import records

    return records.write_record(game_record(game=game))
