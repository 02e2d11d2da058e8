"""TRF import (POST tournaments/import-trf): an event run elsewhere, stored as an imported Swiss,
exported again unchanged, and continued here (next-round, match results)."""

from __future__ import annotations

import random

import pytest

from ratings.models import Crown
from tests.factories import UserFactory
from tests.tournaments.support import (
    client_for,
    finish_match_games,
    imported_after_round_1,
    jobs_run,
    make_tournament,
    play_all_rounds,
)
from tournaments import selectors, services
from tournaments.models import Entry, Match, PlannedBye, Tournament
from tournaments.pairing import trf
from tournaments.progress import match_set_finished, swiss_history
from tournaments.trf_import import tournament_import_trf

pytestmark = pytest.mark.django_db


def import_text(text: str, **extra):
    organiser = UserFactory()
    return organiser, tournament_import_trf(organiser=organiser, text=text, **extra)


def played_event(players: int = 10, rounds: int = 5, *, seed: int = 3) -> Tournament:
    """A Swiss played to the end here, with forfeits (a withdrawal), draws and byes."""
    t = make_tournament(players=players, rounds=rounds, initial_colour="black")
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        t.refresh_from_db()
        if number == 3:
            quitter = Match.objects.filter(tournament=t, round__number=3).first().player1
            services.tournament_withdraw(tournament_id=t.pk, user=quitter)
        for m in Match.objects.filter(tournament=t, status="in_progress"):
            finish_match_games(m, rng.choice(["player1", "player2", "draw"]))
        services.sweep()
    t.refresh_from_db()
    assert t.status == "finished"
    return t


def test_a_finished_event_round_trips_through_the_import_byte_for_byte():
    original = played_event()
    text = selectors.trf_text(original)
    assert any(" + " in line or " - " in line for line in text.splitlines())  # forfeits
    assert any(line.rstrip().endswith("U") or " U " in line for line in text.splitlines())
    _, imported = import_text(text)
    assert imported.imported and imported.status == "finished" and not imported.rated
    assert imported.initial_colour == "black" and imported.rounds == 5
    assert selectors.trf_text(imported) == text
    standings = [(r["username"], r["points"]) for r in selectors.standings(imported)]
    assert standings == [(r["username"], r["points"]) for r in selectors.standings(original)]


def test_an_imported_event_gets_no_crown_and_its_players_cannot_sign_in():
    _, imported = import_text(selectors.trf_text(played_event(players=4, rounds=2)))
    assert imported.winner_id is not None
    assert not Crown.objects.filter(tournament_id=imported.pk).exists()
    assert selectors.crowns_of(user=imported.winner) == []
    entries = Entry.objects.filter(tournament=imported).select_related("user")
    assert all(not e.user.is_active and not e.user.has_usable_password() for e in entries)
    assert all(e.name and e.name != e.user.username for e in entries)
    assert client_for().get(f"/api/players/{entries[0].user.username}/").status_code == 404


@pytest.mark.parametrize("after", [1, 2, 3, 4])
def test_the_history_before_a_round_imported_pairs_that_round_as_it_was_paired(after):
    """The checker's use: the report before round N (withdrawn players marked absent) is
    imported, and the next round paired here is the round the original event paired."""
    original = played_event()
    _, imported = import_text(selectors.trf_text(original, after_round=after))
    assert imported.status == "running" and imported.current_round == after
    organiser = imported.organiser
    with jobs_run():
        services.tournament_next_round(tournament_id=imported.pk, user=organiser)
    rank = {e.user_id: e.seed for e in Entry.objects.filter(tournament=original)}
    rank_here = {e.user_id: e.seed for e in Entry.objects.filter(tournament=imported)}

    def pairing(t, ranks):
        """The games (white, black) and the PAB of the round, by starting rank."""
        rows = Match.objects.filter(tournament=t, round__number=after + 1)
        return sorted(
            (ranks[m.player1_id], ranks.get(m.player2_id))
            for m in rows
            if m.player2_id is not None or m.result == "bye"
        )

    assert pairing(imported, rank_here) == pairing(original, rank)


