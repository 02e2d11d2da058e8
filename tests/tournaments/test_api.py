"""The tournaments API: create, join, withdraw, start, rounds, standings, bracket, SVG, TRF."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.play.models import Game
from tests.factories import UserFactory
from tests.tournaments.support import (
    client_for,
    create_body,
    finish_match_games,
    jobs_run,
    make_tournament,
    play_all,
)
from tournaments import selectors, services
from tournaments.models import Match, Round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_create_join_start_and_read_rounds_and_standings():
    organiser = UserFactory()
    api = client_for(organiser)
    response = api.post("/api/tournaments/", create_body(), format="json")
    assert response.status_code == 201, response.data
    tid = response.data["id"]
    assert response.data["organiser"]["id"] == organiser.pk
    assert response.data["games_per_match"] == 2  # Pente: a set of two games
    players = [UserFactory() for _ in range(5)]
    for p in players:
        assert client_for(p).post(f"/api/tournaments/{tid}/join/").status_code == 201
    listed = client_for().get("/api/tournaments/?status=registration").data
    assert [row["players"] for row in listed["results"] if row["id"] == tid] == [5]
    assert (
        client_for(players[0]).post(f"/api/tournaments/{tid}/start/").data["code"]
        == "not_organiser"
    )
    with jobs_run():  # the start's job runs once the request has answered
        started = api.post(f"/api/tournaments/{tid}/start")
    assert started.status_code == 202 and started.data["pairing_pending"] is True
    assert started.data["status"] == "registration"  # the answer comes before the job
    now = client_for().get(f"/api/tournaments/{tid}/").data
    assert now["status"] == "running" and now["pairing_pending"] is False
    page = client_for().get(f"/api/tournaments/{tid}/rounds/").data
    assert (page["count"], page["next"], page["previous"]) == (1, None, None)
    rounds = page["results"]
    assert len(rounds) == 1 and len(rounds[0]["matches"]) == 3  # two pairs and a bye
    bye = [m for m in rounds[0]["matches"] if m["player2"] is None]
    assert len(bye) == 1 and bye[0]["result"] == "bye"
    paired = [m for m in rounds[0]["matches"] if m["player2"]]
    assert all(len(m["sets"][0]["games"]) == 2 for m in paired)
    standings = client_for().get(f"/api/tournaments/{tid}/standings/").data
    assert standings["final"] is False and standings["count"] == 5
    assert len(standings["results"]) == 5 and "standings" not in standings
    me = players[0]
    mine = client_for().get(f"/api/tournaments/{tid}/players/{me.pk}/matches/").data
    assert mine["count"] == 1
    mine = mine["results"]
    assert len(mine) == 1
    assert me.pk in (mine[0]["player1"]["id"], (mine[0]["player2"] or {}).get("id"))


def test_starting_with_too_few_players_is_a_409_and_the_tournament_stays_open():
    organiser = UserFactory()
    created = client_for(organiser).post("/api/tournaments/", create_body(), format="json")
    tid = created.data["id"]
    response = client_for(organiser).post(f"/api/tournaments/{tid}/start/")
    assert response.status_code == 409 and response.data["code"] == "too_few_players"
    assert client_for().get(f"/api/tournaments/{tid}/").data["status"] == "registration"


def test_the_organiser_cancels_before_the_start_and_nobody_can_join_or_start_it_then():
    t = make_tournament(players=2, start=False)
    organiser = client_for(t.organiser)
    response = organiser.post(f"/api/tournaments/{t.pk}/cancel/")
    assert response.status_code == 200, response.data
    assert response.data["status"] == "cancelled" and response.data["finished_at"]
    joined = client_for(UserFactory()).post(f"/api/tournaments/{t.pk}/join/")
    assert joined.status_code == 409 and joined.data["code"] == "registration_closed"
    started = organiser.post(f"/api/tournaments/{t.pk}/start/")
    assert started.status_code == 409 and started.data["code"] == "tournament_over"
    services.sweep(now=t.start_at + timedelta(minutes=1))  # its start time passes: nothing
    assert client_for().get(f"/api/tournaments/{t.pk}/").data["status"] == "cancelled"


def test_only_the_organiser_or_staff_cancels_and_only_once():
    t = make_tournament(players=2, start=False)
    stranger = client_for(UserFactory()).post(f"/api/tournaments/{t.pk}/cancel/")
    assert stranger.status_code == 403 and stranger.data["code"] == "not_organiser"
    staff = client_for(UserFactory(is_staff=True)).post(f"/api/tournaments/{t.pk}/cancel/")
    assert staff.status_code == 200
    again = client_for(t.organiser).post(f"/api/tournaments/{t.pk}/cancel/")
    assert again.status_code == 409 and again.data["code"] == "tournament_over"


def test_a_cancelled_running_tournament_pairs_no_more_rounds_and_its_games_are_played_out():
    t = make_tournament(players=4, rounds=3)
    assert client_for(t.organiser).post(f"/api/tournaments/{t.pk}/cancel/").status_code == 200
    games = Game.objects.filter(game_set__tournament_match_set__match__tournament=t)
    assert games.count() == 2 and all(g.status == "in_progress" for g in games)
    for match in Match.objects.filter(tournament=t):
        finish_match_games(match, "player1")
    services.sweep()
    t.refresh_from_db()
    assert (t.status, t.winner_id, t.current_round) == ("cancelled", None, 1)
    assert Round.objects.filter(tournament=t).count() == 1
    assert set(Match.objects.filter(tournament=t).values_list("result", flat=True)) == {"player1"}


def test_a_drawn_knockout_match_of_a_cancelled_tournament_gets_no_new_set():
    t = make_tournament(players=2, format="single_elimination")
    match = Match.objects.get(tournament=t)
    services.tournament_cancel(tournament_id=t.pk, user=t.organiser)
    finish_match_games(match, "draw")
    services.sweep()
    assert match.match_sets.count() == 1
    assert not Game.objects.filter(
        game_set__tournament_match_set__match=match, status="in_progress"
    ).exists()


def test_the_list_filters_by_format():
    make_tournament(players=0, start=False, format="swiss")
    knockout = make_tournament(players=0, start=False, format="single_elimination")
    response = client_for().get("/api/tournaments/", {"format": "single_elimination"})
    assert response.status_code == 200
    assert [t["id"] for t in response.data["results"]] == [knockout.pk]


def test_errors_have_code_and_detail():
    user = UserFactory()
    bad = client_for(user).post("/api/tournaments/", create_body(variant="Chess"), format="json")
    assert bad.status_code == 400 and bad.data["code"] == "unknown_game"
    swap2 = client_for(user).post(
        "/api/tournaments/", create_body(variant="Swap2-Pente", games_per_match=2), format="json"
    )
    assert swap2.data["code"] == "bad_options"
    anonymous = client_for().post("/api/tournaments/", create_body(), format="json")
    assert anonymous.status_code in (401, 403) and "code" in anonymous.data
    missing = client_for().get("/api/tournaments/999999/")
    assert missing.status_code == 404 and missing.data["code"] == "not_found"
    t = make_tournament(players=2)
    late = client_for(UserFactory()).post(f"/api/tournaments/{t.pk}/join/")
    assert late.status_code == 409 and late.data["code"] == "registration_closed"
    not_in = client_for(UserFactory()).post(f"/api/tournaments/{t.pk}/withdraw/")
    assert not_in.status_code == 409 and not_in.data["code"] == "not_joined"


def test_withdraw_through_the_api():
    t = make_tournament(players=0, start=False)
    user = UserFactory()
    client_for(user).post(f"/api/tournaments/{t.pk}/join/")
    response = client_for(user).post(f"/api/tournaments/{t.pk}/withdraw/")
    assert response.status_code == 200
    assert response.data["entry"]["status"] == "withdrawn"
    listed = client_for().get(f"/api/tournaments/{t.pk}/entries/").data["results"]
    assert [e["status"] for e in listed] == ["withdrawn"]


def test_the_tournament_shows_each_viewer_their_own_entry_and_nobody_else_s():
    t = make_tournament(players=0, start=False)
    player, stranger = UserFactory(), UserFactory()
    client_for(player).post(f"/api/tournaments/{t.pk}/join/")
    mine = client_for(player).get(f"/api/tournaments/{t.pk}/").data["entry"]
    assert (mine["user"]["id"], mine["status"]) == (player.pk, "active")
    assert client_for(stranger).get(f"/api/tournaments/{t.pk}/").data["entry"] is None
    assert client_for().get(f"/api/tournaments/{t.pk}/").data["entry"] is None
    assert "entries" not in client_for().get(f"/api/tournaments/{t.pk}/").data


def test_the_entries_are_a_list_of_their_own_by_seed_a_page_at_a_time():
    t = make_tournament(players=5)
    url = f"/api/tournaments/{t.pk}/entries/"
    pages = [client_for().get(url, {"page": n, "page_size": 2}).data for n in (1, 2, 3)]
    assert [page["count"] for page in pages] == [5, 5, 5] and pages[-1]["next"] is None
    assert [e["seed"] for page in pages for e in page["results"]] == [1, 2, 3, 4, 5]


@pytest.mark.slow
def test_bracket_as_data_and_as_svg():
    t = make_tournament(players=5, format="double_elimination")
    data = client_for().get(f"/api/tournaments/{t.pk}/bracket/").data
    keys = [m["key"] for m in data["matches"]]
    assert keys[:4] == ["W1-1", "W1-2", "W1-3", "W1-4"] and "GF2" in keys
    assert data["matches"][0]["from"] == ["seed 1", "seed 8"]
    assert data["matches"][0]["player2"] == "bye"
    play_all(t)
    data = client_for().get(f"/api/tournaments/{t.pk}/bracket/").data
    t.refresh_from_db()
    assert data["champion"]["id"] == t.winner_id
    svg = client_for().get(f"/api/tournaments/{t.pk}/bracket.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    body = svg.content.decode()
    assert body.startswith("<svg") and "Winners" in body and "Losers" in body
    assert data["champion"]["username"] in body


def test_swiss_has_no_bracket_but_a_trf_export():
    t = make_tournament(players=4, rounds=2)
    play_all(t)
    assert client_for().get(f"/api/tournaments/{t.pk}/bracket/").data["code"] == "no_bracket"
    response = client_for().get(f"/api/tournaments/{t.pk}/trf/")
    assert response.status_code == 200
    lines = response.content.decode().splitlines()
    assert "XXR 2" in lines and sum(1 for ln in lines if ln.startswith("001")) == 4
    final = client_for().get(f"/api/tournaments/{t.pk}/standings/").data
    assert final["final"] is True and final["results"][0]["rank"] == 1


@pytest.mark.parametrize("format", ["single_elimination", "double_elimination"])
@pytest.mark.parametrize("players", [0, 1])
def test_a_knockout_cancelled_for_too_few_players_shows_its_bracket_and_standings(players, format):
    t = make_tournament(players=players, format=format, start=False)
    services.sweep(now=t.start_at + timedelta(seconds=1))  # the scheduled start cancels it
    t.refresh_from_db()
    assert t.status == "cancelled"
    standings = client_for().get(f"/api/tournaments/{t.pk}/standings/")
    assert standings.status_code == 200, standings.content
    data = client_for().get(f"/api/tournaments/{t.pk}/bracket/")
    assert data.status_code == 200
    assert data.data["matches"] == [] and data.data["champion"] is None
    svg = client_for().get(f"/api/tournaments/{t.pk}/bracket.svg")
    assert svg.status_code == 200 and svg.content.decode().startswith("<svg")


def test_trf_export_round_by_round_for_outside_checkers():
    from tournaments.pairing import trf

    t = make_tournament(players=6, rounds=3)
    play_all(t)
    full = client_for().get(f"/api/tournaments/{t.pk}/trf/?round=3").content.decode()
    after_one = client_for().get(f"/api/tournaments/{t.pk}/trf/?round=1").content.decode()
    for text, rounds in ((after_one, 1), (full, 3)):
        doc = trf.load(text)
        for player in doc.players:
            assert len([g for g in player.games if g is not None]) <= rounds
    assert after_one != full
    bad = client_for().get(f"/api/tournaments/{t.pk}/trf/?round=9")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_round"
    assert client_for().get(f"/api/tournaments/{t.pk}/trf/?round=x").json()["code"] == "bad_round"


@pytest.mark.slow
def test_a_page_of_a_swiss_s_rounds_is_built_from_its_own_rounds_alone(monkeypatch):
    t = make_tournament(players=6, rounds=3)
    play_all(t, draws=False)
    whole = client_for().get(f"/api/tournaments/{t.pk}/rounds/").json()["results"]
    built = []
    real = selectors.rounds

    def spy(tournament, *, numbers=None):
        built.append(numbers)
        return real(tournament, numbers=numbers)

    monkeypatch.setattr(selectors, "rounds", spy)
    last = client_for().get(f"/api/tournaments/{t.pk}/rounds/?page_size=2&page=2").json()
    assert built == [[3]] and last["count"] == 3
    assert last["results"] == whole[2:]  # the same round as in the whole list


@pytest.mark.slow
def test_rounds_standings_and_player_matches_are_paginated_with_page_size():
    t = make_tournament(players=6, rounds=3)
    play_all(t, draws=False)
    rounds = client_for().get(f"/api/tournaments/{t.pk}/rounds/?page_size=2").json()
    assert rounds["count"] == 3 and [r["number"] for r in rounds["results"]] == [1, 2]
    assert rounds["previous"] is None and "page=2" in rounds["next"]
    last = client_for().get(rounds["next"]).json()
    assert [r["number"] for r in last["results"]] == [3] and last["next"] is None
    standings = client_for().get(f"/api/tournaments/{t.pk}/standings/?page_size=4").json()
    assert list(standings) == ["count", "next", "previous", "final", "results"]
    assert standings["count"] == 6 and standings["final"] is True
    assert [row["rank"] for row in standings["results"]] == sorted(
        row["rank"] for row in standings["results"]
    )
    rest = client_for().get(standings["next"]).json()
    assert len(rest["results"]) == 2 and rest["final"] is True
    player = standings["results"][0]["user_id"]
    mine = client_for().get(f"/api/tournaments/{t.pk}/players/{player}/matches/?page_size=1")
    assert mine.json()["count"] == 3 and len(mine.json()["results"]) == 1
    beyond = client_for().get(f"/api/tournaments/{t.pk}/standings/?page=9")
    assert beyond.status_code == 404 and beyond.json()["code"] == "no_such_page"


def test_untimed_tournaments_are_refused_as_bad_time_control():
    user = UserFactory()
    for control in ("none", "blitz"):
        response = client_for(user).post(
            "/api/tournaments/", create_body(time_control=control), format="json"
        )
        assert response.status_code == 400, response.data
        assert response.data["code"] == "bad_time_control"


def test_a_tournament_shows_only_the_numbers_of_its_time_control():
    user = UserFactory()
    live = client_for(user).post(
        "/api/tournaments/",
        {**create_body(time_control="live", initial_minutes=5), "days_per_move": None},
        format="json",
    )
    assert live.status_code == 201, live.data
    assert (live.data["initial_minutes"], live.data["increment_seconds"]) == (5, 0)
    assert live.data["days_per_move"] == 0
    body = create_body()
    del body["days_per_move"]
    turn = client_for(user).post("/api/tournaments/", body, format="json")
    assert turn.status_code == 201, turn.data
    assert (turn.data["days_per_move"], turn.data["initial_minutes"]) == (3, 0)
    assert turn.data["increment_seconds"] == 0


@pytest.mark.parametrize(
    "extra",
    [
        {"time_control": "live", "initial_minutes": 5, "days_per_move": 3},
        {"time_control": "turn", "initial_minutes": 5},
        {"time_control": "turn", "increment_seconds": 2},
        {"time_control": "live", "days_per_move": None},  # no initial time nor increment
        {"time_control": "turn", "days_per_move": 0},
    ],
)
def test_time_control_numbers_that_do_not_belong_are_refused(extra):
    response = client_for(UserFactory()).post(
        "/api/tournaments/", create_body(**extra), format="json"
    )
    assert response.status_code == 400, response.data
    assert response.data["code"] == "bad_time_control"


def _trf_lines(t, query: str = "") -> dict[str, str]:
    """The ``001`` lines of the tournament's TRF by player name."""
    response = client_for().get(f"/api/tournaments/{t.pk}/trf/{query}")
    assert response.status_code == 200, response.content
    lines = response.content.decode().splitlines()
    assert "192 FIDE_DUTCH_2025" in lines
    return {ln[14:47].strip(): ln for ln in lines if ln.startswith("001")}


