"""Absences in tournament matches: a player who does not turn up forfeits; a match neither
player turns up for is a double forfeit (no tie-break set; a bracket's next opponent advances by
walkover; Swiss and round robin score it 0 for both, and the TRF says so)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.clocks.sweeper import close_due
from games.engine import Outcome, Termination
from games.play.finish import game_finish
from games.play.models import Game, Seat
from ratings.models import Crown
from tests.tournaments.support import (
    absent_from_match,
    finish_match_games,
    make_tournament,
    nobody_comes,
)
from tournaments import selectors, services
from tournaments.models import Match, MatchSet, Tournament
from tournaments.pairing import trf
from tournaments.pairing.double_elimination import double_elimination
from tournaments.pairing.elimination import BYE, elimination_places, resolve, single_elimination

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def match(t: Tournament, key: str) -> Match:
    return Match.objects.get(tournament=t, key=key)


def seat(game: Game, user_id: int) -> int:
    return Seat.objects.get(game=game, user_id=user_id).seat


def settle(t: Tournament) -> None:
    """What the workers do after the games end: record the sets, move the tournament on."""
    services.sweep()
    t.refresh_from_db()


# --- one match -----------------------------------------------------------------------------


def test_a_player_who_does_not_turn_up_loses_the_match_by_forfeit():
    t = make_tournament(players=2, format="single_elimination", games_per_match=2)
    final = match(t, "W1-1")
    absent_from_match(final, final.player2_id)
    settle(t)
    final.refresh_from_db()
    assert (final.result, final.winner_id, final.forfeit) == ("player1", final.player1_id, True)
    assert t.status == "finished" and t.winner_id == final.player1_id


def test_a_match_nobody_turns_up_for_is_a_double_forfeit_without_a_tie_break_set():
    t = make_tournament(players=4, format="single_elimination", games_per_match=2)
    first = match(t, "W1-1")
    nobody_comes(first)
    settle(t)
    first.refresh_from_db()
    assert (first.status, first.result, first.winner_id, first.forfeit) == (
        "finished",
        "double_forfeit",
        None,
        True,
    )
    assert MatchSet.objects.filter(match=first).count() == 1
    assert not Game.objects.filter(
        game_set__tournament_match_set__match=first, status="in_progress"
    ).exists()


def test_a_drawn_set_with_one_absence_each_still_gets_a_tie_break_set():
    """Each player missed one game and played the other: both turned up, so it is a tie."""
    t = make_tournament(players=2, format="single_elimination", games_per_match=2)
    final = match(t, "W1-1")
    games = list(
        Game.objects.filter(game_set__tournament_match_set__match=final).order_by("set_index")
    )
    # player 1 came to game 1 only, player 2 to game 2 only
    game_finish(
        game=games[0], outcome=Outcome(Termination.FORFEIT, (seat(games[0], final.player1_id),))
    )
    game_finish(
        game=games[1], outcome=Outcome(Termination.FORFEIT, (seat(games[1], final.player2_id),))
    )
    settle(t)
    final.refresh_from_db()
    assert final.status == "in_progress"
    assert MatchSet.objects.filter(match=final).count() == 2


def test_a_set_with_one_game_nobody_came_to_goes_to_the_winner_of_the_other():
    t = make_tournament(players=2, format="single_elimination", games_per_match=2)
    final = match(t, "W1-1")
    first, second = Game.objects.filter(game_set__tournament_match_set__match=final).order_by(
        "set_index"
    )
    game_finish(game=first, outcome=Outcome(Termination.FORFEIT, ()))
    game_finish(game=second, outcome=Outcome(Termination.RESIGN, (seat(second, final.player1_id),)))
    settle(t)
    final.refresh_from_db()
    assert (final.result, final.winner_id) == ("player1", final.player1_id)


# --- through the start window ------------------------------------------------------------


def live_knockout(players: int) -> Tournament:
    return make_tournament(
        players=players,
        format="single_elimination",
        time_control="live",
        initial_minutes=5,
        games_per_match=1,
    )


def test_tournament_games_are_created_to_forfeit_an_absent_player():
    t = live_knockout(2)
    game = Game.objects.get(game_set__tournament_match_set__match__tournament=t)
    assert game.on_absence == Game.OnAbsence.FORFEIT


def test_the_start_window_closing_on_nobody_makes_a_double_forfeit_and_a_walkover(settings):
    settings.START_WINDOW_SECONDS = 60
    t = live_knockout(4)
    absent, other = match(t, "W1-1"), match(t, "W1-2")
    started = Game.objects.get(game_set__tournament_match_set__match=absent).started_at
    finish_match_games(other, "player2")
    close_due(now=started + timedelta(minutes=2))  # nobody came to W1-1
    settle(t)
    absent.refresh_from_db()
    assert (absent.result, absent.winner_id) == ("double_forfeit", None)
    assert MatchSet.objects.filter(match=absent).count() == 1
    assert t.status == "finished" and t.winner_id == other.player2_id


# --- elimination ---------------------------------------------------------------------------


def test_single_elimination_the_next_opponent_advances_by_walkover():
    t = make_tournament(players=4, format="single_elimination")
    nobody_comes(match(t, "W1-1"))
    other = match(t, "W1-2")
    finish_match_games(other, "player1")
    settle(t)
    # The final had one player left: a walkover, no match to play.
    assert not Match.objects.filter(tournament=t, key="W2-1").exists()
    assert t.status == "finished" and t.winner_id == other.player1_id
    state = {m["key"]: m for m in selectors.bracket(t)["matches"]}
    assert state["W1-1"]["status"] == "double_forfeit" and state["W1-1"]["winner"] == "bye"
    assert state["W2-1"]["status"] == "walkover"


def test_single_elimination_both_semi_finals_double_forfeited_ends_without_a_champion():
    t = make_tournament(players=4, format="single_elimination")
    nobody_comes(match(t, "W1-1"))
    nobody_comes(match(t, "W1-2"))
    settle(t)
    assert t.status == "finished" and t.winner_id is None
    assert not Crown.objects.filter(tournament_id=t.pk).exists()
    assert selectors.bracket(t)["champion"] is None


def test_single_elimination_a_final_nobody_turns_up_for_has_no_champion():
    t = make_tournament(players=2, format="single_elimination")
    final = match(t, "W1-1")
    nobody_comes(final)
    settle(t)
    assert t.status == "finished" and t.winner_id is None
    places = {row["user_id"]: row["rank"] for row in t.standings}
    assert places == {final.player1_id: 1, final.player2_id: 1}  # out together, at the end
    assert not Crown.objects.filter(tournament_id=t.pk).exists()


def test_double_elimination_a_double_forfeit_puts_both_out_and_their_opponents_walk_over():
    t = make_tournament(players=4, format="double_elimination")
    absent = match(t, "W1-1")
    nobody_comes(absent)
    other = match(t, "W1-2")
    finish_match_games(other, "player1")
    settle(t)
    # W2-1 (winners' final) and L1-1 (the W1 losers) each had one player: walkovers. The loser
    # of W1-2 then meets... nobody from W2-1 either: the losers' final waits for W2-1's loser,
    # which is a bye, so the W1-2 loser reaches the grand final against the W1-2 winner.
    gf1 = match(t, "GF1")
    assert {gf1.player1_id, gf1.player2_id} == {other.player1_id, other.player2_id}
    finish_match_games(gf1, "player1")
    settle(t)
    assert t.status == "finished" and t.winner_id == gf1.player1_id
    out = {absent.player1_id, absent.player2_id}
    assert all(row["rank"] == 3 for row in t.standings if row["user_id"] in out)


def test_double_elimination_a_grand_final_nobody_turns_up_for_ends_without_a_reset():
    t = make_tournament(players=2, format="double_elimination")
    finish_match_games(match(t, "W1-1"), "player1")
    settle(t)
    nobody_comes(match(t, "GF1"))
    settle(t)
    assert t.status == "finished" and t.winner_id is None
    assert not Match.objects.filter(tournament=t, key="GF2").exists()


def test_double_elimination_a_losers_bracket_double_forfeit_sends_the_drop_in_through():
    """8 players: L1-1 double forfeited, so L2-1's drop-in (a W2 loser) walks over."""
    layout = double_elimination(8)
    seeds = {i: f"p{i}" for i in range(1, 9)}
    winners = {m.key: seeds[int(m.a.ref)] for m in layout if m.key.startswith("W1-")}
    state = resolve(layout, seeds, {**winners, "L1-1": BYE})
    by_key = state.by_key
    assert by_key["L1-1"].status == "double_forfeit"
    winners.update({"W2-1": "p1", "W2-2": "p2"})
    state = resolve(layout, seeds, {**winners, "L1-1": BYE})
    drop_in = state.by_key["L2-1"]
    assert drop_in.status == "walkover" and drop_in.winner in ("p4", "p3")


