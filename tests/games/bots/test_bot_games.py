"""The computer opponents move by themselves: a task after each action that leaves them to act,
through the same services as a human; a lost task is caught by the sweeper."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from games.bots import services
from games.play.models import Game, Move
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


def computer(level: int = 1):
    return UserFactory(username=f"computer{level}", is_computer=True, bot_level=level)


def _human_move(client, game_id: int, rng: random.Random) -> dict:
    """A random legal move near the board's centre for the human, its replies run at once."""
    body = client.get(f"/api/games/{game_id}/").json()
    taken = {s["point"] for s in body["board"]["stones"]}
    size = body["board"]["size"]
    free = [p for p in range(size * size) if p not in taken]
    with TestCase.captureOnCommitCallbacks(execute=True):
        for point in rng.sample(free, len(free)):
            response = client.post(
                f"/api/games/{game_id}/moves", {"ply": body["ply"], "point": point}, format="json"
            )
            if response.status_code == 200:
                return response.json()
    raise AssertionError("no legal move")


def test_a_game_against_the_computer_is_played_to_its_end_over_http():
    human, bot = UserFactory(), computer(1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = make_game(players=[human, bot], variant="Gomoku")  # the computer moves first
    client = APIClient()
    client.force_authenticate(human)
    rng = random.Random(7)
    for _ in range(150):
        state = client.get(f"/api/games/{game.pk}/").json()
        if state["status"] != "in_progress":
            break
        assert state["to_move"]["seat"] == 1, "the computer answered every move"
        _human_move(client, game.pk, rng)
    game.refresh_from_db()
    assert game.status == "finished"
    bot_moves = Move.objects.filter(game=game, seat=2).count()
    human_moves = Move.objects.filter(game=game, seat=1).count()
    assert bot_moves >= human_moves - 2  # the centre stone is seat 1's


def test_a_computer_holding_the_first_turn_moves_when_the_game_is_created():
    human, bot = UserFactory(), computer(2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = make_game(players=[human, bot])  # seat 1's centre stone; seat 2 (the bot) moves
    game.refresh_from_db()
    assert game.ply == 2 and Move.objects.get(game=game, ply=2).seat == 2


def test_a_lost_move_task_is_sent_again_by_the_sweeper():
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])  # the task's on-commit callback never runs: lost
    assert Game.objects.get(pk=game.pk).ply == 1
    later = timezone.now() + timedelta(minutes=5)
    assert services.bots_sweep(now=later) == 1
    assert Game.objects.get(pk=game.pk).ply == 2


def test_a_stale_move_task_does_nothing():
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])
    assert services.bot_play(game_id=game.pk, ply=0) == "stale"
    assert services.bot_play(game_id=game.pk, ply=1) == "played"
    assert services.bot_play(game_id=game.pk, ply=1) == "stale"
    assert services.bot_play(game_id=game.pk, ply=2) == "not_bot"  # the human's turn


def test_the_computer_plays_go_and_answers_the_marking():
    human, bot = UserFactory(), computer(4)
    game = make_game(players=[human, bot], variant="Go (9x9)")
    client = APIClient()
    client.force_authenticate(human)
    url = f"/api/games/{game.pk}"
    for _ in range(200):
        state = client.get(f"{url}/").json()
        if state["status"] != "in_progress":
            break
        assert state["to_move"]["seat"] == 1
        with TestCase.captureOnCommitCallbacks(execute=True):
            if state["go"]["phase"] == "marking":
                client.post(f"{url}/dead", {"ply": state["ply"], "points": []}, format="json")
            else:
                client.post(f"{url}/moves", {"ply": state["ply"], "point": "PASS"}, format="json")
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "score", [2])


def test_think_time_stays_within_a_twentieth_of_a_live_clock():
    bot = computer(8)
    game = make_game(players=[UserFactory(), bot])
    assert services.bot_budget(game=game, seat=2, level=8) == 5.0
    game.time_control, game.clocks_ms = "live", [60_000, 20_000]
    assert services.bot_budget(game=game, seat=2, level=8) == 1.0
