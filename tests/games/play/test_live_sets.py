"""Live rated sets, one game at a time: game 2 (seats swapped) is created only once game 1 is
over, after a countdown or when both players are ready, exactly once whoever starts it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from games.clocks.timecontrol import TimeControl
from games.engine import Outcome, Termination
from games.play import sets
from games.play.actions import game_resign
from games.play.create import set_create
from games.play.finish import game_finish
from games.play.models import Game, GameSet, Seat
from games.play.requests import game_cancel_request
from games.play.tasks import set_next_game, sets_start_due
from live.models import Event
from ratings.models import RatingChange
from tests.factories import UserFactory
from tests.threads import run_together

LIVE = TimeControl.live(5)


@pytest.fixture
def pair(db):
    return UserFactory(username="ann"), UserFactory(username="bob")


@pytest.fixture(autouse=True)
def _database_log(settings):
    settings.REDIS_URL = ""  # the live events are kept in the database: read them back
    settings.SET_NEXT_GAME_SECONDS = 10


def live_set(pair, **options) -> GameSet:
    return set_create(
        player1=pair[0], player2=pair[1], variant="Pente", rated=True, time_control=LIVE, **options
    )


def games_of(game_set) -> list[Game]:
    return list(Game.objects.filter(game_set=game_set).order_by("set_index"))


def seat_names(game) -> list[str]:
    return list(
        Seat.objects.filter(game=game).order_by("seat").values_list("user__username", flat=True)
    )


def end_game_1(game_set, loser) -> Game:
    (game,) = games_of(game_set)
    game_resign(game_id=game.pk, user=loser)
    game_set.refresh_from_db()
    return game


def later(game_set, seconds: float = 0.5):
    return game_set.next_game_at + timedelta(seconds=seconds)


@pytest.mark.django_db
def test_a_live_set_has_only_game_1_while_game_1_is_played(pair):
    game_set = live_set(pair)
    (game,) = games_of(game_set)
    assert game_set.games_count == 2 and game.set_index == 1
    assert seat_names(game) == ["ann", "bob"]
    assert game_set.next_game_at is None
    assert sets.sets_start_due(now=timezone.now() + timedelta(hours=1)) == 0
    assert len(games_of(game_set)) == 1


@pytest.mark.django_db
def test_game_1_over_starts_the_countdown_not_game_2(pair):
    before = timezone.now()
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])
    assert game_set.status == GameSet.Status.IN_PROGRESS
    assert game_set.next_game_at >= before + timedelta(seconds=10)
    assert len(games_of(game_set)) == 1


@pytest.mark.django_db
def test_game_2_starts_after_the_countdown_with_seats_swapped_and_game_1s_options(pair):
    game_set = live_set(pair, adjacent_only=True, spectator_delay=2)
    end_game_1(game_set, pair[1])
    assert sets.set_next_game_start(game_set_id=game_set.pk, now=later(game_set, -1)) is None
    game = sets.set_next_game_start(game_set_id=game_set.pk, now=later(game_set))
    assert game is not None and game.set_index == 2
    assert seat_names(game) == ["bob", "ann"]
    assert game.status == Game.Status.IN_PROGRESS and game.rated and game.time_control == "live"
    assert (game.initial_minutes, game.adjacent_only, game.spectator_delay) == (5, True, 2)
    game_set.refresh_from_db()
    assert game_set.next_game_at is None and game_set.status == GameSet.Status.IN_PROGRESS


@pytest.mark.django_db
def test_game_2_of_a_set_played_at_a_table_has_no_start_window(pair):
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])
    game = sets.set_next_game_start(game_set_id=game_set.pk, now=later(game_set))
    assert game.on_absence == Game.OnAbsence.NONE


@pytest.mark.django_db
def test_game_2_of_a_tournament_set_still_forfeits_the_absent(pair):
    # A match nobody turns up for must end as a double forfeit, not as a loss on time in game 2.
    game_set = live_set(pair, on_absence=Game.OnAbsence.FORFEIT)
    end_game_1(game_set, pair[1])
    game = sets.set_next_game_start(game_set_id=game_set.pk, now=later(game_set))
    assert game.on_absence == Game.OnAbsence.FORFEIT


@pytest.mark.django_db
def test_a_game_1_lost_on_time_starts_the_countdown_too(pair):
    game_set = live_set(pair)
    (game,) = games_of(game_set)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        game_finish(game=locked, outcome=Outcome(Termination.TIMEOUT, (1,)))
    game_set.refresh_from_db()
    assert game_set.next_game_at is not None


@pytest.mark.django_db
def test_both_players_ready_start_game_2_at_once(pair):
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])
    assert sets.set_ready(game_set_id=game_set.pk, user=pair[0]).player1_ready
    assert len(games_of(game_set)) == 1
    after = sets.set_ready(game_set_id=game_set.pk, user=pair[1])
    assert after.next_game_at is None
    assert [g.set_index for g in games_of(game_set)] == [1, 2]


@pytest.mark.django_db
def test_the_ready_endpoint_starts_game_2_and_refuses_once_it_started(pair):
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])
    clients = []
    for user in pair:
        client = APIClient()
        client.force_authenticate(user)
        clients.append(client)
    first = clients[0].post(f"/api/sets/{game_set.pk}/ready")
    assert first.status_code == 200 and first.json()["ready"] == [True, False]
    second = clients[1].post(f"/api/sets/{game_set.pk}/ready").json()
    assert [g["set_index"] for g in second["games"]] == [1, 2]
    assert second["next_game_at"] is None
    again = clients[0].post(f"/api/sets/{game_set.pk}/ready")
    assert again.status_code == 409 and again.json()["code"] == "no_next_game"


@pytest.mark.django_db
def test_only_the_sets_players_may_say_they_are_ready(pair):
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])
    client = APIClient()
    client.force_authenticate(UserFactory())
    response = client.post(f"/api/sets/{game_set.pk}/ready")
    assert response.status_code == 403 and response.json()["code"] == "not_participant"


@pytest.mark.django_db
def test_the_task_twice_makes_one_game_2(pair, settings):
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])
    GameSet.objects.filter(pk=game_set.pk).update(next_game_at=timezone.now())
    assert set_next_game(game_set.pk) is True
    assert set_next_game(game_set.pk) is False
    assert len(games_of(game_set)) == 2


@pytest.mark.django_db
def test_the_task_after_both_were_ready_does_nothing(pair):
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])
    for user in pair:
        sets.set_ready(game_set_id=game_set.pk, user=user)
    assert set_next_game(game_set.pk) is False
    assert len(games_of(game_set)) == 2


@pytest.mark.django_db
def test_the_sweeper_starts_game_2_when_the_task_was_lost(pair):
    game_set = live_set(pair)
    end_game_1(game_set, pair[1])  # eager tests: no task sent, as if lost
    GameSet.objects.filter(pk=game_set.pk).update(
        next_game_at=timezone.now() - timedelta(seconds=1)
    )
    assert sets_start_due() == 1
    assert sets_start_due() == 0
    assert [g.set_index for g in games_of(game_set)] == [1, 2]


@pytest.mark.django_db
def test_a_cancelled_game_1_cancels_the_set_without_a_game_2(pair):
    game_set = live_set(pair)
    (game,) = games_of(game_set)
    game_cancel_request(game_id=game.pk, user=pair[0])
    game_cancel_request(game_id=game.pk, user=pair[1])
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.CANCELLED and game_set.next_game_at is None
    assert sets.sets_start_due(now=timezone.now() + timedelta(hours=1)) == 0
    assert len(games_of(game_set)) == 1


@pytest.mark.django_db
def test_a_turn_based_set_still_has_both_games_at_once(pair):
    game_set = set_create(
        player1=pair[0],
        player2=pair[1],
        variant="Pente",
        rated=True,
        time_control=TimeControl.turn(3),
    )
    games = games_of(game_set)
    assert [g.set_index for g in games] == [1, 2]
    game_resign(game_id=games[0].pk, user=pair[1])
    game_set.refresh_from_db()
    assert game_set.next_game_at is None


@pytest.mark.django_db
def test_a_live_swap2_set_is_one_game_and_ends_with_it(pair):
    game_set = set_create(
        player1=pair[0], player2=pair[1], variant="Swap2-Pente", rated=True, time_control=LIVE
    )
    end_game_1(game_set, pair[1])
    assert game_set.status == GameSet.Status.FINISHED and game_set.next_game_at is None


@pytest.mark.django_db
def test_the_set_gets_its_result_and_ratings_once_game_2_is_over(pair):
    ann, bob = pair
    game_set = live_set(pair)
    end_game_1(game_set, bob)  # ann wins game 1
    game = sets.set_next_game_start(game_set_id=game_set.pk, now=later(game_set))
    game_resign(game_id=game.pk, user=bob)  # ann wins game 2 (bob has seat 1)
    game_set.refresh_from_db()
    assert game_set.status == GameSet.Status.FINISHED
    assert (game_set.result, game_set.winner) == ("player1", ann)
    changes = RatingChange.objects.filter(game_set=game_set)
    assert sorted(c.result for c in changes) == ["loss", "win"]


@pytest.mark.django_db
def test_the_game_state_carries_the_set_score_other_game_and_countdown(pair, client):
    game_set = live_set(pair)
    game1 = end_game_1(game_set, pair[1])
    state = client.get(f"/api/games/{game1.pk}/").json()["set"]
    assert (state["id"], state["index"], state["games_count"]) == (game_set.pk, 1, 2)
    assert state["score"] == [1, 0] and state["other_game"] is None
    assert state["next_game_at"] is not None and state["ready"] == [False, False]
    game2 = sets.set_next_game_start(game_set_id=game_set.pk, now=later(game_set))
    state = client.get(f"/api/games/{game1.pk}/").json()["set"]
    assert state["other_game"] == game2.pk and state["next_game_at"] is None
    state2 = client.get(f"/api/games/{game2.pk}/").json()["set"]
    assert (state2["index"], state2["other_game"], state2["score"]) == (2, game1.pk, [1, 0])
    detail = client.get(f"/api/sets/{game_set.pk}/").json()
    assert detail["score"] == [1, 0] and detail["next_game_at"] is None


@pytest.mark.django_db
def test_a_game_outside_a_set_has_no_set_in_its_state(pair, client):
    game_set = set_create(player1=pair[0], player2=pair[1], variant="Pente", rated=False)
    Game.objects.filter(game_set=game_set).update(game_set=None)
    (game,) = Game.objects.filter(seat_rows__user=pair[0])
    assert client.get(f"/api/games/{game.pk}/").json()["set"] is None


def _events(channel: str, kind: str) -> list[dict]:
    return [e.data for e in Event.objects.filter(channel=channel, kind=kind).order_by("id")]


@pytest.mark.django_db
def test_the_countdown_and_game_2_are_told_on_both_players_streams_and_game_1s(pair):
    ann, bob = pair
    game_set = live_set(pair)
    (game1,) = games_of(game_set)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_resign(game_id=game1.pk, user=bob)
    game_set.refresh_from_db()
    for channel in (f"game:{game1.pk}", f"user:{ann.pk}", f"user:{bob.pk}"):
        (told,) = _events(channel, "set_next_game")
        assert told["set"] == game_set.pk and told["game"] == game1.pk
        assert told["next_game_at"] is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        game2 = sets.set_next_game_start(game_set_id=game_set.pk, now=later(game_set))
    (started,) = _events(f"game:{game1.pk}", "game_started")
    assert (started["game"], started["set_index"], started["previous"]) == (game2.pk, 2, game1.pk)
    for user in pair:
        assert [e["game"] for e in _events(f"user:{user.pk}", "game_started")][-1] == game2.pk


@pytest.mark.django_db
def test_two_games_at_the_same_place_of_a_set_are_refused(pair):
    game_set = live_set(pair)
    (game,) = games_of(game_set)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(variant="Pente", game_set=game_set, set_index=1)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_task_the_sweeper_and_both_players_ready_at_once_make_one_game_2(pair):
    ann, bob = pair
    game_set = live_set(pair)
    end_game_1(game_set, bob)
    GameSet.objects.filter(pk=game_set.pk).update(player1_ready=True)
    GameSet.objects.filter(pk=game_set.pk).update(next_game_at=timezone.now())
    jobs = [
        lambda: set_next_game(game_set.pk),
        lambda: set_next_game(game_set.pk),
        lambda: sets_start_due(),
        lambda: sets.set_ready(game_set_id=game_set.pk, user=bob),
    ] * 2

    def refused_once_started_is_fine(job):
        try:
            job()
        except Exception as exc:
            if getattr(exc, "code", None) != "no_next_game":
                raise

    run_together([lambda job=job: refused_once_started_is_fine(job) for job in jobs], timeout=60)
    assert [g.set_index for g in games_of(game_set)] == [1, 2]
