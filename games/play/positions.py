"""Read helpers of a game row: its engine position, seats and sides (no writes).

Positions are never stored: they are rebuilt from the moves through ``games.engine``. Services
and selectors both read games through these helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games import engine
from games.models import Game, Move

#: Callables ``check(game) -> str | None``: a non-empty string forbids cancelling the game and is
#: the reason shown. The tournaments app appends its check (tournament games cannot be cancelled).
CANCEL_FORBIDDEN_CHECKS: list[Callable[[Game], str | None]] = []


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


def position_of(game: Game, moves: Sequence[Move] | None = None) -> engine.Game:
    """The engine position after ``moves`` (default: all the game's moves, one SELECT)."""
    if moves is None:
        moves = list(game.moves.order_by("ply"))
    return engine.Game.replay(game.variant, move_actions(moves), **engine_options(game))


def seat_to_move(game: Game, moves: Sequence[Move] | None = None) -> int | None:
    """The seat to move now, from a replay of the game's moves."""
    return position_of(game, moves).to_move_seat


def replayed(game: Game) -> tuple[list[Move], engine.Game] | None:
    """The moves and engine position a player's action left on this ``game`` instance (so the
    response need not SELECT and replay them again); None when the instance has none or has
    moved on since."""
    kept = getattr(game, "_replayed", None)
    if kept is None or kept[0] != game.ply:
        return None
    return kept[1], kept[2]


def team_of(game: Game, seat: int) -> tuple[int, ...]:
    """Seats on the same side as ``seat`` (partners: 1&3, 2&4; otherwise the seat alone)."""
    if game.partners:
        return (1, 3) if seat in (1, 3) else (2, 4)
    return (seat,)


def opponents_of(game: Game, seat: int) -> list[int]:
    team = team_of(game, seat)
    return [s for s in range(1, game.seats + 1) if s not in team]


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
