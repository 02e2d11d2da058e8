"""Many clients post moves to one game at the same moment: exactly one move per ply wins."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import IllegalMove
from games.play import actions, positions, selectors
from games.play.actions import move_play
from games.play.models import Move
from games.play.requests import game_undo_request
from pente_site.errors import DomainError
from tests.factories import UserFactory, make_game
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8
ROUNDS = 6


def _race(game_id, user, ply, points):
    """Every thread posts a different point with the same ply; returns the status codes."""
    codes: list[int] = []
    lock = threading.Lock()

    def post(point):
        client = APIClient()
        client.force_authenticate(user)
        response = client.post(f"/api/games/{game_id}/moves", {"ply": ply, "point": point})
        with lock:
            codes.append(response.status_code)

    run_together([lambda p=p: post(p) for p in points])
    return codes


def test_concurrent_moves_accept_exactly_one_per_ply():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    ply = 1
    movers = [bob, alice]
    for round_no in range(ROUNDS):
        user = movers[round_no % 2]
        # distinct far-apart points on row (round_no + 1), never making a line or a capture
        row = 1 + 3 * round_no
        points = [f"{'ABCDEFGHJ'[i]}{row}" for i in range(THREADS)]
        codes = _race(game.pk, user, ply, points)
        assert sorted(codes) == [200] + [409] * (THREADS - 1), codes
        ply += 1
    plies = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(1, ply + 1))
    game.refresh_from_db()
    assert game.ply == ply == 1 + ROUNDS


def test_the_same_move_raced_by_one_user_is_recorded_once():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    codes = _race(game.pk, bob, 1, ["K5"] * THREADS)
    assert codes == [200] * THREADS
    assert Move.objects.filter(game=game).count() == 2


def test_moves_racing_on_the_cached_row_are_written_once_by_the_claim(monkeypatch):
    """Every thread reaches the claim with the same cached row (they wait for each
    other just before the claim): exactly one claim matches the row, the others write nothing
    and are answered from the database, locked (409 stale_ply)."""
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    move_play(game_id=game.pk, user=bob, ply=1, points=["A1"])  # the row and position cached
    gate = threading.Barrier(THREADS, timeout=30)
    results: list[bool] = []
    real = actions.claim_turn

    def gated(**kwargs):
        gate.wait()
        written = real(**kwargs)
        results.append(written)
        return written

    monkeypatch.setattr(actions, "claim_turn", gated)
    points = [f"{'ABCDEFGHJ'[i]}5" for i in range(THREADS)]
    codes = _race(game.pk, alice, 2, points)
    assert sorted(codes) == [200] + [409] * (THREADS - 1), codes
    assert sorted(results) == [False] * (THREADS - 1) + [True]
    assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [1, 2, 3]


def test_players_racing_moves_and_take_backs_leave_the_cached_game_equal_to_the_rebuilt_one():
    """Both players, two threads each, play, ask for and agree to take-backs at random as fast as
    they can: writes of the cached game land in any order, yet once they stop, the cached game
    gives the state a rebuild from the database gives."""
    players = [UserFactory(), UserFactory()]
    game = make_game(players=players)
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def player(user, seed):
        rnd = random.Random(seed)
        try:
            start.wait()
            for _ in range(40):
                row = selectors.game_get(game_id=game.pk)
                position = positions.played_of(row).position
                free = [p for p, c in enumerate(position.board) if not c]
                try:
                    if rnd.random() < 0.8:
                        move_play(
                            game_id=game.pk, user=user, ply=row.ply, points=[rnd.choice(free)]
                        )
                    else:
                        game_undo_request(game_id=game.pk, user=user)
                except (DomainError, IllegalMove):
                    pass
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=player, args=(players[i % 2], i)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    row = selectors.game_get(game_id=game.pk)
    assert row.ply > 10
    viewers = [None, *players]
    now = timezone.now()  # one time for both (the state says when it was read)
    cached = [selectors.game_state(game=row, viewer=v, now=now) for v in viewers]
    positions.forget_played(row)
    fresh = selectors.game_get(game_id=game.pk)
    assert cached == [selectors.game_state(game=fresh, viewer=v, now=now) for v in viewers]
