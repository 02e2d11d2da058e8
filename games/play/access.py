"""Guards of the services that change a game: lock the row, who acts, whether it can be played."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from games import engine
from games.play.models import Game, Seat
from games.play.selectors import seats_with_users
from pente_site.errors import Conflict, DomainError, Forbidden, Invalid, NotFound

#: Codes of engine refusals that are conflicts with the game's state rather than bad input.
CONFLICT_CODES = frozenset({"not_your_turn", "game_over"})


def now_or(now: datetime | None) -> datetime:
    return now or timezone.now()


def lock_game(game_id: int) -> Game:
    """The game row, locked, with its seats and their users (one query: the seats joined to the
    game, ``FOR UPDATE OF`` the game row; ``seats_of`` then reads them without a query). An
    archived (imported) game is refused at once: nobody plays it, and its seats have no users,
    so this comes before the participant check."""
    try:
        seats = list(
            Seat.objects.select_related("game", "user")
            .select_for_update(of=("game",))
            .filter(game_id=int(game_id))
            .order_by("seat")
        )
    except (ValueError, TypeError, OverflowError):
        seats = []
    if seats:
        game = seats[0].game
        for seat in seats:
            seat.game = game
        game.keep_seats(seats)
    else:  # a game without seats (never made by the services) or no game at all
        try:
            game = Game.objects.select_for_update().get(pk=game_id)
        except (Game.DoesNotExist, ValueError, TypeError, OverflowError):
            raise NotFound("not_found", f"There is no game {game_id}.") from None
    refuse_archived(game)
    return game


def refuse_archived(game: Game) -> None:
    if game.status == Game.Status.ARCHIVED:
        raise Conflict(
            "archived",
            f"Game {game.pk} is an imported record, kept as an archive: it cannot be played.",
        )


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in order (those ``lock_game`` read with the row, when it did)."""
    return seats_with_users(game)


def user_seats(seats: Sequence[Seat], user: User | None) -> list[int]:
    if user is None or not user.is_authenticated:
        return []
    return [s.seat for s in seats if s.user_id == user.pk]


def require_participant(seats: Sequence[Seat], user: User | None) -> list[int]:
    """The seats ``user`` holds (refused when none)."""
    mine = user_seats(seats, user)
    if not mine:
        raise Forbidden("not_a_participant", "Only the players of this game can do that.")
    return mine


def require_in_progress(game: Game) -> None:
    refuse_archived(game)
    if game.status != Game.Status.IN_PROGRESS:
        raise Conflict("game_over", f"Game {game.pk} is over ({game.status}).")


def illegal_move_error(exc: engine.IllegalMove) -> DomainError:
    """An engine refusal as a domain error: a conflict with the game's state (not your turn,
    game over) or an invalid request (an occupied point, a bad decision, ...)."""
    kind = Conflict if exc.code in CONFLICT_CODES else Invalid
    return kind(exc.code, exc.detail)
