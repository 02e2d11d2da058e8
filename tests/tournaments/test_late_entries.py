"""Late entries in a Swiss: joined while it runs, earlier rounds unplayed with the organiser's
points, paired from the next round on, exported to TRF as FIDE reports them."""

from __future__ import annotations

import pytest

from pente_site.errors import Conflict, Invalid
from tests.factories import UserFactory
from tests.tournaments.support import client_for, jobs_run, make_tournament, play_round
from tournaments import selectors, services
from tournaments.models import Entry, Match, PlannedBye
from tournaments.pairing import trf
from tournaments.pairing.dutch import players_from_history
from tournaments.progress import swiss_history
from tournaments.trf_import import tournament_import_trf

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("points", "result"),
    [(0, "zero_point_bye"), (0.5, "half_point_bye"), (1, "full_point_bye")],
)
def test_a_late_entry_gets_an_unplayed_round_with_the_organisers_points_for_each_round_paired(
    points, result
):
    t = make_tournament(players=6, rounds=4, late_entries=True, late_entry_points=points)
    play_round(t)  # round 1 played, round 2 paired
    late = UserFactory()
    entry = services.tournament_join(tournament_id=t.pk, user=late)
    assert entry.seed == 7 and entry.rating is not None
    missed = Match.objects.filter(tournament=t, player1=late).order_by("round__number")
    assert [(m.round.number, m.result, m.player2_id) for m in missed] == [
        (1, result, None),
        (2, result, None),
    ]
    assert all(m.status == "finished" for m in missed)
    row = next(r for r in selectors.compute_standings(t) if r["user_id"] == late.pk)
    assert row["points"] == 2 * points and row["played"] == 0


def test_a_late_entry_is_paired_from_the_next_round_on():
    t = make_tournament(players=6, rounds=4, late_entries=True, late_entry_points=0.5)
    play_round(t)
    late = UserFactory()
    services.tournament_join(tournament_id=t.pk, user=late)
    play_round(t)  # round 2 played (without the late entry), round 3 paired
    assert t.current_round == 3
    round3 = Match.objects.filter(tournament=t, round__number=3)
    mine = round3.filter(player1=late) | round3.filter(player2=late)
    assert mine.count() == 1
    assert round3.filter(player2__isnull=True).count() == 1  # 7 players: a PAB


@pytest.mark.slow
def test_a_full_point_late_entry_may_not_get_the_pab_and_a_half_point_one_may():
    """C2: a win's points without playing rule out a PAB; a draw's do not."""
    for points, barred in ((1, True), (0.5, False), (0, False)):
        t = make_tournament(players=6, rounds=3, late_entries=True, late_entry_points=points)
        play_round(t)
        late = UserFactory()
        services.tournament_join(tournament_id=t.pk, user=late)
        entrants = list(Entry.objects.filter(tournament=t).values_list("user_id", "seed"))
        cards = {c.id: c for c in players_from_history(entrants, swiss_history(t))}
        assert cards[late.pk].had_bye is barred
        assert cards[late.pk].colours == (None, None) and cards[late.pk].opponents == frozenset()


def test_late_entries_close_once_the_last_round_is_paired():
    t = make_tournament(players=4, rounds=2, late_entries=True)
    play_round(t)
    assert t.current_round == 2
    with pytest.raises(Conflict) as refused:
        services.tournament_join(tournament_id=t.pk, user=UserFactory())
    assert refused.value.code == "registration_closed"


def test_a_running_swiss_without_late_entries_takes_no_one():
    t = make_tournament(players=4, rounds=3)
    with pytest.raises(Conflict) as refused:
        services.tournament_join(tournament_id=t.pk, user=UserFactory())
    assert refused.value.code == "registration_closed"


def test_a_player_who_withdrew_while_it_ran_cannot_come_back_late():
    t = make_tournament(players=6, rounds=4, late_entries=True)
    quitter = Entry.objects.filter(tournament=t).first().user
    services.tournament_withdraw(tournament_id=t.pk, user=quitter)
    with pytest.raises(Conflict) as refused:
        services.tournament_join(tournament_id=t.pk, user=quitter)
    assert refused.value.code == "withdrawn"


@pytest.mark.parametrize(
    "options",
    [
        {"format": "round_robin", "late_entries": True},
        {"format": "single_elimination", "late_entries": True},
        {"late_entry_points": 2},
    ],
)
def test_late_entry_options_are_checked(options):
    with pytest.raises(Invalid) as refused:
        make_tournament(players=0, start=False, **options)
    assert refused.value.code == "bad_options"


def test_the_trf_reports_a_late_entry_s_missed_rounds_and_the_import_leaves_it_out_again():
    t = make_tournament(players=6, rounds=4, late_entries=True, late_entry_points=0.5)
    play_round(t)
    late = UserFactory()
    services.tournament_join(tournament_id=t.pk, user=late)
    # The history before round 2: round 1 with the late entry's half-point bye, and round 2
    # (already paired without it) filled in for it, so that an outside engine leaves it out.
    text = selectors.trf_text(t, after_round=1)
    line = next(ln for ln in text.splitlines() if ln.startswith("001    7"))
    assert line[91:99] == "0000 - H" and line[101:109] == "0000 - H"
    doc = tournament_import_trf(organiser=UserFactory(), text=text)
    planned = PlannedBye.objects.get(tournament=doc)
    assert (planned.round_number, planned.result) == (2, "half_point_bye")
    with jobs_run():
        services.tournament_next_round(tournament_id=doc.pk, user=doc.organiser)
    seats = {e.user_id: e.seed for e in Entry.objects.filter(tournament=doc)}
    seats_here = {e.user_id: e.seed for e in Entry.objects.filter(tournament=t)}

    def round2(tournament, ranks):
        rows = Match.objects.filter(tournament=tournament, round__number=2)
        return sorted((ranks[m.player1_id], ranks.get(m.player2_id), m.result) for m in rows)

    here = [(a, b, r if b is None else "") for a, b, r in round2(t, seats_here)]
    assert round2(doc, seats) == here
    assert trf.load(selectors.trf_text(doc)).players[6].games[1] == trf.TrfGame(None, "-", "H")


def test_the_api_creates_a_swiss_with_late_entries_and_lets_a_player_join_while_it_runs():
    t = make_tournament(players=4, rounds=3, late_entries=True, late_entry_points=1)
    client = client_for(UserFactory())
    joined = client.post(f"/api/tournaments/{t.pk}/join/")
    assert joined.status_code == 201, joined.content
    assert joined.data["late_entries"] is True and joined.data["late_entry_points"] == 1.0
    assert joined.data["players"] == 5
    organiser = client_for(UserFactory())
    body = {
        "name": "Open with late entries",
        "format": "swiss",
        "start_at": "2099-01-01T00:00:00Z",
        "late_entries": True,
        "late_entry_points": 0.5,
    }
    created = organiser.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.data["late_entry_points"] == 0.5 and created.data["imported"] is False
