"""Creating games and rated sets."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import User
from games import engine
from games.clocks import services as clock_services
from games.clocks.timecontrol import UNTIMED, Kind, TimeControl
from games.play import events
from games.play.access import now_or
from games.play.models import Game, GameSet, Move, Seat
from games.play.positions import action_fields
from games.play.signals import game_started
from pente_site.errors import Invalid


def game_create(
    *,
    variant: str,
    players: list[User],
    rated: bool = False,
    tournament_rule: bool | None = None,
    adjacent_only: bool = False,
    partners: bool = False,
    time_control: TimeControl = UNTIMED,
    vacation_allowed: bool = True,
    spectator_delay: int = 0,
    game_set: GameSet | None = None,
    set_index: int = 1,
    on_absence: str = Game.OnAbsence.ABORT,
    now: datetime | None = None,
) -> Game:
    """Create a game with ``players`` in seat order (seat 1 moves first).

    Stones the engine places by itself (the centre stone) are written as Move rows, so
    ``game.ply`` always equals the engine's number of actions. Starts the clock.

    ``on_absence`` (``Game.OnAbsence``) says what closing a live game's start window does:
    ``abort`` the game, the absent seats ``forfeit`` (tournament games), or ``none``: no
    window, the clocks run from the start (the second game of a live set).
    """
    now = now_or(now)
    v = _variant(variant)
    if on_absence not in Game.OnAbsence.values:
        raise Invalid("bad_on_absence", f"on_absence is one of {', '.join(Game.OnAbsence.values)}.")
    seats = len(players)
    if not 2 <= seats <= 6:
        raise Invalid("bad_seats", "A game has 2 to 6 players.")
    if partners and seats != 4:
        raise Invalid("bad_seats", "Partners games have exactly 4 players.")
    if len({user.pk for user in players}) != seats:
        raise Invalid("bad_players", "A player can take only one seat of a game.")
    try:
        fresh = engine.new_game(
            v,
            seats=seats,
            partners=partners,
            tournament_rule=tournament_rule,
            rated=rated,
            adjacent_only=adjacent_only,
        )
    except engine.EngineError as exc:
        raise Invalid("unsupported_options", str(exc)) from None
    with transaction.atomic():
        game = Game.objects.create(
            variant=v.name,
            game_set=game_set,
            set_index=set_index,
            seats=seats,
            partners=partners,
            rated=rated,
            tournament_rule=fresh.tournament_rule,
            adjacent_only=adjacent_only,
            **time_control.fields(),
            category=time_control.category,
            vacation_allowed=vacation_allowed,
            spectator_delay=spectator_delay,
            on_absence=on_absence,
            started_at=now,
            against_computer=any(user.bot_level is not None for user in players),
        )
        seats = Seat.objects.bulk_create(
            Seat(game=game, seat=i, user=user, name=user.username)
            for i, user in enumerate(players, start=1)
        )
        game.keep_seats(seats)  # read by the turn's receivers
        actions = list(fresh.actions)
        Move.objects.bulk_create(
            Move(game=game, ply=i, seat=1, **action_fields(a))
            for i, a in enumerate(actions, start=1)
        )
        game.ply = len(actions)
        if game.time_control == Kind.LIVE and on_absence != Game.OnAbsence.NONE:
            game.awaiting_seats = list(range(1, game.seats + 1))  # each has a start window
        if time_control.is_timed:
            clock_services.clock_start(game=game, now=now, to_move_seat=fresh.to_move_seat)
        game.save()
        game_started.send(sender=Game, game=game, seats=seats)
        events.publish_on_commit(
            [
                *([events.DeadlineSet(game)] if game.deadline is not None else []),
                *([events.TurnStarted(game, fresh.to_move_seat)] if fresh.to_move_seat else []),
            ]
        )
    return game


def set_create(
    *,
    player1: User,
    player2: User,
    variant: str,
    rated: bool,
    games_count: int | None = None,
    time_control: TimeControl = UNTIMED,
    vacation_allowed: bool = True,
    tournament_rule: bool | None = None,
    adjacent_only: bool = False,
    spectator_delay: int = 0,
    on_absence: str = Game.OnAbsence.ABORT,
    now: datetime | None = None,
) -> GameSet:
    """A set between two players (game 2 has the colours swapped). A turn-based or untimed
    set has its games created at once; a live set only its first: the next one starts when it
    is over (``games.play.sets``), as Pente.org plays them.

    ``games_count`` None: the variant's set size when rated (2, or 1 for Swap2), else 1.
    ``on_absence``: every game's (see ``game_create``).
    """
    v = _variant(variant)
    if games_count is None:
        games_count = v.set_size if rated else 1
    if games_count not in (1, 2):
        raise Invalid("bad_games_count", "A set has 1 or 2 games.")
    if player1.pk == player2.pk:
        raise Invalid("bad_players", "A set needs two different players.")
    with transaction.atomic():
        game_set = GameSet.objects.create(
            player1=player1,
            player2=player2,
            variant=v.name,
            rated=rated,
            category=time_control.category,
            games_count=games_count,
        )
        order = [[player1, player2], [player2, player1]]
        created_now = 1 if time_control.kind == Kind.LIVE else games_count
        for index in range(1, created_now + 1):
            game_create(
                variant=v.name,
                players=order[index - 1],
                rated=rated,
                tournament_rule=tournament_rule,
                adjacent_only=adjacent_only,
                time_control=time_control,
                vacation_allowed=vacation_allowed,
                spectator_delay=spectator_delay,
                game_set=game_set,
                set_index=index,
                on_absence=on_absence,
                now=now,
            )
    return game_set


def _variant(name: str) -> engine.Variant:
    try:
        return engine.get_variant(name)
    except engine.UnknownGame:
        raise Invalid("unknown_game", f"There is no game called {name!r}.") from None
