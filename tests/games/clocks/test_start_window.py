"""The timer rule, the start window and what closing it does (``Game.on_absence``).

Times are passed as ``now``; the window is closed by the timeout machinery (``timeout_fire``,
``close_due``), as a loss on time is.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import TestCase

from games.challenges import services as challenges
from games.clocks import rules
from games.clocks.selectors import clock_view
from games.clocks.sweeper import close_due, timeout_fire
from games.clocks.timecontrol import TimeControl
from games.play.actions import game_decide, move_play
from games.play.create import set_create
from games.play.models import Game, GameSet
from games.play.selectors import game_state
from games.records.selectors import game_record
from live import services as live_services
from live.channels import game_channel
from live.models import Event
from pente_site.errors import Conflict, Invalid
from ratings.models import Rating
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 1, 2, 10, 30, tzinfo=UTC)
K9, L10, J11, H8 = 199, 181, 161, 220  # near the centre (K10 = 180 is the automatic stone)
WINDOW = timedelta(seconds=60)


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.START_WINDOW_SECONDS = 60


def live_game(*, variant="Pente", initial=5, increment=0, **kw):
    return make_game(
        variant=variant,
        time_control="live",
        initial_minutes=initial,
        increment_seconds=increment,
        now=T0,
        **kw,
    )


def player(game: Game, seat: int):
    return game.seat_rows.get(seat=seat).user


# --- the window's length ------------------------------------------------------------------


def test_the_window_is_the_setting_up_to_ten_minutes_then_grows_by_a_tenth_and_is_capped():
    def window(minutes):
        return rules.start_window(base_seconds=60, initial_minutes=minutes)

    assert window(1) == window(10) == timedelta(seconds=60)
    assert window(15) == timedelta(seconds=90)
    assert window(30) == timedelta(seconds=180)
    assert window(50) == window(999) == timedelta(seconds=300)


def test_the_window_follows_the_setting(settings):
    settings.START_WINDOW_SECONDS = 20
    game = live_game()
    assert game.deadline == T0 + timedelta(seconds=20)


# --- the timer rule -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["Pente", "Keryo-Pente", "Gomoku", "Connect6", "Boat-Pente"])
def test_a_centre_stone_game_runs_no_clock_until_player_two_has_played(variant):
    game = live_game(variant=variant)
    assert game.awaiting_seats == [1, 2]
    assert game.deadline == T0 + WINDOW  # the start window, not five minutes
    view = clock_view(game=game, now=T0 + timedelta(seconds=40), to_move_seat=2)
    assert view["running"] is False
    assert view["clocks_ms"] == [300_000, 300_000]  # nothing taken off while waiting
    assert view["start_deadline"] == T0 + WINDOW


def test_player_two_pays_nothing_for_the_wait_and_player_one_clock_starts_at_that_stone():
    game = live_game()
    t1 = T0 + timedelta(seconds=45)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    game.refresh_from_db()
    assert game.clocks_ms == [300_000, 300_000]
    assert game.awaiting_seats == [1]
    assert game.turn_started_at == t1
    # Player 1's clock runs now, and its first stone of its own has a window too.
    assert game.deadline == t1 + WINDOW
    view = clock_view(game=game, now=t1 + timedelta(seconds=10), to_move_seat=1)
    assert view["running"] is True
    assert view["clocks_ms"] == [290_000, 300_000]
    t2 = t1 + timedelta(seconds=10)
    move_play(game_id=game.pk, user=player(game, 1), ply=2, points=[L10], now=t2)
    game.refresh_from_db()
    assert game.awaiting_seats == []
    assert game.clocks_ms == [290_000, 300_000]
    assert game.deadline == t2 + timedelta(minutes=5)  # an ordinary clock deadline again


def test_with_three_players_the_clocks_wait_for_the_third_players_first_stone():
    game = live_game(seats=3)
    t1 = T0 + timedelta(seconds=30)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    game.refresh_from_db()
    assert game.deadline == t1 + WINDOW  # seat 3's window; still no clock
    assert clock_view(game=game, now=t1, to_move_seat=3)["running"] is False
    t2 = t1 + timedelta(seconds=50)
    move_play(game_id=game.pk, user=player(game, 3), ply=2, points=[L10], now=t2)
    game.refresh_from_db()
    assert game.clocks_ms == [300_000] * 3
    assert game.awaiting_seats == [1]


@pytest.mark.parametrize("variant", ["D-Pente", "DK-Pente", "Swap2-Pente", "Go"])
def test_games_without_the_centre_stone_run_their_clocks_from_the_start(variant):
    game = live_game(variant=variant)
    assert game.awaiting_seats == [1, 2]
    assert game.deadline == T0 + WINDOW  # seat 1's first action, within its window
    view = clock_view(game=game, now=T0 + timedelta(seconds=10), to_move_seat=1)
    assert view["running"] is True
    assert view["clocks_ms"][0] == 290_000


def test_a_short_clock_ends_the_window_first_when_it_runs():
    game = live_game(variant="D-Pente", initial=0, increment=20)
    assert game.deadline == T0 + timedelta(seconds=20)


def test_d_pente_seats_leave_the_window_at_their_first_action():
    game = live_game(variant="D-Pente")
    p1, p2 = player(game, 1), player(game, 2)
    t = T0
    for ply, point in enumerate([K9, L10, J11, H8]):
        t += timedelta(seconds=5)
        move_play(game_id=game.pk, user=p1, ply=ply, points=[point], now=t)
    game.refresh_from_db()
    assert game.awaiting_seats == [2]
    assert game.deadline == t + WINDOW  # seat 2's decision: its window
    t += timedelta(seconds=5)
    game_decide(game_id=game.pk, user=p2, ply=4, choice="keep", now=t)
    game.refresh_from_db()
    assert game.awaiting_seats == []


def test_turn_based_and_untimed_games_have_no_window():
    turn = make_game(time_control="turn", days_per_move=2, now=T0)
    untimed = make_game(now=T0)
    assert turn.awaiting_seats == [] and untimed.awaiting_seats == []
    assert turn.deadline > T0 + timedelta(days=1)
    state = game_state(game=turn, viewer=None)
    assert state["clock"]["running"] is False
    assert state["clock"]["start_deadline"] is None


def test_on_absence_none_runs_the_clock_from_the_start_without_a_window():
    game = live_game(on_absence="none")
    assert game.awaiting_seats == []
    assert game.deadline == T0 + timedelta(minutes=5)
    assert clock_view(game=game, now=T0 + timedelta(seconds=1), to_move_seat=2)["running"]
    assert timeout_fire(game_id=game.pk, ply=1, now=T0 + timedelta(minutes=5)) == "timeout"
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1])


def test_an_unknown_on_absence_is_refused():
    with pytest.raises(Invalid) as info:
        live_game(on_absence="later")
    assert info.value.code == "bad_on_absence"


def test_the_state_says_the_clock_waits_and_when_the_window_closes():
    game = live_game()
    state = game_state(game=game, viewer=None)
    assert state["clock"]["running"] is False
    assert state["clock"]["start_deadline"] == T0 + WINDOW
    assert state["on_absence"] == "abort"
    assert state["absent_seats"] == []


# --- the window closes: abort -------------------------------------------------------------


def test_an_absent_player_two_aborts_the_game_and_counts_one_abort_for_them_only():
    game = live_game(rated=True)
    p1, p2 = player(game, 1), player(game, 2)
    assert timeout_fire(game_id=game.pk, ply=1, now=T0 + timedelta(seconds=59)) == "early"
    assert timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW) == "absent"
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("cancelled", "aborted", [])
    assert game.absent_seats == [2]
    p1.refresh_from_db()
    p2.refresh_from_db()
    assert (p1.aborts, p2.aborts) == (0, 1)
    state = game_state(game=game, viewer=None)
    assert (state["status"], state["end_reason"], state["absent_seats"]) == (
        "cancelled",
        "aborted",
        [2],
    )


def test_a_window_closed_late_by_the_sweeper_is_closed_at_the_windows_end():
    game = live_game()
    assert close_due(now=T0 + timedelta(minutes=30)).timed_out == 1  # after a worker outage
    game.refresh_from_db()
    assert (game.end_reason, game.finished_at) == ("aborted", T0 + WINDOW)


def test_an_absent_player_one_after_player_two_played_aborts_too():
    game = live_game()
    t1 = T0 + timedelta(seconds=10)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    assert close_due(now=t1 + WINDOW).timed_out == 1
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.absent_seats) == ("cancelled", "aborted", [1])
    assert player(game, 1).aborts == 1


def test_an_aborted_game_aborts_its_rated_set_and_changes_no_rating():
    p1, p2 = UserFactory(), UserFactory()
    live = TimeControl.from_fields(time_control="live", initial_minutes=5, increment_seconds=0)
    game_set = set_create(
        player1=p1, player2=p2, variant="Pente", rated=True, time_control=live, now=T0
    )
    game1 = game_set.games.get(set_index=1)
    timeout_fire(game_id=game1.pk, ply=1, now=T0 + WINDOW)
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.CANCELLED
    assert game_set.result is None
    assert set(game_set.games.values_list("status", "end_reason")) == {("cancelled", "aborted")}
    assert not Rating.objects.filter(user__in=[p1, p2], results__gt=0).exists()
    p1.refresh_from_db()
    p2.refresh_from_db()
    assert (p1.aborts, p2.aborts) == (0, 1)  # game 2's absence is not counted as well


def test_a_first_stone_made_in_time_leaves_nothing_to_close():
    game = live_game()
    t1 = T0 + timedelta(seconds=59)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    assert timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW) == "stale"
    game.refresh_from_db()
    assert game.status == "in_progress"


def test_a_first_stone_after_the_window_closed_is_refused_and_aborts_the_game():
    game = live_game()
    with pytest.raises(Conflict) as info:
        move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=T0 + WINDOW)
    assert info.value.code == "start_window_over"
    assert info.value.extra["game"]["end_reason"] == "aborted"
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.absent_seats, game.ply) == (
        "cancelled",
        "aborted",
        [2],
        1,
    )


def test_a_first_stone_after_a_short_running_clock_ran_out_is_an_absence_too():
    game = live_game(variant="D-Pente", initial=0, increment=20, on_absence="forfeit")
    with pytest.raises(Conflict) as info:
        move_play(
            game_id=game.pk,
            user=player(game, 1),
            ply=0,
            points=[K9],
            now=T0 + timedelta(seconds=25),
        )
    assert info.value.code == "start_window_over"
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.absent_seats) == ("finished", "forfeit", [1, 2])


def test_a_loss_on_time_after_the_first_stones_is_still_a_loss_on_time():
    game = live_game(initial=1)
    p1, p2 = player(game, 1), player(game, 2)
    move_play(game_id=game.pk, user=p2, ply=1, points=[K9], now=T0)
    move_play(game_id=game.pk, user=p1, ply=2, points=[L10], now=T0)
    assert timeout_fire(game_id=game.pk, ply=3, now=T0 + timedelta(minutes=1)) == "timeout"
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1])


# --- the window closes: forfeit -----------------------------------------------------------


def test_forfeit_an_absent_player_loses_when_the_other_has_the_game_open():
    game = live_game(on_absence="forfeit")
    live_services.presence_enter(place=game_channel(game.pk), user=player(game, 1), spectator=False)
    timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW)
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "forfeit", [1])
    assert game.absent_seats == [2]
    assert player(game, 2).aborts == 0


def test_forfeit_a_computer_that_has_not_moved_yet_is_never_absent():
    computer = UserFactory(username="computer3", is_computer=True, bot_level=3)
    game = make_game(
        players=[computer, UserFactory()],
        time_control="live",
        initial_minutes=5,
        now=T0,
        on_absence="forfeit",
    )
    timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW)
    game.refresh_from_db()
    assert (game.end_reason, game.winner_seats, game.absent_seats) == ("forfeit", [1], [2])


def test_forfeit_when_neither_player_is_there_is_a_double_forfeit_with_no_winner():
    game = live_game(on_absence="forfeit")
    timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW)
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "forfeit", [])
    assert game.absent_seats == [1, 2]


def test_forfeit_a_player_one_absent_after_player_two_played_loses_alone():
    game = live_game(on_absence="forfeit")
    t1 = T0 + timedelta(seconds=5)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    timeout_fire(game_id=game.pk, ply=2, now=t1 + WINDOW)
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "forfeit", [2])
    assert game.absent_seats == [1]


def test_the_stream_says_the_game_was_aborted_and_who_was_absent(settings):
    settings.REDIS_URL = ""  # the embedded event log (a table)
    game = live_game()
    with TestCase.captureOnCommitCallbacks(execute=True):
        timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW)
    end = Event.objects.filter(channel=game_channel(game.pk), kind="end").get()
    assert (end.data["status"], end.data["end_reason"], end.data["absent_seats"]) == (
        "cancelled",
        "aborted",
        [2],
    )


def test_an_aborted_game_keeps_no_result_in_its_record():
    game = live_game()
    timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW)
    game.refresh_from_db()
    assert "Result" not in dict(game_record(game=game).headers) or (
        dict(game_record(game=game).headers)["Result"] in ("*", "")
    )


def test_a_double_forfeit_has_a_record():
    game = live_game(on_absence="forfeit")
    timeout_fire(game_id=game.pk, ply=1, now=T0 + WINDOW)
    game.refresh_from_db()
    assert game_record(game=game).headers


# --- repeated aborts ----------------------------------------------------------------------


def abort_as_player_two(user, at):
    game = make_game(
        players=[UserFactory(), user],
        time_control="live",
        initial_minutes=5,
        increment_seconds=0,
        now=at,
    )
    timeout_fire(game_id=game.pk, ply=1, now=at + WINDOW)


LIVE_5 = TimeControl.from_fields(time_control="live", initial_minutes=5, increment_seconds=0)


def test_three_aborts_in_a_day_keep_a_player_from_rated_live_challenges():
    bob = UserFactory()
    for hours in (0, 1, 2):
        abort_as_player_two(bob, T0 + timedelta(hours=hours))
    bob.refresh_from_db()
    assert bob.aborts == 3
    later = T0 + timedelta(hours=3)
    with pytest.raises(Conflict) as info:
        challenges.challenge_create(
            creator=bob, variant="Pente", rated=True, time_control=LIVE_5, now=later
        )
    assert info.value.code == "too_many_aborts"
    assert "2025-01-03 10:31" in info.value.detail  # the first abort 24 hours on
    open_one = challenges.challenge_create(
        creator=UserFactory(), variant="Pente", rated=True, time_control=LIVE_5, now=later
    )
    with pytest.raises(Conflict):
        challenges.challenge_accept(challenge_id=open_one.pk, user=bob, now=later)
    # Unrated or turn-based games are not limited, and a day after the first abort neither.
    challenges.challenge_create(creator=bob, variant="Pente", time_control=LIVE_5, now=later)
    challenges.challenge_create(
        creator=bob, variant="Pente", rated=True, now=T0 + timedelta(hours=24, minutes=2)
    )


def test_two_aborts_or_other_players_absences_do_not_limit_a_player():
    bob = UserFactory()
    abort_as_player_two(bob, T0)
    abort_as_player_two(bob, T0 + timedelta(hours=1))
    game = make_game(players=[UserFactory(), bob], time_control="live", initial_minutes=5, now=T0)
    move_play(game_id=game.pk, user=bob, ply=1, points=[K9], now=T0)
    timeout_fire(game_id=game.pk, ply=2, now=T0 + WINDOW)  # player 1 absent, not bob
    bob.refresh_from_db()
    assert bob.aborts == 2
    challenges.challenge_create(
        creator=bob, variant="Pente", rated=True, time_control=LIVE_5, now=T0 + timedelta(hours=2)
    )
