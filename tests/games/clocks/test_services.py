"""Clock services on game rows: hooks, loss on time (the task's claim, the sweeper), vacation.

Times are frozen by passing ``now`` explicitly; Celery is eager (tasks with an eta are not sent),
so the task's work is exercised by calling ``timeout_fire`` / ``close_due`` directly.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import TestCase
from django.utils import timezone

from explorer import indexing
from games.clocks.selectors import clock_view, vacation_status
from games.clocks.services import TIMEOUT_TASK, clock_on_move, clock_restart, schedule_deadline
from games.clocks.sweeper import close_due, timeout_fire
from games.clocks.tasks import SWEEP_TASK
from games.clocks.timecontrol import TimeControl
from games.clocks.vacation import vacation_start
from games.play.actions import move_play
from games.play.create import set_create
from games.play.models import Game, GameSet
from games.play.positions import seat_to_move
from games.play.sets import set_next_game_start
from live.bus import backend
from pente_site.celery import app
from pente_site.errors import DomainError
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


T0 = datetime(2025, 1, 2, 10, 30, tzinfo=UTC)  # a Thursday
K9, L10, J11 = 199, 181, 161  # points near the centre (K10 = 180 is the automatic first stone)


def live_game(*, initial=5, increment=2, now=T0, on_absence="none", **kw):
    """A live game whose clocks run from the start (no start window: ``on_absence="none"``),
    so a timeout at the first turn is a loss on time (the window: test_start_window.py)."""
    return make_game(
        time_control="live",
        initial_minutes=initial,
        increment_seconds=increment,
        now=now,
        on_absence=on_absence,
        **kw,
    )


def turn_game(*, days=3, now=T0, players=None, vacation_allowed=True):
    return make_game(
        players=players,
        time_control="turn",
        days_per_move=days,
        vacation_allowed=vacation_allowed,
        now=now,
    )


def player(game: Game, seat: int):
    return game.seat_rows.get(seat=seat).user


# --- hooks --------------------------------------------------------------------------------


def test_live_game_starts_both_clocks_and_the_deadline_of_seat_two():
    game = live_game()
    assert game.category == "speed"
    assert game.clocks_ms == [300_000, 300_000]
    assert game.turn_started_at == T0
    assert game.deadline == T0 + timedelta(minutes=5)  # seat 2 moves after the centre stone


def test_untimed_game_has_no_deadline():
    game = make_game(now=T0)
    assert game.category == "untimed"
    assert game.deadline is None


def test_a_move_charges_the_mover_and_adds_the_increment():
    game = live_game()
    t1 = T0 + timedelta(seconds=10)
    game = move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1).game
    game.refresh_from_db()
    assert game.clocks_ms == [300_000, 292_000]
    assert game.turn_started_at == t1
    assert game.deadline == t1 + timedelta(minutes=5)  # seat 1's clock, untouched so far


def test_second_move_runs_the_other_clock():
    game = live_game(initial=1, increment=0)
    t1 = T0 + timedelta(seconds=10)
    t2 = t1 + timedelta(seconds=25)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    move_play(game_id=game.pk, user=player(game, 1), ply=2, points=[L10], now=t2)
    game.refresh_from_db()
    assert game.clocks_ms == [35_000, 50_000]
    assert game.deadline == t2 + timedelta(seconds=50)


def test_a_move_after_the_flag_fell_loses_on_time_instead():
    game = live_game(initial=1, increment=0)
    late = T0 + timedelta(minutes=1)
    with pytest.raises(DomainError) as info:
        move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=late)
    assert info.value.code == "time_over"
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1])
    assert game.ply == 1


def test_turn_based_deadline_uses_the_zone_of_the_player_to_move():
    friday = datetime(2025, 1, 3, 20, 0, tzinfo=UTC)  # already Saturday 05:00 in Tokyo
    in_utc = turn_game(days=1, now=friday, players=[UserFactory(), UserFactory(time_zone="UTC")])
    in_tokyo = turn_game(
        days=1, now=friday, players=[UserFactory(), UserFactory(time_zone="Asia/Tokyo")]
    )
    assert in_tokyo.category == "turn"
    # Seat 2 is to move. In UTC: Friday 20:00 -> Monday 20:00 (the weekend skipped, the time
    # of day kept); in Tokyo the turn begins on the weekend: counted from Monday 00:00 there.
    assert in_utc.deadline == datetime(2025, 1, 6, 20, 0, tzinfo=UTC)
    assert in_tokyo.deadline == datetime(2025, 1, 7, tzinfo=ZoneInfo("Asia/Tokyo"))


def test_turn_based_move_sets_the_deadline_for_the_opponent():
    p1 = UserFactory(time_zone="Asia/Tokyo")
    p2 = UserFactory(time_zone="UTC")
    game = turn_game(days=1, players=[p1, p2])
    friday = datetime(2025, 1, 3, 9, 0, tzinfo=UTC)  # Friday 18:00 in Tokyo
    move_play(game_id=game.pk, user=p2, ply=1, points=[K9], now=friday)
    game.refresh_from_db()
    assert game.turn_started_at == friday
    assert game.deadline == datetime(2025, 1, 6, 18, 0, tzinfo=ZoneInfo("Asia/Tokyo"))  # Monday


def test_a_turn_begun_late_in_the_evening_keeps_a_whole_day():
    p1, p2 = UserFactory(time_zone="Asia/Kabul"), UserFactory(time_zone="Asia/Kabul")
    game = turn_game(days=1, players=[p1, p2])
    late = datetime(2025, 1, 2, 19, 21, 16, tzinfo=UTC)  # Thursday 23:51:16 in Kabul
    move_play(game_id=game.pk, user=p2, ply=1, points=[K9], now=late)
    game.refresh_from_db()
    assert game.deadline == late + timedelta(hours=24)  # not Friday 00:00 there, 8 min later


def test_guessed_next_seat_is_checked_against_the_replay():
    """D-Pente: seat 1 places four stones in a row; rotation would guess seat 2 each time."""
    game = make_game(
        variant="D-Pente", time_control="live", initial_minutes=1, increment_seconds=0, now=T0
    )
    game.refresh_from_db()
    seat = seat_to_move(game)
    assert game.deadline == T0 + timedelta(milliseconds=game.clocks_ms[seat - 1])


# --- loss on time: the task's work --------------------------------------------------------


def test_timeout_fire_finishes_a_live_game_past_its_deadline():
    game = live_game(initial=1, increment=0)
    outcome = timeout_fire(game_id=game.pk, ply=1, now=game.deadline)
    game.refresh_from_db()
    assert outcome == "timeout"
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1])
    assert game.clocks_ms == [60_000, 0]
    assert game.deadline is None
    assert game.finished_at == T0 + timedelta(minutes=1)


def test_timeout_fire_twice_changes_nothing_the_second_time():
    game = live_game(initial=1, increment=0)
    deadline = game.deadline
    timeout_fire(game_id=game.pk, ply=1, now=deadline)
    game.refresh_from_db()
    before = (game.status, game.winner_seats, game.finished_at, game.updated_at)
    assert timeout_fire(game_id=game.pk, ply=1, now=deadline + timedelta(seconds=5)) == "stale"
    game.refresh_from_db()
    assert (game.status, game.winner_seats, game.finished_at, game.updated_at) == before


def test_timeout_fire_for_an_old_ply_does_nothing():
    game = live_game(initial=1, increment=0)
    t1 = T0 + timedelta(seconds=59)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    assert timeout_fire(game_id=game.pk, ply=1, now=T0 + timedelta(minutes=1)) == "stale"
    game.refresh_from_db()
    assert game.status == "in_progress"


def test_timeout_fire_before_the_deadline_does_nothing():
    game = live_game(initial=1, increment=0)
    assert timeout_fire(game_id=game.pk, ply=1, now=T0 + timedelta(seconds=30)) == "early"
    game.refresh_from_db()
    assert game.status == "in_progress"


def test_timeout_fire_for_a_missing_game_does_nothing():
    assert timeout_fire(game_id=987654, ply=1, now=T0) == "stale"


def row(game: Game) -> tuple:
    fresh = Game.objects.get(pk=game.pk)
    return (fresh.status, fresh.ply, fresh.deadline, fresh.clocks_ms, fresh.updated_at)


def test_a_stale_task_claims_nothing_and_writes_nothing():
    game = live_game(initial=1, increment=0)
    t1 = T0 + timedelta(seconds=59)
    move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=t1)
    before = row(game)
    late = T0 + timedelta(minutes=10)  # past the deadline of ply 1 and of ply 2
    assert timeout_fire(game_id=game.pk, ply=1, now=late) == "stale"
    assert row(game) == before


def test_a_task_for_a_deadline_that_moved_later_at_the_same_ply_claims_nothing():
    game = turn_game()
    first = game.deadline
    close_due(now=first + timedelta(seconds=1))  # an hour of vacation: same ply, later deadline
    before = row(game)
    assert before[2] == first + timedelta(hours=1)
    assert timeout_fire(game_id=game.pk, ply=1, now=first + timedelta(seconds=2)) == "early"
    assert row(game) == before


def test_a_task_repeated_after_the_sweeper_closed_the_game_claims_nothing():
    game = live_game(initial=1, increment=0)
    close_due(now=game.deadline + timedelta(seconds=1))
    before = row(game)
    for _ in range(2):
        assert timeout_fire(game_id=game.pk, ply=1, now=game.deadline + timedelta(seconds=2)) == (
            "stale"
        )
    assert row(game) == before


# --- a timeout applied late (a worker outage) is finished at the deadline ------------------


def test_a_late_task_finishes_the_game_at_its_deadline():
    game = live_game(initial=1, increment=0)
    deadline = game.deadline
    timeout_fire(game_id=game.pk, ply=1, now=deadline + timedelta(minutes=30))
    game.refresh_from_db()
    assert (game.end_reason, game.finished_at) == ("timeout", deadline)


def test_the_sweeper_after_an_outage_finishes_each_game_at_its_own_deadline():
    live = live_game(initial=1, increment=0)
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=0, vacation_year=2025)
    turn = turn_game(days=1, players=[p1, p2])  # the batch path: one UPDATE for many games
    deadlines = {live.pk: live.deadline, turn.pk: turn.deadline}
    report = close_due(now=turn.deadline + timedelta(hours=5))
    assert report.timed_out == 2
    for game in (live, turn):
        game.refresh_from_db()
        assert (game.end_reason, game.finished_at) == ("timeout", deadlines[game.pk])


def test_a_late_timeout_after_the_last_vacation_hours_finishes_when_they_ran_out():
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=2, vacation_year=2025)
    game = turn_game(days=1, players=[p1, p2])  # due Friday 10:30: two hours end at 12:30
    deadline = game.deadline
    close_due(now=deadline + timedelta(hours=10))
    game.refresh_from_db()
    assert (game.status, game.end_reason) == ("finished", "timeout")
    assert game.finished_at == deadline + timedelta(hours=2)


def test_partners_timeout_gives_the_win_to_the_other_team():
    game = live_game(initial=1, increment=0, seats=4, partners=True)
    seat = seat_to_move(game)
    timeout_fire(game_id=game.pk, ply=game.ply, now=game.deadline)
    game.refresh_from_db()
    assert seat == 2
    assert game.winner_seats == [1, 3]


def test_multi_player_timeout_leaves_every_other_seat_winning():
    game = live_game(initial=1, increment=0, seats=3)
    timeout_fire(game_id=game.pk, ply=game.ply, now=game.deadline)
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1, 3])


def test_timeout_in_a_set_counts_for_the_set_result():
    p1, p2 = UserFactory(), UserFactory()
    game_set = set_create(
        player1=p1,
        player2=p2,
        variant="Pente",
        rated=True,
        now=T0,
        time_control=TimeControl.from_fields(
            time_control="live", initial_minutes=1, increment_seconds=0
        ),
        on_absence="none",
    )
    # A live set is played one game at a time: game 2 starts once game 1 is over.
    (game1,) = game_set.games.all()
    timeout_fire(game_id=game1.pk, ply=game1.ply, now=T0 + timedelta(minutes=2))
    game2 = set_next_game_start(game_set_id=game_set.pk, now=T0 + timedelta(minutes=3))
    timeout_fire(game_id=game2.pk, ply=game2.ply, now=T0 + timedelta(minutes=5))
    game_set.refresh_from_db()
    # Each game's seat 2 (p2 in game 1, p1 in game 2) ran out: one win each, a drawn set.
    assert game_set.status == GameSet.Status.FINISHED
    assert game_set.result == GameSet.Result.DRAW


# --- the sweeper --------------------------------------------------------------------------


def test_sweep_closes_only_games_past_their_deadline():
    due = live_game(initial=1, increment=0)
    later = live_game(initial=5, increment=0)
    report = close_due(now=T0 + timedelta(minutes=2))
    due.refresh_from_db()
    later.refresh_from_db()
    assert report.timed_out == 1
    assert due.end_reason == "timeout"
    assert later.status == "in_progress"


def test_the_sweeper_closes_games_past_their_deadline_and_sends_no_task(sent):
    due = live_game(initial=1, increment=0)
    later = live_game(initial=5, increment=0)
    report = close_due(now=T0 + timedelta(minutes=2))
    due.refresh_from_db()
    later.refresh_from_db()
    assert report.timed_out == 1
    assert (due.end_reason, later.status) == ("timeout", "in_progress")
    assert sent == []


def test_beat_runs_the_timeout_sweeper_every_second_and_drops_stale_sweeps(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["games-sweep-timeouts"]
    assert entry["task"] == SWEEP_TASK and entry["task"] in app.tasks
    assert entry["schedule"] == 1.0 and entry["options"]["expires"] == 1.0


def test_the_sweeper_is_the_only_periodic_timeout_task(settings):
    tasks = [e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()]
    assert [t for t in tasks if t.startswith("games.") and "timeout" in t] == [SWEEP_TASK]


def test_sweep_spends_an_hour_of_vacation_on_a_passed_turn_deadline():
    game = turn_game()
    deadline = game.deadline
    report = close_due(now=deadline + timedelta(seconds=20))
    game.refresh_from_db()
    p2 = player(game, 2)
    assert report.vacation == 1
    assert game.status == "in_progress"
    assert game.deadline == deadline + timedelta(hours=1)
    assert (p2.vacation_hours_left, p2.vacation_year) == (239, 2025)


def test_sweep_times_out_when_vacation_is_used_up():
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=0, vacation_year=2025)
    game = turn_game(players=[p1, p2])
    close_due(now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1])


def test_sweep_uses_a_new_years_vacation():
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=0, vacation_year=2024)
    game = turn_game(players=[p1, p2])
    close_due(now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    p2.refresh_from_db()
    assert game.status == "in_progress"
    assert (p2.vacation_hours_left, p2.vacation_year) == (239, 2025)


def test_sweep_with_vacation_not_allowed_times_out_and_spends_nothing():
    game = turn_game(vacation_allowed=False)
    close_due(now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    p2 = player(game, 2)
    assert game.end_reason == "timeout"
    assert p2.vacation_hours_left == 240


def test_sweep_shares_one_vacation_balance_between_games():
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=1, vacation_year=2025)
    first, second = turn_game(players=[p1, p2]), turn_game(players=[p1, p2])
    close_due(now=first.deadline + timedelta(seconds=1))
    first.refresh_from_db()
    second.refresh_from_db()
    assert sorted([first.status, second.status]) == ["finished", "in_progress"]
    p2.refresh_from_db()
    assert p2.vacation_hours_left == 0


def test_a_late_turn_based_move_spends_vacation_and_counts():
    game = turn_game(days=1)
    p2 = player(game, 2)
    late = game.deadline + timedelta(minutes=90)
    move_play(game_id=game.pk, user=p2, ply=1, points=[K9], now=late)
    game.refresh_from_db()
    p2.refresh_from_db()
    assert game.ply == 2
    assert p2.vacation_hours_left == 238


def test_a_late_turn_based_move_without_vacation_loses():
    game = turn_game(days=1, vacation_allowed=False)
    with pytest.raises(DomainError) as info:
        move_play(game_id=game.pk, user=player(game, 2), ply=1, points=[K9], now=game.deadline)
    assert info.value.code == "time_over"


def test_sweep_runs_in_batches():
    games = [live_game(initial=1, increment=0) for _ in range(5)]
    report = close_due(now=T0 + timedelta(minutes=2), batch_size=2)
    assert report.timed_out == 5
    assert Game.objects.filter(pk__in=[g.pk for g in games], status="finished").count() == 5


def test_a_sweep_batch_sends_its_events_in_one_call_and_one_index_job(monkeypatch):
    """Thousands of games closed at once must not cost a round trip each: the events of a
    batch go out in one call to the log, and the explorer gets one job for all its games."""
    games = [live_game(initial=1, increment=0) for _ in range(5)]
    calls, jobs = [], []
    log = backend()
    real = log.append_many
    monkeypatch.setattr(log, "append_many", lambda events: calls.append(events) or real(events))
    monkeypatch.setattr(indexing, "enqueue", lambda name, *, args: jobs.append((name, args)))
    with TestCase.captureOnCommitCallbacks(execute=True):
        report = close_due(now=T0 + timedelta(minutes=2))
    assert report.timed_out == 5
    assert len(calls) == 1 and {kind for _c, kind, _d in calls[0]} >= {"end"}
    assert jobs == [(indexing.INDEX_TASK, (sorted(g.pk for g in games),))]


# --- vacation services --------------------------------------------------------------------


def test_vacation_status_reports_the_new_years_balance():
    user = UserFactory(vacation_hours_left=10, vacation_year=2024)
    status = vacation_status(user=user, now=T0)
    assert status == {"hours_left": 240, "days_left": 10.0, "year": 2025, "hours_per_year": 240}


def test_vacation_start_pushes_games_where_the_user_is_to_move():
    game = turn_game()
    other = turn_game()  # p2 of this game is someone else
    p2 = player(game, 2)
    result = vacation_start(user=p2, hours=24, now=T0 + timedelta(hours=1))
    game.refresh_from_db()
    other_deadline = other.deadline
    other.refresh_from_db()
    # Thursday 10:30 + 3 days: Tuesday 10:30; + 24 working hours = Wednesday 10:30.
    assert game.deadline == datetime(2025, 1, 8, 10, 30, tzinfo=UTC)
    assert other.deadline == other_deadline
    assert result["hours_left"] == 216
    assert [g["id"] for g in result["games"]] == [game.pk]


def test_vacation_start_refuses_more_than_is_left():
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=5, vacation_year=2025)
    turn_game(players=[p1, p2])
    with pytest.raises(DomainError) as info:
        vacation_start(user=p2, hours=6, now=T0)
    assert info.value.code == "not_enough_vacation"


def test_vacation_start_skips_games_that_forbid_vacation():
    game = turn_game(vacation_allowed=False)
    with pytest.raises(DomainError) as info:
        vacation_start(user=player(game, 2), hours=2, now=T0)
    assert info.value.code == "no_games_to_pause"
    assert player(game, 2).vacation_hours_left == 240


def test_a_wrong_rotation_guess_is_fixed_from_the_replay():
    """D-Pente: seat 1 places its opening stones one after the other, so after seat 1's move
    seat 1 is to move again (rotation would have guessed seat 2)."""
    game = make_game(
        variant="D-Pente", time_control="live", initial_minutes=1, increment_seconds=0, now=T0
    )
    t1 = T0 + timedelta(seconds=10)
    move_play(game_id=game.pk, user=player(game, 1), ply=0, points=[180], now=t1)
    game.refresh_from_db()
    assert seat_to_move(game) == 1
    assert game.clocks_ms == [50_000, 60_000]
    assert game.deadline == t1 + timedelta(seconds=50)


def test_the_hook_uses_the_seat_to_move_it_is_given():
    game = live_game(initial=1, increment=0)
    t1 = T0 + timedelta(seconds=5)
    assert clock_on_move(game=game, seat=2, now=t1, to_move_seat=2)
    assert game.deadline == t1 + timedelta(seconds=55)


# --- scheduling ---------------------------------------------------------------------------


@pytest.fixture
def sent(monkeypatch):
    """Record the timeout tasks that would be sent to the broker."""
    calls: list[tuple[int, int, datetime]] = []

    def fake_send_task(name, *, args, eta):
        assert name == TIMEOUT_TASK
        calls.append((*args, eta))

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setattr(app, "send_task", fake_send_task)
    return calls


def test_schedule_deadline_sends_the_task_on_commit_with_the_deadline(
    sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = live_game(initial=1, increment=0, now=timezone.now())
    assert sent == [(game.pk, 1, game.deadline)]


def test_schedule_deadline_sends_nothing_for_a_game_over_or_without_a_deadline(
    sent, django_capture_on_commit_callbacks
):
    game = live_game(initial=1, increment=0, now=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        schedule_deadline(game=game)
        game.status = Game.Status.FINISHED
        schedule_deadline(game=game)
        game.status, game.deadline = Game.Status.IN_PROGRESS, None
        schedule_deadline(game=game)
    assert len(sent) == 1


def test_far_deadlines_are_left_to_the_sweeper(sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        turn_game(days=5, now=timezone.now())
    assert sent == []


def test_a_far_deadline_with_no_task_is_closed_by_the_sweeper_once_overdue(sent):
    p1, p2 = UserFactory(), UserFactory(vacation_hours_left=0, vacation_year=2025)
    game = turn_game(days=1, players=[p1, p2])
    assert close_due(now=game.deadline - timedelta(seconds=10)).timed_out == 0
    assert close_due(now=game.deadline + timedelta(seconds=1)).timed_out == 1
    game.refresh_from_db()
    assert (game.status, game.end_reason) == ("finished", "timeout")
    assert sent == []


# --- sets ---------------------------------------------------------------------------------


def test_swept_timeouts_finish_a_set_only_when_its_last_game_ends():
    p1 = UserFactory(vacation_hours_left=0, vacation_year=2025)
    p2 = UserFactory(vacation_hours_left=0, vacation_year=2025)
    game_set = set_create(
        player1=p1,
        player2=p2,
        variant="Pente",
        rated=True,
        now=T0,
        time_control=TimeControl.from_fields(time_control="turn", days_per_move=1),
    )
    first, second = game_set.games.order_by("set_index")
    Game.objects.filter(pk=second.pk).update(deadline=T0 + timedelta(days=30))
    close_due(now=first.deadline + timedelta(seconds=1))
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.IN_PROGRESS
    close_due(now=T0 + timedelta(days=31))
    game_set.refresh_from_db()
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.end_reason, second.end_reason) == ("timeout", "timeout")
    assert game_set.status == GameSet.Status.FINISHED
    assert game_set.result == GameSet.Result.DRAW  # seat 2 lost each game: one win each


def test_clock_restart_gives_the_seat_its_remaining_time_from_now():
    game = live_game(initial=1, increment=0)
    game.clocks_ms = [60_000, 42_000]
    t1 = T0 + timedelta(seconds=30)
    clock_restart(game=game, now=t1)
    assert game.clocks_ms == [60_000, 42_000]
    assert game.deadline == t1 + timedelta(seconds=42)


def test_clock_view_runs_the_clock_of_the_seat_to_move_only():
    game = live_game(initial=1, increment=0)
    view = clock_view(game=game, now=T0 + timedelta(seconds=15), to_move_seat=2)
    assert view["clocks_ms"] == [60_000, 45_000]
    assert view["deadline"] == T0 + timedelta(minutes=1)
    assert view["category"] == "speed"
