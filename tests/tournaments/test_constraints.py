"""The database refuses tournament rows that break the tournaments app's invariants."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.factories import GameSetFactory, UserFactory
from tournaments.models import Entry, Match, MatchSet, Round, Tournament

pytestmark = pytest.mark.django_db


def _refused(make) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def _tournament(**fields) -> Tournament:
    return Tournament.objects.create(
        name="Cup", organiser=UserFactory(), start_at=timezone.now() + timedelta(days=1), **fields
    )


def test_tournament_options_out_of_range_are_refused():
    _refused(lambda: _tournament(format="knockout"))
    _refused(lambda: _tournament(time_control="blitz"))
    _refused(lambda: _tournament(games_per_match=3))
    _refused(lambda: _tournament(cycles=0))
    _refused(lambda: _tournament(rounds=0))
    _refused(lambda: _tournament(max_players=1))
    _refused(lambda: _tournament(days_per_move=31))
    assert _tournament(rounds=1, max_players=2).pk


def test_a_finished_tournament_needs_its_finishing_time():
    t = _tournament()
    rows = Tournament.objects.filter(pk=t.pk)
    _refused(lambda: rows.update(status="finished"))
    rows.update(status="finished", finished_at=timezone.now())


def test_a_withdrawn_entry_has_its_withdrawal_time_and_an_active_one_none():
    t = _tournament()
    _refused(lambda: Entry.objects.create(tournament=t, user=UserFactory(), status="withdrawn"))
    _refused(
        lambda: Entry.objects.create(tournament=t, user=UserFactory(), withdrawn_at=timezone.now())
    )


def test_matches_refuse_a_player_against_themselves_and_a_result_while_in_progress():
    t = _tournament()
    alice, bob = UserFactory(), UserFactory()
    _refused(lambda: Match.objects.create(tournament=t, key="R1-1", player1=alice, player2=alice))
    _refused(
        lambda: Match.objects.create(
            tournament=t, key="R1-1", player1=alice, player2=bob, result="player1"
        )
    )
    _refused(
        lambda: Match.objects.create(tournament=t, key="R1-1", player1=alice, status="finished")
    )
    _refused(
        lambda: Match.objects.create(
            tournament=t,
            key="R1-1",
            player1=alice,
            player2=bob,
            status="finished",
            result="bye",
            finished_at=timezone.now(),
        )
    )
    _refused(lambda: Match.objects.create(tournament=t, key="X", player1=alice, bracket="Q"))
    match = Match.objects.create(
        tournament=t,
        key="R1-1",
        player1=alice,
        status="finished",
        result="bye",
        finished_at=timezone.now(),
    )
    _refused(lambda: MatchSet.objects.create(match=match, game_set=GameSetFactory(), index=0))


def test_a_round_number_starts_at_one():
    t = _tournament()
    _refused(lambda: Round.objects.create(tournament=t, number=0))
    Round.objects.create(tournament=t, number=1)
    _refused(lambda: Round.objects.create(tournament=t, number=1))