def test_absent_players_of_the_next_round_are_planned_byes_left_out_of_its_pairing():
    t = make_tournament(players=6, rounds=3)
    for m in Match.objects.filter(tournament=t, status="in_progress"):
        finish_match_games(m, "player1")
        match_set_finished(game_set_id=m.match_sets.get().game_set_id)
    quitter = Entry.objects.filter(tournament=t).order_by("seed").last().user
    services.tournament_withdraw(tournament_id=t.pk, user=quitter)  # before round 2 is paired
    text = selectors.trf_text(t)
    _, imported = import_text(text)
    planned = PlannedBye.objects.get(tournament=imported)
    assert (planned.round_number, planned.result) == (2, "zero_point_bye")
    assert selectors.trf_text(imported) == text  # the planned block is exported again
    with jobs_run():
        services.tournament_next_round(tournament_id=imported.pk, user=imported.organiser)
    round2 = Match.objects.filter(tournament=imported, round__number=2)
    left_out = round2.get(player1=planned.user)
    assert left_out.result == "zero_point_bye" and left_out.player2_id is None
    assert round2.filter(player2__isnull=False).count() == 2  # 5 players: 2 pairs and a PAB
    assert round2.filter(result="bye").count() == 1


def test_an_imported_event_is_continued_here_to_its_end():
    imported, api, base = imported_after_round_1(players=7, rounds=3)
    for number in (2, 3):
        with jobs_run():
            response = api.post(f"{base}/next-round/")
        assert response.status_code == 202, response.data
        assert response.data["pairing_pending"] and response.data["current_round"] == number - 1
        assert client_for().get(base + "/").json()["current_round"] == number
        again = api.post(f"{base}/next-round/")
        assert again.status_code == 409 and again.json()["code"] == "round_in_progress"
        for m in Match.objects.filter(tournament=imported, status="in_progress"):
            answer = api.post(f"{base}/matches/{m.pk}/result/", {"result": "player2"}, "json")
            assert answer.status_code == 200, answer.data
            assert answer.data["result"] == "player2" and answer.data["sets"] == []
    with jobs_run():
        done = api.post(f"{base}/next-round/")
    assert done.status_code == 202 and done.data["status"] == "running"
    assert client_for().get(base + "/").json()["status"] == "finished"
    assert client_for().get(f"{base}/standings/").json()["final"] is True


