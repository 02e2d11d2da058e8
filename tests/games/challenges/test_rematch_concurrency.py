"""Rematches asked at the same moment (PostgreSQL's row locks): one challenge in the end."""

from __future__ import annotations

import threading

import pytest
from rest_framework.test import APIClient

from games.challenges.models import Challenge
from games.play.actions import game_resign
from games.play.models import Game
from tests.factories import UserFactory, make_game
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(game_id: int, users: list) -> list[int]:
    """Each user asks for a rematch of ``game_id`` at the same moment: the status codes."""
    codes: list[int] = []
    lock = threading.Lock()

    def asker(user):
        client = APIClient()
        client.force_authenticate(user)

        def ask():
            response = client.post(f"/api/games/{game_id}/rematch")
            with lock:
                codes.append(response.status_code)

        return ask

    run_together([asker(u) for u in users])
    return codes


def test_one_player_asking_four_times_at_once_makes_one_challenge():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    game_resign(game_id=game.pk, user=bob)
    codes = _race(game.pk, [alice] * 4)
    assert sorted(codes) == [200, 200, 200, 201]
    assert Challenge.objects.count() == 1


def test_both_players_asking_at_once_start_one_game():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    game_resign(game_id=game.pk, user=bob)
    codes = _race(game.pk, [alice, bob])
    assert sorted(codes) == [200, 201]
    challenge = Challenge.objects.get()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert Game.objects.filter(status=Game.Status.IN_PROGRESS).count() == 1
