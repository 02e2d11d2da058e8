"""Tournament services: registration, seeding, every format played to the end through the
sweeper, withdrawals, ties, idempotent pairing, crowns."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.play.actions import move_play
from games.play.create import set_create
from games.play.models import Game
from games.play.requests import game_cancel_request
from pente_site.errors import DomainError
from ratings.models import Crown
from tests.factories import UserFactory
from tests.ratings.factories import RatingFactory
from tests.tournaments.support import (
    finish_match_games,
    imported_after_round_1,
    jobs_run,
    make_tournament,
    play_all,
)
from tournaments import progress, selectors, services, tasks
from tournaments.models import Entry, Match, MatchSet, Round, Tournament
from tournaments.pairing import trf
from tournaments.pairing.dutch import PairingTooHard, SwissRound
from tournaments.pairing.elimination import bracket_stages

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def matches_by_player(t):
    count: Counter = Counter()
    for m in Match.objects.filter(tournament=t):
        count[m.player1_id] += 1
        if m.player2_id:
            count[m.player2_id] += 1
    return count


def seeded_ids(t):
    return list(Entry.objects.filter(tournament=t).values_list("user_id", flat=True))


# --- formats played to the end ------------------------------------------------------------


def slow(*sizes: int) -> list:
    """Field sizes whose event takes more than about 5 s to play out (``-m "not slow"``)."""
    return [pytest.param(n, marks=pytest.mark.slow) for n in sizes]


@pytest.mark.parametrize("n", [2, 3, 4, 5, *slow(8, 13, 16, 17, 33)])
def test_swiss_runs_its_rounds_without_rematch_and_one_bye_at_most(n):
    t = make_tournament(players=n, format="swiss")
    play_all(t)
    t.refresh_from_db()
    assert t.status == "finished"
    expected_rounds = min(4 if n < 16 else 5 if n < 32 else 6, max(1, n // 2))
    assert t.rounds == expected_rounds == Round.objects.filter(tournament=t).count()
    assert set(matches_by_player(t).values()) == {expected_rounds}
    pairs = [
        frozenset((m.player1_id, m.player2_id))
        for m in Match.objects.filter(tournament=t, player2__isnull=False)
    ]
    assert len(pairs) == len(set(pairs))
    byes = Counter(m.player1_id for m in Match.objects.filter(tournament=t, player2__isnull=True))
    assert all(v == 1 for v in byes.values())
    assert len(t.standings) == n
    points = sum(row["points"] for row in t.standings)
    assert points == n // 2 * expected_rounds + (n % 2) * expected_rounds  # 1 per match + byes


# Played out through the services and the sweeper up to an odd field past 16 (17 players: 136
# matches; 33 were 528, ~40 s for nothing more); test_berger.py checks the tables themselves for
# every field from 2 to 33.
@pytest.mark.parametrize("n", [2, 3, 5, *slow(8, 13, 17)])
def test_round_robin_everyone_meets_everyone_once(n):
    t = make_tournament(players=n, format="round_robin")
    play_all(t)
    t.refresh_from_db()
    assert t.status == "finished"
    count = matches_by_player(t)
    assert set(count.values()) == {n if n % 2 else n - 1}  # odd: one bye each
    pairs = [
        frozenset((m.player1_id, m.player2_id))
        for m in Match.objects.filter(tournament=t, player2__isnull=False)
    ]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2


def test_double_round_robin_plays_every_pair_twice_with_colours_swapped():
    t = make_tournament(players=4, format="round_robin", cycles=2)
    play_all(t)
    seen = Counter((m.player1_id, m.player2_id) for m in Match.objects.filter(tournament=t))
    assert len(seen) == 12 and set(seen.values()) == {1}


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 16, 33])
def test_single_elimination_everyone_but_the_champion_loses_once(n):
    t = make_tournament(players=n, format="single_elimination")
    play_all(t)
    t.refresh_from_db()
    assert t.status == "finished"
    decided = Match.objects.filter(tournament=t, player2__isnull=False)
    losers = Counter(m.player2_id if m.winner_id == m.player1_id else m.player1_id for m in decided)
    assert set(losers) == set(seeded_ids(t)) - {t.winner_id}
    assert set(losers.values()) == {1}
    assert decided.count() == n - 1
    assert Crown.objects.filter(user_id=t.winner_id, tournament_id=t.pk).exists()
    assert t.standings[0]["user_id"] == t.winner_id and t.standings[0]["rank"] == 1


@pytest.mark.parametrize("n", [2, 3, 5, 8, *slow(13), 16, *slow(33)])
def test_double_elimination_everyone_but_the_champion_loses_twice(n):
    t = make_tournament(players=n, format="double_elimination")
    play_all(t)
    t.refresh_from_db()
    assert t.status == "finished"
    decided = Match.objects.filter(tournament=t, player2__isnull=False)
    losses = Counter(m.player2_id if m.winner_id == m.player1_id else m.player1_id for m in decided)
    assert set(losses) <= set(seeded_ids(t))
    for user_id in seeded_ids(t):
        assert losses[user_id] == (2 if user_id != t.winner_id else losses[user_id])
    assert losses[t.winner_id] <= 1


@pytest.mark.parametrize("n", [5, 8, 13, 16])
def test_elimination_brackets_let_the_top_seeds_through_when_favourites_win(n):
    t = make_tournament(players=n, format="single_elimination")
    seed_of = dict(Entry.objects.filter(tournament=t).values_list("user_id", "seed"))
    play_all(
        t, pick=lambda m: "player1" if seed_of[m.player1_id] < seed_of[m.player2_id] else "player2"
    )
    t.refresh_from_db()
    final = Match.objects.get(tournament=t, key=f"W{(n - 1).bit_length()}-1")
    assert {seed_of[final.player1_id], seed_of[final.player2_id]} == {1, 2}
    assert seed_of[t.winner_id] == 1


def test_double_elimination_grand_final_resets_when_the_losers_champion_wins():
    t = make_tournament(players=4, format="double_elimination")
    seed_of = dict(Entry.objects.filter(tournament=t).values_list("user_id", "seed"))
    # favourites win everywhere except the finals, where the lower seed (losers' champion) wins
    play_all(
        t,
        pick=lambda m: (
            "player2"
            if m.bracket == "GF"
            else "player1"
            if seed_of[m.player1_id] < seed_of[m.player2_id]
            else "player2"
        ),
    )
    t.refresh_from_db()
    keys = set(Match.objects.filter(tournament=t).values_list("key", flat=True))
    assert {"GF1", "GF2"} <= keys
    assert seed_of[t.winner_id] == 2  # the losers' champion won twice


def test_a_drawn_elimination_match_gets_another_set_with_colours_swapped():
    t = make_tournament(players=2, format="single_elimination")
    match = Match.objects.get(tournament=t)
    finish_match_games(match, "draw")
    services.sweep()
    match.refresh_from_db()
    assert match.status == "in_progress"
    sets = list(match.match_sets.order_by("index"))
    assert len(sets) == 2
    assert sets[1].game_set.player1_id == match.player2_id
    finish_match_games(match, "player2")
    services.sweep()
    t.refresh_from_db()
    assert (t.status, t.winner_id) == ("finished", match.player2_id)


def test_two_game_matches_score_the_set_result():
    t = make_tournament(players=2, format="swiss", games_per_match=2, rounds=1)
    match = Match.objects.get(tournament=t)
    assert match.match_sets.get().game_set.games.count() == 2
    finish_match_games(match, "draw")
    services.sweep()
    t.refresh_from_db()
    assert t.status == "finished"
    assert [row["points"] for row in t.standings] == [0.5, 0.5]


# --- registration -----------------------------------------------------------------------


def test_join_and_withdraw_while_registration_is_open():
    t = make_tournament(players=0, start=False)
    user = UserFactory()
    services.tournament_join(tournament_id=t.pk, user=user)
    with pytest.raises(DomainError) as err:
        services.tournament_join(tournament_id=t.pk, user=user)
    assert err.value.code == "already_joined"
    services.tournament_withdraw(tournament_id=t.pk, user=user)
    assert Entry.objects.get(tournament=t, user=user).status == "withdrawn"
    services.tournament_join(tournament_id=t.pk, user=user)
    assert Entry.objects.get(tournament=t, user=user).status == "active"


def test_registration_window_and_maximum_players():
    now = timezone.now()
    t = make_tournament(
        players=0,
        start=False,
        registration_opens_at=now + timedelta(minutes=5),
        start_at=now + timedelta(hours=1),
        max_players=2,
    )
    with pytest.raises(DomainError) as err:
        services.tournament_join(tournament_id=t.pk, user=UserFactory())
    assert err.value.code == "registration_closed"
    later = now + timedelta(minutes=10)
    services.tournament_join(tournament_id=t.pk, user=UserFactory(), now=later)
    services.tournament_join(tournament_id=t.pk, user=UserFactory(), now=later)
    with pytest.raises(DomainError) as err:
        services.tournament_join(tournament_id=t.pk, user=UserFactory(), now=later)
    assert err.value.code == "tournament_full"


def test_rating_restrictions_use_the_tournaments_rating():
    t = make_tournament(
        players=0,
        start=False,
        time_control="turn",
        days_per_move=3,
        rating_above=1700,
        min_rated_results=5,
    )
    strong = RatingFactory(category="turn", rating=1800, results=30).user
    weak = RatingFactory(category="turn", rating=1650, results=30).user
    new = RatingFactory(category="turn", rating=1900, results=2).user
    services.tournament_join(tournament_id=t.pk, user=strong)
    for user in (weak, new, UserFactory()):
        with pytest.raises(DomainError) as err:
            services.tournament_join(tournament_id=t.pk, user=user)
        assert err.value.code == "not_eligible"


def test_seeding_puts_established_players_first_then_rating_with_reproducible_ties():
    t = make_tournament(players=0, start=False, time_control="turn", days_per_move=3)
    provisional_high = RatingFactory(category="turn", rating=2000, results=5).user
    established_low = RatingFactory(category="turn", rating=1500, results=25).user
    established_high = RatingFactory(category="turn", rating=1700, results=25).user
    unrated = [UserFactory() for _ in range(4)]
    for user in [provisional_high, established_low, established_high, *unrated]:
        services.tournament_join(tournament_id=t.pk, user=user)
    services._seed(t)
    first = list(
        Entry.objects.filter(tournament=t).order_by("seed").values_list("user_id", flat=True)
    )
    assert first[:4] == [established_high.pk, established_low.pk, provisional_high.pk, first[3]]
    assert set(first[3:]) == {u.pk for u in unrated}
    services._seed(t)
    again = list(
        Entry.objects.filter(tournament=t).order_by("seed").values_list("user_id", flat=True)
    )
    assert again == first


def test_seeding_reads_every_player_s_rating_in_one_query():
    """Seeding a thousand players must not read a thousand ratings one by one."""
    counts = []
    for players in (3, 12):
        t = make_tournament(players=0, start=False, time_control="turn", days_per_move=3)
        for i in range(players):
            user = RatingFactory(category="turn", rating=1500 + i, results=25).user
            services.tournament_join(tournament_id=t.pk, user=user)
        with CaptureQueriesContext(connection) as captured:
            services._seed(t)
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1] <= 4


def test_start_needs_the_organiser_and_happens_once():
    t = make_tournament(players=4, start=False)
    with pytest.raises(DomainError) as err:
        services.tournament_start(tournament_id=t.pk, user=UserFactory())
    assert err.value.code == "not_organiser"
    services.tournament_start(tournament_id=t.pk, user=t.organiser)
    with pytest.raises(DomainError) as err:
        services.tournament_start(tournament_id=t.pk, user=t.organiser)
    assert err.value.code == "already_started"
    assert Match.objects.filter(tournament=t).count() == 2


def test_the_scheduled_start_waits_for_the_start_time_and_the_sweeper_catches_it():
    t = make_tournament(players=4, start=False)
    tasks.start(t.pk)  # too early: nothing happens
    t.refresh_from_db()
    assert t.status == "registration"
    services.sweep(now=t.start_at + timedelta(seconds=1))
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("running", 1)
    with pytest.raises(DomainError):
        services.tournament_join(tournament_id=t.pk, user=UserFactory())


def test_the_organiser_cannot_start_with_too_few_players_and_registration_stays_open():
    t = make_tournament(players=1, start=False)
    with pytest.raises(DomainError) as err:
        services.tournament_start(tournament_id=t.pk, user=t.organiser)
    assert (err.value.code, err.value.kind.http_status) == ("too_few_players", 409)
    t.refresh_from_db()
    assert t.status == "registration"
    services.tournament_join(tournament_id=t.pk, user=UserFactory())
    assert services.tournament_start(tournament_id=t.pk, user=t.organiser).status == "running"


def test_a_scheduled_start_with_too_few_players_cancels_the_tournament():
    t = make_tournament(players=1, start=False)
    services.sweep(now=t.start_at + timedelta(seconds=1))
    t.refresh_from_db()
    assert t.status == "cancelled"


def test_a_start_time_in_the_past_is_refused():
    with pytest.raises(DomainError) as err:
        make_tournament(players=0, start=False, start_at=timezone.now() - timedelta(minutes=1))
    assert (err.value.code, err.value.kind.http_status) == ("bad_options", 400)
    assert "future" in err.value.detail


def test_contradictory_rating_restrictions_are_refused():
    with pytest.raises(DomainError) as err:
        make_tournament(players=0, start=False, rating_above=2000, rating_below=1000)
    assert err.value.code == "bad_options" and "rating_above" in err.value.detail
    make_tournament(players=0, start=False, rating_above=1000, rating_below=2000)


# --- running ------------------------------------------------------------------------------


def test_pairing_a_round_twice_is_impossible():
    t = make_tournament(players=6)
    for _ in range(3):
        assert services.tournament_advance(tournament_id=t.pk) == "waiting"
    assert Round.objects.filter(tournament=t).count() == 1
    assert Match.objects.filter(tournament=t).count() == 3
    for m in Match.objects.filter(tournament=t):
        finish_match_games(m, "player1")
    for _ in range(3):
        services.sweep()
        services.tournament_advance(tournament_id=t.pk)
    assert Round.objects.filter(tournament=t).count() == 2
    assert Match.objects.filter(tournament=t).count() == 6
    # a stale claimer (thinks round 1 is current) cannot claim round 2 again
    claimed = Tournament.objects.filter(pk=t.pk, current_round=1).update(current_round=2)
    assert claimed == 0


def test_withdrawing_mid_tournament_forfeits_games_and_stops_pairing():
    t = make_tournament(players=4, rounds=3)
    leaver = Entry.objects.get(tournament=t, seed=1).user
    match = (
        Match.objects.get(tournament=t, player1=leaver)
        if Match.objects.filter(tournament=t, player1=leaver).exists()
        else Match.objects.get(tournament=t, player2=leaver)
    )
    services.tournament_withdraw(tournament_id=t.pk, user=leaver)
    game = Game.objects.get(game_set=match.match_sets.get().game_set)
    assert (game.status, game.end_reason) == ("finished", "forfeit")
    services.sweep()
    match.refresh_from_db()
    assert match.status == "finished" and match.forfeit and match.winner_id != leaver.pk
    for m in Match.objects.filter(tournament=t, status="in_progress"):
        finish_match_games(m, "player1")
    services.sweep()
    round2 = Match.objects.filter(tournament=t, round__number=2)
    assert round2.exists()
    assert not round2.filter(player1=leaver).exists() and not round2.filter(player2=leaver).exists()


def test_tournament_games_cannot_be_cancelled():
    t = make_tournament(players=2)
    game = Game.objects.get(game_set=Match.objects.get(tournament=t).match_sets.get().game_set)
    player = game.seat_rows.get(seat=1).user
    with pytest.raises(DomainError) as err:
        game_cancel_request(game_id=game.pk, user=player)
    assert err.value.code == "cancel_forbidden"


def test_set_finished_signal_advances_the_tournament_on_commit(django_capture_on_commit_callbacks):
    t = make_tournament(players=2, rounds=1)
    match = Match.objects.get(tournament=t)
    with django_capture_on_commit_callbacks(execute=True):
        finish_match_games(match, "player2")
    t.refresh_from_db()
    assert (t.status, t.winner_id) == ("finished", match.player2_id)


def test_trf_export_scores_equal_the_sum_of_results():
    t = make_tournament(players=7, rounds=3)
    play_all(t, rng=random.Random(3))
    t.refresh_from_db()
    doc = trf.load(selectors.trf_text(t))
    assert doc.rounds == 3 and len(doc.players) == 7
    standings = {row["username"]: row["points"] for row in t.standings}
    for p in doc.players:
        assert p.points == standings[p.name]
        assert len(p.games) == 3
    assert sum(1 for p in doc.players for g in p.games if g.result == "U") == 3


def test_match_sets_link_each_game_set_once():
    t = make_tournament(players=4)
    assert MatchSet.objects.filter(match__tournament=t).count() == 2


def test_a_withdrawn_players_next_bracket_match_is_a_walkover():
    t = make_tournament(players=4, format="single_elimination")
    first = list(Match.objects.filter(tournament=t).order_by("key"))
    finish_match_games(first[0], "player1")
    services.sweep()
    finalist = Match.objects.get(pk=first[0].pk).winner
    services.tournament_withdraw(tournament_id=t.pk, user=finalist)
    finish_match_games(first[1], "player1")
    services.sweep()
    final = Match.objects.get(tournament=t, key="W2-1")
    t.refresh_from_db()
    assert final.forfeit and final.winner_id != finalist.pk
    assert not final.match_sets.exists()
    assert (t.status, t.winner_id) == ("finished", final.winner_id)


# --- current round of knockouts -----------------------------------------------------------


def _current_rounds_while_playing(t, pick):
    """Play every open match of the tournament, wave by wave; the current_round after the
    start and after each wave."""
    t.refresh_from_db()
    seen = [t.current_round]
    while t.status == "running":
        for m in Match.objects.filter(tournament=t, status="in_progress"):
            finish_match_games(m, pick(m))
        services.sweep()
        t.refresh_from_db()
        seen.append(t.current_round)
    return seen


def test_single_elimination_current_round_is_the_bracket_round_in_play():
    t = make_tournament(players=8, format="single_elimination")
    assert t.current_round == 1
    assert _current_rounds_while_playing(t, lambda m: "player1") == [1, 2, 3, 3]


def test_single_elimination_with_byes_counts_the_latest_round_with_a_match():
    # 5 players in an 8 bracket: seeds 1-3 skip round 1, so 2 v 3 (round 2) is played at once.
    t = make_tournament(players=5, format="single_elimination")
    in_play = Match.objects.filter(tournament=t, status="in_progress")
    assert sorted(in_play.values_list("bracket_round", flat=True)) == [1, 2]
    assert t.current_round == 2


@pytest.mark.parametrize("reset", [False, True])
def test_double_elimination_current_round_counts_the_waves_of_matches(reset):
    t = make_tournament(players=8, format="double_elimination")
    assert t.current_round == 1
    seed_of = dict(Entry.objects.filter(tournament=t).values_list("user_id", "seed"))

    def pick(m):
        if reset and m.bracket == "GF":  # the losers' champion wins GF1 (and GF2)
            return "player2"
        return "player1" if seed_of[m.player1_id] < seed_of[m.player2_id] else "player2"

    seen = _current_rounds_while_playing(t, pick)
    # W1 | W2, L1 | W3, L2 | L3 | L4 | GF1 (| GF2)
    assert seen == ([1, 2, 3, 4, 5, 6, 7, 7] if reset else [1, 2, 3, 4, 5, 6, 6])
    assert bracket_stages(selectors.bracket_matches(t))["GF2"] == 7


def test_current_round_of_a_knockout_shows_in_the_api_after_start():
    from rest_framework.test import APIClient

    t = make_tournament(players=4, format="double_elimination")
    assert APIClient().get(f"/api/tournaments/{t.pk}/").data["current_round"] == 1


# --- time controls ----------------------------------------------------------------------


def test_an_untimed_tournament_is_refused_by_the_service():
    with pytest.raises(DomainError) as err:
        make_tournament(players=0, start=False, time_control="none")
    assert (err.value.code, err.value.kind.http_status) == ("bad_time_control", 400)


def test_a_live_tournament_stores_no_days_per_move_and_a_turn_one_no_clock_minutes():
    live = make_tournament(players=0, start=False, time_control="live", initial_minutes=10)
    assert (live.initial_minutes, live.increment_seconds, live.days_per_move) == (10, 0, 0)
    turn = services.tournament_create(
        organiser=UserFactory(), name="Turn", start_at=timezone.now() + timedelta(hours=1)
    )
    assert (turn.time_control, turn.days_per_move, turn.initial_minutes) == ("turn", 3, 0)
    with pytest.raises(DomainError) as err:
        make_tournament(
            players=0, start=False, time_control="live", increment_seconds=5, days_per_move=3
        )
    assert err.value.code == "bad_time_control"


def test_a_live_tournaments_games_get_its_clock():
    t = make_tournament(players=2, time_control="live", initial_minutes=5, increment_seconds=3)
    game = Game.objects.get(game_set=Match.objects.get(tournament=t).match_sets.get().game_set)
    assert (game.time_control, game.initial_minutes, game.increment_seconds) == ("live", 5, 3)
    assert game.days_per_move == 0 and game.deadline is not None


# --- ratings after withdrawals ------------------------------------------------------------


def test_a_withdrawal_before_any_stone_changes_no_rating():
    from ratings.models import Rating, RatingChange
    from ratings.replay import ratings_replay

    t = make_tournament(players=2, rated=True, format="swiss", rounds=1, games_per_match=2)
    match = Match.objects.get(tournament=t)
    leaver, stayer = match.player1, match.player2
    services.tournament_withdraw(tournament_id=t.pk, user=leaver)
    services.sweep()
    match.refresh_from_db()
    assert match.forfeit and match.winner_id == stayer.pk
    assert not Rating.objects.filter(user__in=[leaver, stayer]).exists()
    assert not RatingChange.objects.exists()
    assert ratings_replay().differences == []


def test_a_withdrawal_after_real_play_rates_the_forfeit():
    from ratings.models import Rating

    t = make_tournament(players=2, rated=True, format="swiss", rounds=1, games_per_match=1)
    match = Match.objects.get(tournament=t)
    game = Game.objects.get(game_set=match.match_sets.get().game_set)
    second = game.seat_rows.get(seat=2).user  # moves first after the automatic centre stone
    move_play(game_id=game.pk, user=second, ply=game.ply, points=[9 * 19 + 10])
    leaver = game.seat_rows.get(seat=1).user
    services.tournament_withdraw(tournament_id=t.pk, user=leaver)
    assert Rating.objects.get(user=second, variant="Pente", category="turn").rating == 1800
    assert Rating.objects.get(user=leaver, variant="Pente", category="turn").rating == 1400


def test_the_tournament_sets_among_many_finished_sets_are_found_with_one_query(
    django_assert_num_queries, django_capture_on_commit_callbacks, monkeypatch
):
    """The timeout sweeper finishes thousands of sets in one transaction: the tournaments app
    asks once which of them are tournament sets, not once per set."""
    t = make_tournament(players=4)
    tournament_sets = [ms.game_set for ms in MatchSet.objects.filter(match__tournament=t)]
    others = [
        set_create(player1=UserFactory(), player2=UserFactory(), variant="Pente", rated=False)
        for _ in range(5)
    ]
    recorded = []
    monkeypatch.setattr(tasks.set_finished, "delay", recorded.append)
    with django_assert_num_queries(1), django_capture_on_commit_callbacks(execute=True):
        tasks.on_sets_finished(sender=None, game_sets=[*others, *tournament_sets])
    assert recorded == sorted(s.pk for s in tournament_sets) and len(recorded) == 2


# --- the initial colour (FIDE Art. 5.2.5) ---------------------------------------------------------


def _round_one_colours(t) -> list[tuple[int, int]]:
    """Round 1 by board: (white's seed, black's seed)."""
    seed_of = dict(Entry.objects.filter(tournament=t).values_list("user_id", "seed"))
    return [
        (seed_of[m.player1_id], seed_of[m.player2_id])
        for m in Match.objects.filter(
            tournament=t, round__number=1, player2__isnull=False
        ).order_by("board")
    ]


def test_an_initial_colour_of_black_gives_the_top_seed_black_and_alternates_down_the_boards():
    t = make_tournament(players=8, rounds=3, initial_colour="black")
    assert t.initial_colour == "black"
    # Art. 5.2.5 with black drawn: 1 has black against 5; 2 white against 6; 3 black; 4 white.
    assert _round_one_colours(t) == [(5, 1), (2, 6), (7, 3), (4, 8)]
    trf_lines = selectors.trf_text(t).splitlines()
    assert "152 B" in trf_lines and "XXC black1" in trf_lines


def test_an_initial_colour_of_white_gives_the_top_seed_white():
    t = make_tournament(players=8, rounds=3, initial_colour="white")
    assert _round_one_colours(t) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_the_initial_colour_is_drawn_by_lot_from_the_stored_seed_at_the_start():
    t = make_tournament(players=4, rounds=2)
    assert t.initial_colour == services.initial_colour_by_lot(t.seed)
    drawn = {services.initial_colour_by_lot(seed) for seed in range(40)}
    assert drawn == {"white", "black"}


# --- no silent relaxation: the organiser decides ---------------------------------------------------


@pytest.fixture
def relaxed_round_two(monkeypatch):
    """Round 2 of any Swiss can be paired only with the colour criteria relaxed."""
    real = progress.pair_round

    def pair_round(players, *, round_number, **kwargs):
        result = real(players, round_number=round_number, **kwargs)
        if round_number == 2:
            return SwissRound(result.pairs, result.bye, relaxed=True)
        return result

    monkeypatch.setattr(progress, "pair_round", pair_round)


def _finish_round(t) -> None:
    for match in Match.objects.filter(tournament=t, status="in_progress"):
        finish_match_games(match, "player1")
    services.sweep(now=timezone.now())
    t.refresh_from_db()


def test_a_round_that_needs_the_relaxation_waits_for_the_organiser(relaxed_round_two):
    t = make_tournament(players=4, rounds=3)
    _finish_round(t)
    assert t.current_round == 1 and t.pairing_decision_round == 2
    assert not Round.objects.filter(tournament=t, number=2).exists()
    decision = selectors.pairing_decision(t)
    assert decision["round"] == 2 and decision["code"] == "colour_criteria_unmet"
    services.sweep(now=timezone.now())  # beat again: still waiting, nothing paired
    assert not Round.objects.filter(tournament=t, number=2).exists()


def test_the_organiser_pairs_it_with_the_relaxation_and_the_round_records_it(relaxed_round_two):
    t = make_tournament(players=4, rounds=3)
    _finish_round(t)
    with jobs_run():
        services.tournament_pairing_decide(tournament_id=t.pk, user=t.organiser, relax=True)
    t.refresh_from_db()
    assert t.current_round == 2 and t.pairing_decision_round is None
    assert Round.objects.get(tournament=t, number=2).relaxed
    assert [r["relaxed"] for r in selectors.rounds(t)] == [False, True]


def test_the_organiser_may_pair_again_without_it_and_the_round_waits_again(relaxed_round_two):
    t = make_tournament(players=4, rounds=3)
    _finish_round(t)
    with jobs_run():
        services.tournament_pairing_decide(tournament_id=t.pk, user=t.organiser, relax=False)
    t.refresh_from_db()
    assert t.current_round == 1 and t.pairing_decision_round == 2


def test_only_the_organiser_decides_and_only_when_a_round_waits(relaxed_round_two):
    t = make_tournament(players=4, rounds=3)
    with pytest.raises(DomainError) as nothing:
        services.tournament_pairing_decide(tournament_id=t.pk, user=t.organiser, relax=True)
    assert nothing.value.code == "no_pairing_decision"
    _finish_round(t)
    with pytest.raises(DomainError) as stranger:
        services.tournament_pairing_decide(tournament_id=t.pk, user=UserFactory(), relax=True)
    assert stranger.value.code == "not_organiser"


def test_a_search_past_its_guard_waits_for_the_organiser_instead_of_ending_the_event(monkeypatch):
    real = progress.pair_round

    def too_hard_in_round_two(players, *, round_number, **kwargs):
        if round_number == 2:
            raise PairingTooHard("bracket 3: the search ran past 2,000,000 nodes")
        return real(players, round_number=round_number, **kwargs)

    monkeypatch.setattr(progress, "pair_round", too_hard_in_round_two)
    t = make_tournament(players=4, rounds=3)
    _finish_round(t)
    assert t.status == "running" and t.current_round == 1
    assert selectors.pairing_decision(t)["code"] == "pairing_too_hard"
    monkeypatch.setattr(progress, "pair_round", real)
    with jobs_run():
        services.tournament_pairing_decide(tournament_id=t.pk, user=t.organiser, relax=False)
    t.refresh_from_db()
    assert t.current_round == 2 and selectors.pairing_decision(t) is None


def test_a_deactivated_account_is_withdrawn_from_its_tournaments_by_a_job():
    open_t = make_tournament(players=3, start=False)
    running = make_tournament(players=4, rounds=3)
    banned = Entry.objects.get(tournament=running, seed=1).user
    services.tournament_join(tournament_id=open_t.pk, user=banned)
    match = (
        Match.objects.filter(tournament=running).filter(Q(player1=banned) | Q(player2=banned)).get()
    )
    with jobs_run():
        banned.is_active = False
        banned.save()
    entries = Entry.objects.filter(user=banned)
    assert set(entries.values_list("status", flat=True)) == {"withdrawn"}
    game = Game.objects.get(game_set=match.match_sets.get().game_set)
    assert (game.status, game.end_reason) == ("finished", "forfeit")
    assert Entry.objects.filter(tournament=open_t, status="active").count() == 3


def test_the_sweeper_withdraws_deactivated_accounts_whose_job_was_lost():
    t = make_tournament(players=3, start=False)
    banned = Entry.objects.filter(tournament=t).first().user
    type(banned).objects.filter(pk=banned.pk).update(is_active=False)  # no signal, no job
    assert services.sweep()["withdrawn"] == 1
    assert Entry.objects.get(tournament=t, user=banned).status == "withdrawn"
    assert services.sweep()["withdrawn"] == 0


def test_the_sweeper_leaves_the_players_of_an_imported_event_alone():
    t, _, _ = imported_after_round_1(players=4, rounds=2)
    # Its players are accounts that cannot sign in, made for the names the server does not know.
    assert not Entry.objects.filter(tournament=t, user__is_active=True).exists()
    assert services.sweep()["withdrawn"] == 0
    assert set(Entry.objects.filter(tournament=t).values_list("status", flat=True)) == {"active"}


def test_a_deactivated_organisers_tournament_not_started_is_cancelled():
    t = make_tournament(players=3, start=False)
    with jobs_run():
        t.organiser.is_active = False
        t.organiser.save()
    t.refresh_from_db()
    assert t.status == "cancelled"


def test_a_deleted_players_name_is_written_into_the_standings_of_finished_tournaments():
    from accounts.services import account_delete

    t = make_tournament(players=2, rounds=1)
    match = Match.objects.get(tournament=t)
    finish_match_games(match, "player1")
    services.sweep()
    t.refresh_from_db()
    assert t.status == "finished"
    leaver = match.player2
    leaver.set_password("a good long password 3")
    leaver.save()
    with jobs_run():
        account_delete(user=leaver, password="a good long password 3")
    t.refresh_from_db()
    names = {row["user_id"]: row["username"] for row in t.standings}
    assert names[leaver.pk] == f"deleted-{leaver.pk}"


def test_two_withdrawn_players_of_a_round_robin_are_two_absences_not_a_draw():
    t = make_tournament(players=4, format="round_robin")
    first_round = Match.objects.filter(tournament=t, round__number=1)
    one = first_round[0]
    other = first_round[1]
    first, second = one.player1, other.player1  # they meet in a later round
    for leaver in (first, second):
        services.tournament_withdraw(tournament_id=t.pk, user=leaver)
    while t.status == "running":
        for m in Match.objects.filter(tournament=t, status="in_progress"):
            finish_match_games(m, "player1")
        services.sweep()
        t.refresh_from_db()
    between = Match.objects.filter(tournament=t).filter(
        Q(player1=first, player2=second) | Q(player1=second, player2=first)
    )
    assert not between.exists()
    rows = {row["user_id"]: row for row in selectors.standings(t)}
    assert rows[first.pk]["draws"] == rows[second.pk]["draws"] == 0
    assert rows[first.pk]["played"] == rows[second.pk]["played"] == 2  # not their meeting