def test_results_are_entered_by_the_organiser_of_an_imported_event_only_once():
    imported, api, base = imported_after_round_1(players=4, rounds=2)
    with jobs_run():
        api.post(f"{base}/next-round/")
    m = Match.objects.filter(tournament=imported, status="in_progress").first()
    url = f"{base}/matches/{m.pk}/result/"
    stranger = client_for(UserFactory()).post(url, {"result": "draw"}, "json")
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_organiser"
    bad = api.post(url, {"result": "draw", "forfeit": True}, "json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_result"
    won = api.post(url, {"result": "player1", "forfeit": True}, "json")
    assert won.status_code == 200 and won.data["forfeit"] is True
    twice = api.post(url, {"result": "draw"}, "json")
    assert twice.status_code == 409 and twice.json()["code"] == "match_over"
    missing = api.post(f"{base}/matches/999999/result/", {"result": "draw"}, "json")
    assert missing.status_code == 404


def test_a_tournament_played_here_takes_no_results_by_hand_nor_next_round():
    t = make_tournament(players=4, rounds=2)
    api = client_for(t.organiser)
    m = Match.objects.filter(tournament=t).first()
    answer = api.post(f"/api/tournaments/{t.pk}/matches/{m.pk}/result/", {"result": "draw"}, "json")
    assert answer.status_code == 409 and answer.json()["code"] == "not_imported"
    assert api.post(f"/api/tournaments/{t.pk}/next-round/").json()["code"] == "not_imported"


def test_the_sweeper_never_pairs_an_imported_event_by_itself():
    original = make_tournament(players=4, rounds=3)
    play_all_rounds(original, upto=1)
    _, imported = import_text(selectors.trf_text(original, after_round=1))
    services.sweep()
    imported.refresh_from_db()
    assert imported.current_round == 1
    assert not Match.objects.filter(tournament=imported, round__number=2).exists()


def test_the_import_endpoint_creates_the_event_and_links_accounts():
    original = played_event(players=4, rounds=2)
    text = selectors.trf_text(original)
    alice = UserFactory(username="alice")
    api = client_for(alice)  # the organiser links their own account
    response = api.post(
        "/api/tournaments/import-trf/",
        {"trf": text, "variant": "Keryo-Pente", "accounts": {"2": "ALICE"}},
        format="json",
    )
    assert response.status_code == 201, response.data
    data = response.data
    assert data["imported"] is True and data["variant"] == "Keryo-Pente"
    assert data["status"] == "finished" and data["format"] == "swiss"
    entry = Entry.objects.get(tournament_id=data["id"], seed=2)
    assert entry.user == alice
    listed = api.get(f"/api/tournaments/{data['id']}/entries/").data["results"]
    names = {e["seed"]: e["user"]["username"] for e in listed}
    assert names == {p.start_rank: p.name for p in trf.load(text).players}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"trf": "001 garbage"}, "bad_trf"),
        ({"trf": "012 Nobody\nXXR 1\n"}, "bad_trf"),
        ({"trf": "VALID", "variant": "Chess"}, "unknown_game"),
        ({"trf": "VALID", "accounts": {"1": "nobody-here"}}, "unknown_player"),
        ({"trf": "VALID", "accounts": {"9": "nobody-here"}}, "bad_trf"),
        ({"trf": "VALID", "accounts": {"one": "x"}}, "bad_trf"),
    ],
)
def test_the_import_refuses_what_it_cannot_take_with_a_code(body, code):
    if body["trf"] == "VALID":
        body["trf"] = selectors.trf_text(played_event(players=4, rounds=2))
    response = client_for(UserFactory()).post("/api/tournaments/import-trf/", body, "json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert not Tournament.objects.filter(imported=True).exists()


def test_the_import_takes_at_most_its_player_limit(monkeypatch):
    from tournaments import trf_import

    monkeypatch.setattr(trf_import, "MAX_IMPORT_PLAYERS", 3)
    text = selectors.trf_text(played_event(players=4, rounds=2))
    response = client_for(UserFactory()).post("/api/tournaments/import-trf/", {"trf": text}, "json")
    assert response.status_code == 400 and response.json()["code"] == "too_many_players"


def test_an_imported_history_gives_the_engine_the_same_cards_as_the_original():
    original = played_event()
    _, imported = import_text(selectors.trf_text(original, after_round=4))
    rank = {e.user_id: e.seed for e in Entry.objects.filter(tournament=original)}
    rank_here = {e.user_id: e.seed for e in Entry.objects.filter(tournament=imported)}

    def by_rank(t, ranks):
        out = []
        for record in swiss_history(t, upto=4):
            pairs = sorted(
                (ranks[p.white], ranks[p.black], p.white_points2, p.played) for p in record.pairs
            )
            byes = sorted((ranks[p], points) for p, points in record.byes)
            out.append((pairs, byes, ranks.get(record.pab)))
        return out

    assert by_rank(imported, rank_here) == by_rank(original, rank)


def test_the_import_links_no_other_players_account_but_the_staff_may():
    text = selectors.trf_text(played_event(players=4, rounds=2))
    bob = UserFactory(username="bob")
    body = {"trf": text, "accounts": {"1": "bob"}}
    refused = client_for(UserFactory()).post("/api/tournaments/import-trf/", body, "json")
    assert refused.status_code == 403 and refused.json()["code"] == "link_forbidden"
    assert not Entry.objects.filter(user=bob, tournament__imported=True).exists()
    staff = client_for(UserFactory(is_staff=True))
    assert staff.post("/api/tournaments/import-trf/", body, "json").status_code == 201