def test_places_put_both_double_forfeiters_out_at_that_match():
    layout = single_elimination(4)
    seeds = {1: "a", 2: "b", 3: "c", 4: "d"}
    state = resolve(layout, seeds, {"W1-1": BYE, "W1-2": "b"})
    assert state.finished and state.champion == "b"
    places = elimination_places(state)
    assert places == {"b": 1, "a": 2, "c": 2, "d": 2}  # all three out in round 1


# --- Swiss and round robin -----------------------------------------------------------------


def test_swiss_double_forfeit_scores_nothing_and_pairing_goes_on():
    t = make_tournament(players=4, format="swiss", rounds=2)
    boards = list(Match.objects.filter(tournament=t, round__number=1).order_by("board"))
    nobody_comes(boards[0])
    finish_match_games(boards[1], "player1")
    settle(t)
    boards[0].refresh_from_db()
    assert boards[0].result == "double_forfeit" and boards[0].winner_id is None
    assert t.current_round == 2  # the next round was paired
    rows = {row["user_id"]: row for row in selectors.compute_standings(t)}
    for user_id in (boards[0].player1_id, boards[0].player2_id):
        assert (rows[user_id]["points"], rows[user_id]["played"]) == (0.0, 0)
    assert rows[boards[1].player1_id]["points"] == 1.0


