"""Byes asked for ahead of time in a Swiss: the player is left out of that round's pairing and
scores half a point; refused once the round is paired, outside a Swiss, beyond the limit."""

from __future__ import annotations

import pytest

from pente_site.errors import DomainError
from tests.factories import UserFactory
from tests.tournaments.support import client_for, make_tournament, play_round
from tournaments import selectors, services
from tournaments.models import Entry, Match, bye_points2

pytestmark = pytest.mark.django_db


def players(t) -> list:
    return [e.user for e in Entry.objects.filter(tournament=t).select_related("user")]


def ask(t, user, round_number: int):
    return client_for(user).post(f"/api/tournaments/{t.pk}/byes/", {"round": round_number}, "json")


def test_a_requested_bye_leaves_the_player_out_of_that_round_with_half_a_point():
    t = make_tournament(players=5, rounds=3, start=False)
    resting = players(t)[0]
    response = ask(t, resting, 2)
    assert response.status_code == 201, response.data
    assert response.data == {
        "user": {"id": resting.pk, "username": resting.username},
        "round": 2,
        "result": "half_point_bye",
    }
    services.tournament_start(tournament_id=t.pk, user=t.organiser)
    t.refresh_from_db()
    first = Match.objects.filter(tournament=t, round__number=1)
    first = (list(first.filter(player1=resting)) + list(first.filter(player2=resting)))[0]
    if first.player2_id is None:  # 5 players: one sits out round 1 (a Swiss's bye: a win)
        won_first = bye_points2(first.result, swiss=True) / 2
    else:  # white wins every game
        won_first = 1.0 if first.player1_id == resting.pk else 0.0
    play_round(t)
    assert t.current_round == 2
    second = Match.objects.filter(tournament=t, round__number=2)
    mine = list(second.filter(player1=resting)) + list(second.filter(player2=resting))
    assert [(m.result, m.player2_id, m.status) for m in mine] == [
        ("half_point_bye", None, "finished")
    ]
    assert second.filter(player2__isnull=False).count() == 2  # the four others play
    row = next(r for r in selectors.compute_standings(t) if r["user_id"] == resting.pk)
    assert row["points"] == won_first + 0.5


def test_the_byes_are_listed_by_round():
    t = make_tournament(players=4, rounds=3, start=False)
    a, b, *_ = players(t)
    ask(t, b, 3)
    ask(t, a, 2)
    listed = client_for().get(f"/api/tournaments/{t.pk}/byes/").json()
    assert [(row["round"], row["user"]["id"]) for row in listed["results"]] == [
        (2, a.pk),
        (3, b.pk),
    ]


def test_a_paired_round_takes_no_bye_and_keeps_the_ones_asked_for():
    t = make_tournament(players=4, rounds=3)
    first = players(t)[0]
    refused = ask(t, first, 1)
    assert refused.status_code == 409 and refused.json()["code"] == "round_paired"
    assert ask(t, first, 2).status_code == 201
    play_round(t)  # round 2 paired, with the bye
    taken_back = client_for(first).delete(f"/api/tournaments/{t.pk}/byes/2/")
    assert taken_back.status_code == 409 and taken_back.json()["code"] == "round_paired"


def test_a_bye_taken_back_before_its_round_is_paired_leaves_the_player_in_it():
    t = make_tournament(players=4, rounds=3, start=False)
    first = players(t)[0]
    ask(t, first, 1)
    assert client_for(first).delete(f"/api/tournaments/{t.pk}/byes/1/").status_code == 204
    gone = client_for(first).delete(f"/api/tournaments/{t.pk}/byes/1/")
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"
    services.tournament_start(tournament_id=t.pk, user=t.organiser)
    assert not Match.objects.filter(tournament=t, result="half_point_bye").exists()


def test_byes_are_refused_to_strangers_twice_beyond_the_rounds_and_beyond_the_limit(settings):
    settings.TOURNAMENT_MAX_REQUESTED_BYES = 2
    t = make_tournament(players=4, rounds=3, start=False)
    first = players(t)[0]
    stranger = ask(t, UserFactory(), 1)
    assert stranger.status_code == 409 and stranger.json()["code"] == "not_joined"
    assert ask(t, first, 1).status_code == 201
    again = ask(t, first, 1)
    assert again.status_code == 409 and again.json()["code"] == "bye_requested"
    beyond = ask(t, first, 4)
    assert beyond.status_code == 400 and beyond.json()["code"] == "bad_round"
    assert ask(t, first, 2).status_code == 201
    third = ask(t, first, 3)
    assert third.status_code == 409 and third.json()["code"] == "too_many_byes"
    nought = ask(t, first, 0)
    assert nought.status_code == 400


def test_only_a_swiss_takes_byes_ahead_of_time():
    t = make_tournament(players=4, start=False, format="round_robin")
    refused = ask(t, players(t)[0], 1)
    assert refused.status_code == 409 and refused.json()["code"] == "byes_not_taken"


def test_a_withdrawal_takes_the_byes_of_rounds_to_come_with_it():
    t = make_tournament(players=5, rounds=3, start=False)
    leaving = players(t)[0]
    ask(t, leaving, 2)
    services.tournament_start(tournament_id=t.pk, user=t.organiser)
    services.tournament_withdraw(tournament_id=t.pk, user=leaving)
    play_round(t)
    assert not Match.objects.filter(tournament=t, round__number=2, player1=leaving).exists()
    assert client_for().get(f"/api/tournaments/{t.pk}/byes/").json()["count"] == 0


def test_without_a_set_number_of_rounds_a_bye_beyond_the_most_a_swiss_may_have_is_refused():
    t = make_tournament(players=4, start=False)  # rounds chosen at the start
    first = players(t)[0]
    with pytest.raises(DomainError) as refused:
        services.bye_request(tournament_id=t.pk, user=first, round_number=51)
    assert refused.value.code == "bad_round"
    assert ask(t, first, 1099511627776).status_code == 400
    assert ask(t, first, 50).status_code == 201
