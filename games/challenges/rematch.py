"""Rematches: after a game, a direct challenge to the same opponent with the same options and the
seats swapped (``POST /api/games/{id}/rematch``). Which games may be rematched, the refusals and
what asking twice does: docs/api.md (the ``rematch`` row of "Endpoints", and "Challenges: the
rules the server decides").
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.challenges.models import Challenge
from games.challenges.selectors import rematch_find, rematch_message
from games.challenges.services import challenge_accept, challenge_create, challenge_options
from games.clocks.timecontrol import TimeControl
from games.play.models import Game, GameSet, Seat
from pente_site.errors import Conflict, Forbidden, NotFound


def rematch_opponent(*, game: Game, user: User, over: bool = True) -> tuple[int, User]:
    """``user``'s seat in ``game`` and the opponent a rematch challenges, or the refusal
    (``challenge_rematch``'s; ``over=False``: as if the game were over, for a page that offers
    the rematch once it is)."""
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("seat"))
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if game.imported:
        raise Conflict("rematch_imported", "An imported record cannot be rematched.")
    if mine is None:
        raise Forbidden("not_a_player", "Only the game's players can ask for a rematch.")
    if over and game.status == Game.Status.IN_PROGRESS:
        raise Conflict("game_in_progress", "The game is still being played: finish it first.")
    if game.seats != 2:
        raise Conflict(
            "rematch_multiplayer",
            "Only two-player games are rematched: post an open challenge for the others to join.",
        )
    if (
        game.game_set_id is not None
        and GameSet.objects.filter(pk=game.game_set_id, tournament_match_set__isnull=False).exists()
    ):
        raise Conflict(
            "rematch_tournament",
            "A tournament game is not rematched: the tournament pairs its players.",
        )
    other = next((s for s in seats if s.seat != mine.seat), None)
    if other is None or other.user is None or not other.user.is_active:
        raise Conflict("rematch_no_opponent", "The other player's account is gone.")
    return mine.seat, other.user


def challenge_rematch(
    *, game_id: int, user: User, now: datetime | None = None
) -> tuple[Challenge, bool]:
    """The rematch of game ``game_id`` asked by ``user`` (see the module's docstring), and
    whether this call made it (False: the rematch already asked for, or the opponent's just
    accepted)."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound("not_found", f"There is no game {game_id}.")
    seat, opponent = rematch_opponent(game=game, user=user)
    options = challenge_options(game.variant)
    with transaction.atomic():
        # Both players' rows, in one order: two requests at once, by one player or by both,
        # make one challenge (the second finds the first).
        list(User.objects.select_for_update().filter(pk__in=(user.pk, opponent.pk)).order_by("pk"))
        found = rematch_find(game_id=game.pk, user=user, opponent=opponent)
        if found is None:
            challenge = challenge_create(
                creator=user,
                variant=game.variant,
                invitee_username=opponent.username,
                rated=game.rated,
                seat_wanted=3 - seat,
                time_control=TimeControl.of(game),
                tournament_rule=game.tournament_rule if options["tournament_rule"] else None,
                adjacent_only=game.adjacent_only,
                message=rematch_message(game.pk),
                now=now,
            )
            return challenge, True
    if found.created_by_id != user.pk and found.status == Challenge.Status.OPEN:
        # The opponent asked first: asking back is saying yes.
        return challenge_accept(challenge_id=found.pk, user=user, now=now), False
    return found, False


def rematch_current(*, game_id: int, user: User) -> Challenge | None:
    """The rematch of game ``game_id`` asked by ``user`` or their opponent, open or taken up,
    or None; refused as ``challenge_rematch`` refuses (but for a game in progress: none)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound("not_found", f"There is no game {game_id}.")
    _seat, opponent = rematch_opponent(game=game, user=user, over=False)
    return rematch_find(game_id=game.pk, user=user, opponent=opponent)