def test_swiss_trf_export_records_a_double_forfeit():
    t = make_tournament(players=4, format="swiss", rounds=2)
    boards = list(Match.objects.filter(tournament=t, round__number=1).order_by("board"))
    nobody_comes(boards[0])
    finish_match_games(boards[1], "player1")
    settle(t)
    seed = dict(t.entries.values_list("user_id", "seed"))
    a, b = seed[boards[0].player1_id], seed[boards[0].player2_id]
    report = trf.load(selectors.trf_text(t, after_round=1))
    games = {p.start_rank: p.games[0] for p in report.players}
    assert (games[a].opponent, games[a].result) == (b, "-")
    assert (games[b].opponent, games[b].result) == (a, "-")
    # Read back, it is two absences (no game, no points), as any reader of the format takes it.
    byes = dict(trf.reported_rounds(report).rounds[0].byes)
    assert byes[a] == byes[b] == "zero"


def test_round_robin_double_forfeit_scores_nothing_for_both():
    t = make_tournament(players=4, format="round_robin")
    boards = list(Match.objects.filter(tournament=t, round__number=1).order_by("board"))
    nobody_comes(boards[0])
    settle(t)
    boards[0].refresh_from_db()
    assert boards[0].result == "double_forfeit"
    assert MatchSet.objects.filter(match=boards[0]).count() == 1
    rows = {row["user_id"]: row for row in selectors.compute_standings(t)}
    assert rows[boards[0].player1_id]["points"] == rows[boards[0].player2_id]["points"] == 0.0
