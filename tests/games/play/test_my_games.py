"""A player's games in progress, the most urgent first (``selectors.my_games_by_urgency``,
``GET /api/me/games/``): whose turn it is and the time left."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.clocks.timecontrol import TimeControl
from games.play import actions
from games.play.models import Game
from games.play.selectors import my_games_by_urgency
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return UserFactory(username="alice")


def test_a_game_says_whose_turn_it_is(alice):
    bob = UserFactory(username="bob")
    # Pente: the centre stone is seat 1's; seat 2 is to move.
    waiting = make_game(players=[alice, bob])
    mine = make_game(players=[bob, alice])
    rows = {r["id"]: r for r in my_games_by_urgency(user=alice, limit=10)}
    assert rows[mine.pk]["my_turn"] is True
    assert rows[mine.pk]["to_move"] == {"seat": 2, "name": "alice"}
    assert rows[waiting.pk]["my_turn"] is False
    assert rows[waiting.pk]["to_move"] == {"seat": 2, "name": "bob"}


def test_my_turn_comes_first_then_the_least_time_left_then_untimed(alice):
    now = timezone.now()
    theirs_short = make_game(players=[alice, UserFactory()], time_control=TimeControl.live(1))
    mine_untimed = make_game(players=[UserFactory(), alice])
    mine_days = make_game(players=[UserFactory(), alice], time_control=TimeControl.turn(3))
    mine_live = make_game(players=[UserFactory(), alice], time_control=TimeControl.live(5))
    mine_one_day = make_game(players=[UserFactory(), alice], time_control=TimeControl.turn(1))
    order = [r["id"] for r in my_games_by_urgency(user=alice, limit=10, now=now)]
    assert order == [mine_live.pk, mine_one_day.pk, mine_days.pk, mine_untimed.pk, theirs_short.pk]


def test_the_time_left_is_the_live_clock_or_the_time_to_the_deadline(alice):
    # on_absence="none": the clock runs from the start (no timer rule, no start window).
    live = make_game(
        players=[UserFactory(), alice], time_control=TimeControl.live(5), on_absence="none"
    )
    turn = make_game(players=[UserFactory(), alice], time_control=TimeControl.turn(2))
    untimed = make_game(players=[UserFactory(), alice])
    Game.objects.filter(pk=live.pk).update(turn_started_at=timezone.now())
    turn.refresh_from_db()
    later = timezone.now() + timedelta(seconds=30)
    rows = {r["id"]: r for r in my_games_by_urgency(user=alice, limit=10, now=later)}
    assert 269_000 <= rows[live.pk]["time_left_ms"] <= 271_000
    assert rows[live.pk]["clock_running"] is True
    expected = (turn.deadline - later).total_seconds() * 1000
    assert abs(rows[turn.pk]["time_left_ms"] - expected) < 1000
    assert rows[turn.pk]["clock_running"] is False
    assert rows[untimed.pk]["time_left_ms"] is None


def test_a_live_clock_waiting_for_the_first_stones_is_not_running(alice):
    # Pente.org's timer rule: no clock runs until player 2 (alice) has placed a stone.
    waiting = make_game(players=[UserFactory(), alice], time_control=TimeControl.live(5))
    later = timezone.now() + timedelta(seconds=30)
    (row,) = my_games_by_urgency(user=alice, limit=10, now=later)
    assert row["id"] == waiting.pk
    assert row["clock_running"] is False and row["time_left_ms"] == 300_000


def test_games_over_and_other_players_games_are_not_listed(alice):
    bob = UserFactory()
    over = make_game(players=[alice, bob])
    actions.game_resign(game_id=over.pk, user=bob)
    make_game(players=[bob, UserFactory()])
    assert my_games_by_urgency(user=alice, limit=10) == []


def test_the_api_lists_my_games_most_urgent_first(alice):
    bob = UserFactory(username="bob")
    theirs = make_game(players=[alice, bob])
    mine = make_game(players=[bob, alice])
    client = APIClient()
    client.force_authenticate(alice)
    body = client.get("/api/me/games/").json()
    assert [g["id"] for g in body] == [mine.pk, theirs.pk]
    assert body[0]["my_turn"] is True and body[1]["to_move"]["name"] == "bob"
    assert body[0]["time_left_ms"] is None and body[0]["time_control"] == "none"


def test_the_api_of_my_games_needs_a_signed_in_player():
    assert APIClient().get("/api/me/games/").status_code in (401, 403)
