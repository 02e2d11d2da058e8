"""The cached game (position, row and moves, appended to turn by turn) always gives the state a
rebuild from the database gives, whatever the players do: random sequences of moves, stale and
repeated moves, moves out of turn, messages, undo requests agreed and declined, decisions, and
cache entries lost on the way."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from games import engine
from games.play import positions, selectors
from games.play.actions import game_decide, move_play
from games.play.models import Game
from games.play.requests import game_undo_request, game_undo_withdraw
from pente_site.errors import DomainError
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

NOW = timezone.now()
VARIANTS = ["Pente", "Connect6", "D-Pente", "Keryo-Pente", "Go (9x9)"]


def _states(game_id: int, viewers) -> list[dict]:
    # At one time (the state says when it was read: ``clock.as_of``).
    game = selectors.game_get(game_id=game_id)
    return [selectors.game_state(game=game, viewer=v, now=NOW) for v in viewers]


def _rebuilt(game_id: int, viewers) -> list[dict]:
    positions.forget_played(Game.objects.get(pk=game_id))
    return _states(game_id, viewers)


def _act(rnd: random.Random, game_id: int, players) -> None:
    game = selectors.game_get(game_id=game_id)
    position = positions.played_of(game).position
    seat = position.to_move_seat or 1
    mover = players[seat - 1]
    other = players[2 - seat]
    free = [p for p, c in enumerate(position.board) if not c]
    choice = rnd.random()
    if position.pending_decision if not isinstance(position, engine.GoGame) else False:
        options = list(position.decisions_available())
        game_decide(game_id=game_id, user=mover, ply=game.ply, choice=rnd.choice(options))
    elif choice < 0.6:
        points = rnd.sample(free, min(len(free), position.stones_this_turn()))
        message = rnd.choice(["", "", "gg", 'a "quoted" \\ message'])
        move_play(game_id=game_id, user=mover, ply=game.ply, points=points, message=message)
    elif choice < 0.7:  # stale ply, or a repeat of the last move
        move_play(game_id=game_id, user=rnd.choice(players), ply=game.ply - 1, points=free[:1])
    elif choice < 0.75:  # out of turn
        move_play(game_id=game_id, user=other, ply=game.ply, points=free[:1])
    elif choice < 0.9:  # the player who just moved asks to take it back; mostly agreed
        game_undo_request(game_id=game_id, user=other)
        if rnd.random() < 0.7:
            game_undo_request(game_id=game_id, user=mover)
        else:
            game_undo_withdraw(game_id=game_id, user=rnd.choice(players))
    elif choice < 0.95:
        positions.forget_played(game)  # the cache lost the entry
    else:
        game_undo_request(game_id=game_id, user=rnd.choice(players))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_cached_game_is_always_the_rebuilt_game(variant, seed):
    rnd = random.Random(f"{variant}:{seed}")
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players, variant=variant)
    viewers = [None, *players]
    for _step in range(60):
        try:
            _act(rnd, game.pk, players)
        except (DomainError, engine.IllegalMove):
            pass
        cached = _states(game.pk, viewers)
        assert cached == _rebuilt(game.pk, viewers)
        if cached[0]["status"] != Game.Status.IN_PROGRESS:
            break