def test_a_trf_exported_during_a_round_is_the_history_before_it_and_a_round_in_progress_is_409():
    from tests.tournaments.support import client_for, finish_match_games
    from tournaments.models import Match

    t = make_tournament(players=4, rounds=3)
    lines = _trf_lines(t)  # round 1 paired, nothing played
    assert all(len(line) == 89 for line in lines.values())  # no blank results
    response = client_for().get(f"/api/tournaments/{t.pk}/trf/?round=1")
    assert response.status_code == 409 and response.json()["code"] == "round_in_progress"
    for match in Match.objects.filter(tournament=t):
        finish_match_games(match, "player1")
    services.sweep(now=timezone.now())
    t.refresh_from_db()
    assert t.current_round == 2
    assert all(len(line) == 99 for line in _trf_lines(t).values())  # round 1 only


def test_a_player_who_withdrew_is_marked_absent_for_the_round_to_be_paired():
    from tests.tournaments.support import finish_match_games
    from tournaments.models import Entry, Match

    t = make_tournament(players=5, rounds=3)
    for match in Match.objects.filter(tournament=t):
        if match.player2_id is not None:
            finish_match_games(match, "player1")
    leaver = Entry.objects.filter(tournament=t).order_by("seed").last().user
    services.tournament_withdraw(tournament_id=t.pk, user=leaver)
    services.sweep(now=timezone.now())  # pairs round 2 without the leaver
    t.refresh_from_db()
    assert t.current_round == 2
    # The history before round 2, as an outside engine would pair round 2 from it.
    after_one = _trf_lines(t, "?round=1")
    assert after_one[leaver.username][101:109] == "0000 - Z"
    others = [line for name, line in after_one.items() if name != leaver.username]
    assert all(len(line) == 99 for line in others)


