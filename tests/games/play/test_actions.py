"""Services of play: clocks through the hooks, loss on time, multi-player and partners."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache

from games.clocks.timecontrol import TimeControl
from games.play import positions
from games.play.actions import game_decide, game_resign, move_play
from games.play.create import game_create
from games.play.models import Game, Move
from games.play.positions import position_of
from games.play.requests import game_undo_request
from games.play.selectors import game_state
from pente_site.errors import DomainError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)


def _users(n):
    return [UserFactory() for _ in range(n)]


def _timed_game(time_control: TimeControl, on_absence: str = "abort"):
    """Alice (seat 1) and Bob (seat 2) in a Pente game with ``time_control``, made at ``T0``
    (``on_absence="none"``: the clocks run from the start, with no start window)."""
    alice, bob = _users(2)
    game = game_create(
        variant="Pente",
        players=[alice, bob],
        now=T0,
        time_control=time_control,
        on_absence=on_absence,
    )
    return alice, bob, game


def test_a_live_game_starts_its_clock_and_a_move_moves_the_deadline():
    alice, bob, game = _timed_game(TimeControl.live(3, 5))
    assert game.category == "speed"
    assert game.clocks_ms == [180_000, 180_000]
    assert game.deadline == T0 + timedelta(seconds=60)  # bob's start window: no clock yet
    later = T0 + timedelta(seconds=20)
    game = move_play(game_id=game.pk, user=bob, ply=1, points=[179], now=later).game
    assert game.clocks_ms[1] == 180_000  # the timer rule: bob's first stone costs nothing
    assert game.deadline == later + timedelta(seconds=60)  # alice's first stone: her window
    again = later + timedelta(seconds=10)
    game = move_play(game_id=game.pk, user=alice, ply=2, points=[181], now=again).game
    assert game.clocks_ms[0] == 180_000 - 10_000 + 5_000
    assert game.deadline == again + timedelta(minutes=3)  # bob's full clock


def test_a_move_after_the_clock_ran_out_loses_on_time():
    alice, bob, game = _timed_game(TimeControl.live(1), on_absence="none")
    with pytest.raises(DomainError) as refused:
        move_play(game_id=game.pk, user=bob, ply=1, points=[179], now=T0 + timedelta(minutes=2))
    assert refused.value.code == "time_over"
    assert refused.value.extra["game"]["status"] == "finished"
    game.refresh_from_db()
    assert game.status == "finished" and game.end_reason == "timeout"
    assert game.winner_seats == [1]
    assert Move.objects.filter(game=game).count() == 1


def test_a_turn_based_game_gets_a_deadline_in_days():
    alice, bob, game = _timed_game(TimeControl.turn(3))
    assert game.category == "turn"
    assert game.deadline is not None and game.deadline >= T0 + timedelta(days=3)


def test_untimed_games_have_no_deadline():
    game = game_create(variant="Pente", players=_users(2), now=T0)
    assert game.deadline is None and game.category == "untimed"


def test_a_rated_pente_game_gets_the_tournament_rule_and_gomoku_does_not():
    assert game_create(variant="Pente", players=_users(2), rated=True).tournament_rule
    assert not game_create(variant="Gomoku", players=_users(2), rated=True).tournament_rule
    assert not game_create(variant="Pente", players=_users(2)).tournament_rule


def test_impossible_options_are_refused():
    with pytest.raises(DomainError) as refused:
        game_create(variant="Connect6", players=_users(3))
    assert refused.value.code == "unsupported_options"


def test_the_tournament_rule_is_enforced_in_rated_games():
    alice, bob = _users(2)
    game = game_create(variant="Pente", players=[alice, bob], rated=True)
    move_play(game_id=game.pk, user=bob, ply=1, points=[0])
    with pytest.raises(DomainError) as refused:
        move_play(game_id=game.pk, user=alice, ply=2, points=[181])  # L10
    assert refused.value.code == "tournament_rule"
    assert refused.value.kind.http_status == 400


def test_three_player_turns_rotate_and_resign_gives_the_others_the_game():
    a, b, c = _users(3)
    game = game_create(variant="Pente", players=[a, b, c])
    move_play(game_id=game.pk, user=b, ply=1, points=[0])
    move_play(game_id=game.pk, user=c, ply=2, points=[18])
    with pytest.raises(DomainError) as refused:
        move_play(game_id=game.pk, user=c, ply=3, points=[36])
    assert refused.value.code == "not_your_turn"
    game = game_resign(game_id=game.pk, user=b)
    assert game.winner_seats == [1, 3]


def test_partners_resign_loses_for_the_whole_team():
    a, b, c, d = _users(4)
    game = game_create(variant="Pente", players=[a, b, c, d], partners=True)
    game = game_resign(game_id=game.pk, user=c)
    assert game.winner_seats == [2, 4]


def test_swap2_place_two_then_colour_choice():
    alice, bob = _users(2)
    game = game_create(variant="Swap2-Pente", players=[alice, bob])
    assert game.ply == 0
    for ply, point in enumerate([180, 0, 18]):
        game = move_play(game_id=game.pk, user=alice, ply=ply, points=[point]).game
    game = game_decide(game_id=game.pk, user=bob, ply=3, choice="place_two").game
    game = move_play(game_id=game.pk, user=bob, ply=4, points=[342]).game
    game = move_play(game_id=game.pk, user=bob, ply=5, points=[360]).game
    game = game_decide(game_id=game.pk, user=alice, ply=6, choice="colour2").game
    assert game.ply == 7
    position = position_of(Game.objects.get(pk=game.pk))
    assert position.seat_colour(1) == 2 and position.to_move_seat == 1
    kinds = list(Move.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds.count("decision") == 2


def test_the_state_shows_the_time_left_of_the_seat_to_move():
    alice, bob, game = _timed_game(TimeControl.live(3), on_absence="none")
    state = game_state(game=game, viewer=None, now=T0 + timedelta(seconds=30))
    assert state["clock"]["remaining_ms"] == [180_000, 150_000]
    assert state["clock"]["deadline"] == T0 + timedelta(minutes=3)


def test_the_state_says_when_its_time_left_was_read():
    alice, bob, game = _timed_game(TimeControl.live(3), on_absence="none")
    state = game_state(game=game, viewer=None, now=T0 + timedelta(seconds=30, microseconds=250_999))
    assert state["clock"]["as_of"] == "2025-05-01T12:00:30.250Z"
    assert state["clock"]["remaining_ms"] == [180_000, 149_750]


def test_an_agreed_undo_gives_the_asker_the_turn_and_the_clock():
    alice, bob, game = _timed_game(TimeControl.live(3))
    t1 = T0 + timedelta(seconds=10)
    move_play(game_id=game.pk, user=bob, ply=1, points=[179], now=t1)
    game_undo_request(game_id=game.pk, user=bob, now=t1)
    t2 = t1 + timedelta(seconds=5)
    game = game_undo_request(game_id=game.pk, user=alice, now=t2)
    assert game.ply == 1 and game.undo_requested_by is None
    assert game.deadline == t2 + timedelta(milliseconds=game.clocks_ms[1])
    assert position_of(game).to_move_seat == 2


def _play_and_compare_states(monkeypatch, variant, actions):
    players = _users(2)
    game = game_create(variant=variant, players=players, now=T0)
    real_position_of, real_played_of = positions.position_of, positions.played_of
    for seat, action in actions:
        user, ply = players[seat - 1], game.ply
        if isinstance(action, str):
            shown = game_decide(game_id=game.pk, user=user, ply=ply, choice=action)
        else:
            shown = move_play(
                game_id=game.pk, user=user, ply=ply, points=action, message=f"m{ply}", now=T0
            )
        game = shown.game
        # The state is built from what the action returned: no second replay, no cache read.
        monkeypatch.setattr(positions, "position_of", None)
        monkeypatch.setattr(positions, "played_of", None)
        after_action = game_state(game=game, viewer=players[0], now=T0, snapshot=shown)
        monkeypatch.setattr(positions, "position_of", real_position_of)
        monkeypatch.setattr(positions, "played_of", real_played_of)
        cache.clear()  # the fresh read replays the moves from the database
        fresh = Game.objects.get(pk=game.pk)
        assert after_action == game_state(game=fresh, viewer=players[0], now=T0)
    return after_action


def test_the_state_after_an_action_reuses_its_replay_and_matches_a_fresh_read(monkeypatch):
    swap2 = [(1, [180]), (1, [0]), (1, [18]), (2, "place_two"), (2, [342]), (2, [360])]
    state = _play_and_compare_states(monkeypatch, "Swap2-Pente", [*swap2, (1, "colour2")])
    assert state["status"] == "in_progress" and state["ply"] == 7
    five = [(2, [0]), (1, [181]), (2, [2]), (1, [182]), (2, [4]), (1, [183]), (2, [6])]
    five.append((1, [184]))  # after the automatic first stone on 180: five in a row
    state = _play_and_compare_states(monkeypatch, "Pente", five)
    assert state["status"] == "finished" and state["winner_seats"] == [1]


@pytest.mark.django_db
def test_the_state_names_the_seat_that_may_ask_to_take_its_move_back():
    alice, bob = _users(2)
    game = game_create(variant="Pente", players=[alice, bob])
    assert game_state(game=game, viewer=alice)["takeback_seat"] is None  # the centre stone
    game = move_play(game_id=game.pk, user=bob, ply=1, points=["K12"]).game
    assert game_state(game=game, viewer=alice)["takeback_seat"] == 2
    game_undo_request(game_id=game.pk, user=bob)  # the rule the state tells is the service's
    game = game_resign(game_id=game.pk, user=alice)
    assert game_state(game=game, viewer=alice)["takeback_seat"] is None


@pytest.mark.django_db
def test_no_seat_may_take_back_a_d_pente_opening_stone():
    alice, bob = _users(2)
    game = game_create(variant="D-Pente", players=[alice, bob])
    for ply, point in enumerate(["K10", "L11", "M12", "N13"], start=0):
        game = move_play(game_id=game.pk, user=alice, ply=ply, points=[point]).game
    assert game_state(game=game, viewer=alice)["takeback_seat"] is None
    with pytest.raises(DomainError):
        game_undo_request(game_id=game.pk, user=alice)
