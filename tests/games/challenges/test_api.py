"""Challenges API: create (direct / open / multi-player / partners), accept, decline, cancel,
join, leave, expiry, restrictions and the three lists; and what ignoring a player
(``POST me/ignores``) does to their challenges."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import include, path
from django.utils import timezone
from rest_framework.test import APIClient

from games.challenges import selectors as challenge_selectors
from games.challenges import services as challenge_services
from games.challenges.models import Challenge, ChallengeEntry
from games.play.models import Game, GameSet
from live.services import ignore_add
from tests.clients import client_for
from tests.factories import ChallengeFactory, GameFactory, UserFactory
from tests.games.challenges.support import act, create, seat_users

urlpatterns = [path("api/", include("games.challenges.urls"))]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture
def ratings(monkeypatch):
    """Replace the ratings lookup: ``ratings[username] = (rating, results) | None``."""
    table: dict[str, tuple[float, int] | None] = {}

    def fake(*, user, variant, category):
        return table.get(user.username)

    monkeypatch.setattr(challenge_services, "player_rating", fake)
    monkeypatch.setattr(challenge_selectors, "player_rating", fake)
    return table


# --- create -------------------------------------------------------------------------------


def test_create_direct_challenge(alice, bob):
    response = create(alice, invitee="Bob", message="  good luck  ", seat_wanted=1)
    assert response.status_code == 201, response.data
    data = response.data
    assert (data["kind"], data["invitee"], data["created_by"]) == ("direct", "bob", "alice")
    assert (data["status"], data["message"], data["seat_wanted"]) == ("open", "good luck", 1)
    assert data["category"] == "untimed"


def test_create_open_challenge_accepts_a_variant_slug(alice):
    response = create(alice, variant="keryo-pente")
    assert response.status_code == 201
    assert (response.data["kind"], response.data["variant"]) == ("open", "Keryo-Pente")
    assert response.data["invitee"] is None


def test_create_live_challenge_expires_in_an_hour_and_turn_in_a_week(alice):
    before = timezone.now()
    live = create(alice, time_control="live", initial_minutes=5, increment_seconds=0).data
    turn = create(alice, time_control="turn", days_per_move=3).data
    assert live["category"] == "speed"
    assert turn["category"] == "turn"
    live_expiry = Challenge.objects.get(pk=live["id"]).expires_at - before
    turn_expiry = Challenge.objects.get(pk=turn["id"]).expires_at - before
    assert timedelta(minutes=59) < live_expiry <= timedelta(hours=1, seconds=5)
    assert timedelta(days=6, hours=23) < turn_expiry <= timedelta(days=7, seconds=5)


def test_create_takes_a_chosen_expiry(alice):
    data = create(alice, expires_in_hours=48).data
    lifetime = Challenge.objects.get(pk=data["id"]).expires_at - timezone.now()
    assert timedelta(hours=47) < lifetime <= timedelta(hours=48)


def test_create_refuses_a_bad_expiry(alice):
    response = create(alice, expires_in_hours=0)
    assert response.status_code == 400
    assert response.data["code"] == "bad_expiry"


def test_create_refuses_challenging_myself(alice):
    response = create(alice, invitee="alice")
    assert response.status_code == 400
    assert response.data["code"] == "challenge_self"


def test_create_refuses_an_unknown_player(alice):
    response = create(alice, invitee="ghost")
    assert response.status_code == 400
    assert response.data["code"] == "unknown_player"


def test_create_refuses_an_unknown_game(alice):
    response = create(alice, variant="Chess")
    assert response.status_code == 400
    assert response.data["code"] == "unknown_game"


@pytest.mark.parametrize(
    "timing",
    [
        {"time_control": "live", "initial_minutes": 0, "increment_seconds": 0},
        {"time_control": "live", "initial_minutes": 1000},
        {"time_control": "live", "initial_minutes": 5, "increment_seconds": 60},
        {"time_control": "live", "initial_minutes": -1, "increment_seconds": 5},
        {"time_control": "turn", "days_per_move": 0},
        {"time_control": "turn", "days_per_move": 31},
        {"time_control": "turn", "days_per_move": 3, "initial_minutes": 5},
        {"time_control": "none", "days_per_move": 3},
        {"time_control": "blitz"},
    ],
)
def test_create_refuses_a_bad_time_control(alice, timing):
    response = create(alice, **timing)
    assert response.status_code == 400
    assert response.data["code"] == "bad_time_control"


def test_create_refuses_a_rated_multiplayer_challenge(alice):
    response = create(alice, seats=3, rated=True)
    assert response.status_code == 400
    assert response.data["code"] == "rated_multiplayer"


def test_create_refuses_rated_partners(alice):
    response = create(alice, partners=True, seats=4, rated=True)
    assert response.data["code"] == "rated_multiplayer"


def test_create_refuses_rated_adjacent_only(alice):
    response = create(alice, rated=True, adjacent_only=True)
    assert response.status_code == 400
    assert response.data["code"] == "rated_options"


@pytest.mark.parametrize("seats", [1, 7])
def test_create_refuses_a_seat_count_outside_2_to_6(alice, seats):
    response = create(alice, seats=seats)
    assert response.data["code"] == "bad_seats"


def test_create_refuses_partners_with_other_than_4_seats(alice):
    assert create(alice, partners=True, seats=3).data["code"] == "bad_seats"


@pytest.mark.parametrize("seat_wanted", [0, 3])
def test_create_refuses_a_bad_seat_wanted(alice, seat_wanted):
    assert create(alice, seat_wanted=seat_wanted).data["code"] == "bad_seat_wanted"


def test_create_refuses_a_direct_multiplayer_challenge(alice, bob):
    response = create(alice, invitee="bob", seats=3)
    assert response.data["code"] == "direct_multiplayer"


def test_create_refuses_an_unknown_restriction(alice):
    assert create(alice, restriction="friends_only").data["code"] == "bad_restriction"


def test_create_refuses_a_long_message(alice):
    response = create(alice, message="x" * 256)
    assert response.status_code == 400
    assert response.data["code"] == "message_too_long"


def test_create_rating_restriction_defaults_to_my_rating(alice, ratings):
    ratings["alice"] = (1834.6, 40)
    response = create(alice, restriction="rating_similar")
    assert response.data["restriction_rating"] == 1835


def test_create_needs_authentication():
    response = APIClient().post("/api/challenges/", {"variant": "Pente"})
    assert response.status_code in (401, 403)


# --- accept -------------------------------------------------------------------------------


def test_accept_unrated_direct_challenge_starts_one_game_creator_first(alice, bob):
    challenge = create(alice, invitee="bob", seat_wanted=1).data
    response = act(bob, challenge["id"], "accept")
    assert response.status_code == 200, response.data
    assert response.data["status"] == "accepted"
    game = Game.objects.get(pk=response.data["game"])
    assert seat_users(game) == ["alice", "bob"]
    assert game.rated is False
    assert response.data["game_set"] is None


def test_accept_with_seat_wanted_2_makes_the_acceptor_player_1(alice, bob):
    challenge = create(alice, seat_wanted=2).data
    game = Game.objects.get(pk=act(bob, challenge["id"], "accept").data["game"])
    assert seat_users(game) == ["bob", "alice"]


@pytest.mark.parametrize(
    ("creator_first", "order"), [(True, ["alice", "bob"]), (False, ["bob", "alice"])]
)
def test_accept_with_either_seat_lets_the_coin_decide(
    alice, bob, monkeypatch, creator_first, order
):
    monkeypatch.setattr(challenge_services, "coin_flip", lambda: creator_first)
    challenge = create(alice).data
    game = Game.objects.get(pk=act(bob, challenge["id"], "accept").data["game"])
    assert seat_users(game) == order


def test_accept_rated_challenge_creates_a_two_game_set(alice, bob):
    challenge = create(alice, rated=True, seat_wanted=1, time_control="turn", days_per_move=2).data
    response = act(bob, challenge["id"], "accept")
    assert response.status_code == 200, response.data
    game_set = GameSet.objects.get(pk=response.data["game_set"])
    assert (game_set.player1.username, game_set.player2.username) == ("alice", "bob")
    assert game_set.rated and game_set.category == "turn"
    games = list(game_set.games.order_by("set_index"))
    assert len(games) == 2
    assert response.data["game"] == games[0].pk
    assert seat_users(games[1]) == ["bob", "alice"]
    assert games[0].days_per_move == 2


def test_accept_passes_game_options_to_the_game(alice, bob):
    challenge = create(
        alice,
        variant="Keryo-Pente",
        tournament_rule=True,
        adjacent_only=True,
        time_control="live",
        initial_minutes=10,
        increment_seconds=5,
    ).data
    game = Game.objects.get(pk=act(bob, challenge["id"], "accept").data["game"])
    assert (game.variant, game.tournament_rule, game.adjacent_only) == ("Keryo-Pente", True, True)
    assert (game.time_control, game.initial_minutes, game.increment_seconds) == ("live", 10, 5)


def test_accept_refuses_my_own_challenge(alice):
    challenge = create(alice).data
    response = act(alice, challenge["id"], "accept")
    assert response.status_code == 400
    assert response.data["code"] == "challenge_self"


def test_accept_refuses_someone_not_invited(alice, bob):
    challenge = create(alice, invitee="bob").data
    response = act(UserFactory(), challenge["id"], "accept")
    assert response.status_code == 403
    assert response.data["code"] == "not_invitee"


def test_second_accept_is_refused_as_already_accepted(alice, bob):
    challenge = create(alice).data
    assert act(bob, challenge["id"], "accept").status_code == 200
    response = act(UserFactory(), challenge["id"], "accept")
    assert response.status_code == 409
    assert response.data["code"] == "already_accepted"
    assert Game.objects.count() == 1


def test_accept_refuses_an_expired_challenge_and_marks_it(alice, bob):
    challenge = ChallengeFactory(created_by=alice, expires_at=timezone.now() - timedelta(seconds=1))
    response = act(bob, challenge.pk, "accept")
    assert response.status_code == 409
    assert response.data["code"] == "expired"
    challenge.refresh_from_db()
    assert challenge.status == "expired"
    assert not Game.objects.exists()


def test_accept_refuses_a_cancelled_challenge(alice, bob):
    challenge = ChallengeFactory(created_by=alice, status="cancelled")
    response = act(bob, challenge.pk, "accept")
    assert response.status_code == 409
    assert response.data["code"] == "not_open"


def test_accept_of_an_unknown_challenge_is_404(bob):
    response = act(bob, 999999, "accept")
    assert response.status_code == 404
    assert response.data["code"] == "unknown_challenge"


# --- restrictions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("restriction", "bound", "rating", "allowed"),
    [
        ("rating_above", 1700, (1700.0, 30), True),
        ("rating_above", 1700, (1699.0, 30), False),
        ("rating_above", 1700, None, False),
        ("rating_below", 1700, (1650.0, 30), True),
        ("rating_below", 1700, (1750.0, 30), False),
        ("rating_similar", 1700, (1800.0, 30), True),
        ("rating_similar", 1700, (1601.0, 30), True),
        ("rating_similar", 1700, (1801.0, 30), False),
        ("rating_similar", 1700, (1599.0, 30), False),
        ("beginners", None, None, True),
        ("beginners", None, (1900.0, 19), True),
        ("beginners", None, (1500.0, 20), False),
    ],
)
def test_accept_applies_rating_restrictions(
    alice, bob, ratings, restriction, bound, rating, allowed
):
    ratings["alice"] = (1700.0, 50)
    ratings["bob"] = rating
    body = {"restriction": restriction}
    if bound is not None:
        body["restriction_rating"] = bound
    challenge = create(alice, **body).data
    response = act(bob, challenge["id"], "accept")
    if allowed:
        assert response.status_code == 200, response.data
    else:
        assert response.status_code == 403
        assert response.data["code"] == "restriction_not_met"
        assert response.data["restriction"] == restriction
        assert Challenge.objects.get(pk=challenge["id"]).status == "open"


def test_accept_not_playing_me_refuses_a_current_opponent(alice, bob):
    GameFactory(players=[alice, bob])
    challenge = create(alice, restriction="not_playing_me").data
    refused = act(bob, challenge["id"], "accept")
    assert refused.status_code == 403
    assert refused.data["code"] == "restriction_not_met"
    assert act(UserFactory(), challenge["id"], "accept").status_code == 200


def test_accept_not_playing_me_allows_a_past_opponent(alice, bob):
    GameFactory(players=[alice, bob], status=Game.Status.FINISHED)
    challenge = create(alice, restriction="not_playing_me").data
    assert act(bob, challenge["id"], "accept").status_code == 200


def test_rating_restrictions_work_without_a_ratings_lookup(alice, bob, monkeypatch):
    monkeypatch.setattr(challenge_services, "player_rating", lambda **kw: (1600.0, 0))
    monkeypatch.setattr(challenge_selectors, "player_rating", lambda **kw: (1600.0, 0))
    challenge = create(alice, restriction="rating_above", restriction_rating=1601).data
    assert act(bob, challenge["id"], "accept").data["code"] == "restriction_not_met"


# --- decline / cancel ---------------------------------------------------------------------


def test_invitee_declines(alice, bob):
    challenge = create(alice, invitee="bob").data
    response = act(bob, challenge["id"], "decline")
    assert response.status_code == 200
    assert response.data["status"] == "declined"
    assert act(bob, challenge["id"], "accept").data["code"] == "not_open"


def test_decline_refuses_anyone_but_the_invitee(alice, bob):
    challenge = create(alice, invitee="bob").data
    for user in (alice, UserFactory()):
        response = act(user, challenge["id"], "decline")
        assert response.status_code == 403
        assert response.data["code"] == "not_invitee"


def test_decline_refuses_an_open_challenge(alice, bob):
    challenge = create(alice).data
    assert act(bob, challenge["id"], "decline").data["code"] == "not_invitee"


def test_creator_cancels(alice, bob):
    challenge = create(alice, invitee="bob").data
    response = act(alice, challenge["id"], "cancel")
    assert response.status_code == 200
    assert response.data["status"] == "cancelled"


def test_cancel_refuses_anyone_but_the_creator(alice, bob):
    challenge = create(alice, invitee="bob").data
    response = act(bob, challenge["id"], "cancel")
    assert response.status_code == 403
    assert response.data["code"] == "not_creator"


def test_cancel_refuses_an_accepted_challenge(alice, bob):
    challenge = create(alice).data
    act(bob, challenge["id"], "accept")
    response = act(alice, challenge["id"], "cancel")
    assert response.status_code == 409
    assert response.data["code"] == "already_accepted"


def test_cancel_of_an_expired_challenge_says_expired(alice):
    challenge = ChallengeFactory(created_by=alice, expires_at=timezone.now() - timedelta(hours=1))
    response = act(alice, challenge.pk, "cancel")
    assert response.data["code"] == "expired"


# --- multi-player and partners ------------------------------------------------------------


def test_multiplayer_challenge_gathers_seats_and_starts_when_full(alice, bob):
    carol = UserFactory(username="carol")
    challenge = create(alice, seats=3).data
    assert challenge["players"] == ["alice"]
    joined = act(bob, challenge["id"], "join")
    assert joined.status_code == 200
    assert joined.data["players"] == ["alice", "bob"]
    assert joined.data["status"] == "open"
    full = act(carol, challenge["id"], "join")
    assert full.data["status"] == "accepted"
    game = Game.objects.get(pk=full.data["game"])
    assert game.seats == 3
    assert seat_users(game) == ["alice", "bob", "carol"]


def test_partners_challenge_seats_in_join_order(alice, bob):
    carol, dave = UserFactory(username="carol"), UserFactory(username="dave")
    challenge = create(alice, partners=True).data
    assert challenge["seats"] == 4
    for user in (carol, bob, dave):
        response = act(user, challenge["id"], "join")
    game = Game.objects.get(pk=response.data["game"])
    assert game.partners is True
    assert seat_users(game) == ["alice", "carol", "bob", "dave"]


def test_accept_on_a_multiplayer_challenge_joins_it(alice, bob):
    challenge = create(alice, seats=4).data
    response = act(bob, challenge["id"], "accept")
    assert response.status_code == 200
    assert response.data["players"] == ["alice", "bob"]


def test_join_refuses_joining_twice(alice, bob):
    challenge = create(alice, seats=3).data
    act(bob, challenge["id"], "join")
    for user in (alice, bob):
        response = act(user, challenge["id"], "join")
        assert response.status_code == 409
        assert response.data["code"] == "already_joined"


def test_join_refuses_a_full_challenge(alice, bob):
    challenge = create(alice, seats=3).data
    act(bob, challenge["id"], "join")
    act(UserFactory(), challenge["id"], "join")
    response = act(UserFactory(), challenge["id"], "join")
    assert response.status_code == 409
    assert response.data["code"] == "already_accepted"


def test_join_applies_restrictions(alice, bob, ratings):
    ratings["bob"] = (1500.0, 100)
    challenge = create(alice, seats=3, restriction="beginners").data
    assert act(bob, challenge["id"], "join").data["code"] == "restriction_not_met"


def test_leave_gives_the_seat_back(alice, bob):
    challenge = create(alice, seats=3).data
    act(bob, challenge["id"], "join")
    response = act(bob, challenge["id"], "leave")
    assert response.status_code == 200
    assert response.data["players"] == ["alice"]


def test_leave_refuses_someone_who_has_not_joined(alice, bob):
    challenge = create(alice, seats=3).data
    response = act(bob, challenge["id"], "leave")
    assert response.status_code == 409
    assert response.data["code"] == "not_joined"


def test_leave_refuses_the_creator(alice):
    challenge = create(alice, seats=3).data
    assert act(alice, challenge["id"], "leave").data["code"] == "creator_cannot_leave"


# --- lists and detail ---------------------------------------------------------------------


def test_incoming_lists_open_direct_challenges_to_me(alice, bob):
    mine = create(alice, invitee="bob").data
    create(alice)  # open: not incoming
    create(UserFactory(), invitee="alice")
    declined = create(alice, invitee="bob").data
    act(bob, declined["id"], "decline")
    ChallengeFactory(
        created_by=alice,
        kind="direct",
        invitee=bob,
        expires_at=timezone.now() - timedelta(minutes=1),
    )
    response = client_for(bob).get("/api/challenges/incoming/")
    assert response.status_code == 200
    assert [c["id"] for c in response.data["results"]] == [mine["id"]]


def test_outgoing_lists_challenges_i_made_or_joined(alice, bob):
    direct = create(alice, invitee="bob").data
    multi = create(bob, seats=3).data
    act(alice, multi["id"], "join")
    cancelled = create(alice).data
    act(alice, cancelled["id"], "cancel")
    create(bob)
    response = client_for(alice).get("/api/challenges/outgoing/")
    assert {c["id"] for c in response.data["results"]} == {direct["id"], multi["id"]}


def test_open_list_shows_what_i_can_accept_filtered_by_variant(alice, bob, ratings):
    ratings["alice"] = (1500.0, 50)
    pente = create(bob).data
    keryo = create(bob, variant="Keryo-Pente").data
    create(bob, invitee="alice")  # direct: not in the open list
    create(bob, restriction="rating_above", restriction_rating=1800)  # alice can't
    create(alice)  # her own
    joined = create(bob, seats=3).data
    act(alice, joined["id"], "join")
    client = client_for(alice)
    everything = client.get("/api/challenges/open/")
    assert {c["id"] for c in everything.data["results"]} == {pente["id"], keryo["id"]}
    assert everything.data["count"] == 2
    only_keryo = client.get("/api/challenges/", {"variant": "keryo-pente"})
    assert [c["id"] for c in only_keryo.data["results"]] == [keryo["id"]]
    assert client.get("/api/challenges/open/", {"variant": "Chess"}).data["results"] == []


def test_lists_are_paginated(alice, bob):
    for _ in range(3):
        create(bob)
    response = client_for(alice).get("/api/challenges/open/", {"page_size": 2})
    assert response.data["count"] == 3
    assert len(response.data["results"]) == 2
    assert response.data["next"]


def test_detail_shows_an_open_challenge_to_anyone_but_a_direct_one_only_to_its_players(alice, bob):
    open_one = create(alice).data
    direct = create(alice, invitee="bob").data
    stranger = client_for(UserFactory())
    assert stranger.get(f"/api/challenges/{open_one['id']}/").status_code == 200
    hidden = stranger.get(f"/api/challenges/{direct['id']}/")
    assert hidden.status_code == 404
    assert hidden.data["code"] == "unknown_challenge"
    assert client_for(bob).get(f"/api/challenges/{direct['id']}/").data["invitee"] == "bob"
    assert ChallengeEntry.objects.count() == 0


@pytest.mark.urls("pente_site.urls")
def test_site_routes_serve_challenges_and_the_player_page(alice, bob):
    made = client_for(alice).post("/api/challenges/", {"variant": "Pente", "invitee": "bob"})
    assert made.status_code == 201
    accepted = client_for(bob).post(f"/api/challenges/{made.data['id']}/accept")
    assert accepted.status_code == 200
    page = APIClient().get("/api/players/alice/")
    assert page.status_code == 200
    assert page.data["games"]["in_progress"] == 1


def test_a_rated_challenge_cannot_turn_the_tournament_rule_off(alice):
    refused = create(alice, rated=True, tournament_rule=False)
    assert refused.status_code == 400 and refused.data["code"] == "rated_options"
    assert create(alice, rated=True).status_code == 201
    assert create(alice, rated=False, tournament_rule=False).status_code == 201
    # games without the rule may say so
    assert create(alice, variant="Gomoku", rated=True, tournament_rule=False).status_code == 201


@pytest.mark.urls("pente_site.urls")
def test_a_rated_go_challenge_is_a_set_of_one_game_played_and_rated_on_its_own_board(alice, bob):
    challenge = create(
        alice, variant="go-9", rated=True, seat_wanted=1, time_control="live", initial_minutes=5
    )
    assert challenge.status_code == 201, challenge.data
    response = act(bob, challenge.data["id"], "accept")
    assert response.status_code == 200, response.data
    game_set = GameSet.objects.get(pk=response.data["game_set"])
    assert (game_set.variant, game_set.games_count, game_set.rated) == ("Go (9x9)", 1, True)
    game = game_set.games.get()
    assert seat_users(game) == ["alice", "bob"] and game.ply == 0
    url = f"/api/games/{game.pk}"
    client_for(alice).post(f"{url}/moves", {"ply": 0, "point": "PASS"}, format="json")
    client_for(bob).post(f"{url}/moves", {"ply": 1, "point": "PASS"}, format="json")
    client_for(alice).post(f"{url}/dead", {"ply": 2, "points": []}, format="json")
    done = client_for(bob).post(f"{url}/decision", {"ply": 3, "choice": "accept"}, format="json")
    assert done.json()["end_reason"] == "score" and done.json()["winner_seats"] == [2]
    game_set.refresh_from_db()
    assert (game_set.status, game_set.winner.username) == ("finished", "bob")
    ratings = client_for(bob).get("/api/players/bob/ratings/").json()["results"]
    assert [(r["game"], r["category"], r["wins"]) for r in ratings] == [("Go (9x9)", "speed", 1)]
    assert ratings[0]["rating"] > 1600  # a K = 32 single-game set: +16 for beating an equal


def test_go_refuses_the_options_it_does_not_have(alice):
    response = create(alice, variant="Go", adjacent_only=True)
    assert response.status_code == 400


# --- ignores: a player ignored can neither challenge nor take up challenges -----------------


def test_an_ignored_player_cannot_challenge_the_player_who_ignores_them(alice, bob):
    ignore_add(user=alice, username="bob")
    response = create(bob, invitee="alice")
    assert response.status_code == 403
    assert response.json() == {
        "code": "not_accepting",
        "detail": "alice does not take challenges from you.",
    }
    assert not Challenge.objects.filter(created_by=bob).exists()


def test_ignoring_works_one_way_the_player_who_ignores_may_still_challenge(alice, bob):
    ignore_add(user=alice, username="bob")
    assert create(alice, invitee="bob").status_code == 201


def test_an_ignored_player_cannot_take_up_an_open_challenge_of_the_player_ignoring(alice, bob):
    challenge = create(alice).json()
    ignore_add(user=alice, username="bob")
    response = act(bob, challenge["id"], "accept")
    assert (response.status_code, response.json()["code"]) == (403, "not_accepting")
    assert Challenge.objects.get(pk=challenge["id"]).status == "open"
    assert act(UserFactory(), challenge["id"], "accept").status_code == 200


def test_an_ignored_player_cannot_join_a_table_of_the_player_ignoring(alice, bob):
    table = create(alice, seats=3).json()
    ignore_add(user=alice, username="bob")
    response = act(bob, table["id"], "join")
    assert (response.status_code, response.json()["code"]) == (403, "not_accepting")


def test_open_challenges_of_players_on_either_side_of_an_ignore_are_not_listed(alice, bob):
    """The ignored player does not see the challenges they may not take; the player ignoring
    does not see the ignored player's."""
    mine = create(alice).json()["id"]
    theirs = create(bob).json()["id"]
    other = create(UserFactory()).json()["id"]

    def listed(user) -> set[int]:
        return {c["id"] for c in client_for(user).get("/api/challenges/open/").json()["results"]}

    assert listed(bob) == {mine, other} and listed(alice) == {theirs, other}
    ignore_add(user=alice, username="bob")
    assert listed(bob) == {other}
    assert listed(alice) == {other}


def test_ignoring_closes_the_direct_challenges_between_the_two(alice, bob):
    theirs = create(bob, invitee="alice").json()["id"]
    mine = create(alice, invitee="bob").json()["id"]
    elsewhere = create(bob, invitee=UserFactory().username).json()["id"]
    ignore_add(user=alice, username="bob")
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {theirs: "declined", mine: "cancelled", elsewhere: "open"}


def test_a_player_ignored_by_the_creator_may_accept_a_challenge_made_to_them_by_name(alice, bob):
    """The creator chose to invite them: ignoring keeps strangers' hands off open challenges."""
    ignore_add(user=alice, username="bob")
    made = create(alice, invitee="bob").json()
    assert act(bob, made["id"], "accept").status_code == 200


@pytest.mark.parametrize("restriction", ["rating_above", "beginners", "not_playing_me"])
def test_a_direct_challenge_takes_no_restriction(alice, bob, restriction):
    response = create(alice, invitee="bob", restriction=restriction)
    assert response.status_code == 400 and response.json()["code"] == "bad_restriction"
    assert "open challenge" in response.json()["detail"]