def test_the_pairing_decision_is_shown_on_the_tournament_and_taken_through_the_api(monkeypatch):
    from tests.tournaments.support import client_for, finish_match_games
    from tournaments import progress
    from tournaments.models import Match
    from tournaments.pairing.dutch import SwissRound

    real = progress.pair_round

    def relaxed_round_two(players, *, round_number, **kwargs):
        result = real(players, round_number=round_number, **kwargs)
        return SwissRound(result.pairs, result.bye, relaxed=round_number == 2)

    monkeypatch.setattr(progress, "pair_round", relaxed_round_two)
    t = make_tournament(players=4, rounds=3)
    for match in Match.objects.filter(tournament=t):
        finish_match_games(match, "player1")
    services.sweep(now=timezone.now())
    shown = client_for().get(f"/api/tournaments/{t.pk}/").json()
    assert shown["pairing_decision"]["round"] == 2
    assert shown["pairing_decision"]["code"] == "colour_criteria_unmet"
    url = f"/api/tournaments/{t.pk}/pairing-decision"
    assert client_for(UserFactory()).post(url, {"relax": True}, format="json").status_code == 403
    assert client_for(t.organiser).post(url, {}, format="json").status_code == 400
    with jobs_run():
        decided = client_for(t.organiser).post(url, {"relax": True}, format="json")
    assert decided.status_code == 202, decided.content
    assert decided.json()["pairing_decision"] is None and decided.json()["pairing_pending"]
    assert client_for().get(f"/api/tournaments/{t.pk}/").json()["current_round"] == 2
    rounds = client_for().get(f"/api/tournaments/{t.pk}/rounds/").json()["results"]
    assert [r["relaxed"] for r in rounds] == [False, True]
    again = client_for(t.organiser).post(url, {"relax": True}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "no_pairing_decision"
