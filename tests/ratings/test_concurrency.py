"""Exactly-once under concurrency (PostgreSQL): many sets of the same players finished at once from
threads, plus duplicate applications racing each other."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from games.play.actions import game_resign
from games.play.create import set_create
from games.play.models import GameSet
from ratings.models import Rating, RatingChange
from ratings.replay import ratings_replay
from ratings.services import rating_apply_set
from tests.factories import UserFactory
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def _run_threads(jobs, threads=THREADS):
    """Run the callables on ``threads`` threads, all starting together; re-raise any error."""
    chunks = [jobs[i::threads] for i in range(threads)]
    run_together([lambda chunk=chunk: [job() for job in chunk] for chunk in chunks])


def test_sets_finished_concurrently_are_each_applied_exactly_once():
    assert connection.vendor == "postgresql"
    players = [UserFactory() for _ in range(4)]
    rng = random.Random(5)
    sets = []
    for _ in range(24):
        a, b = rng.sample(players, 2)
        sets.append(set_create(player1=a, player2=b, variant="Pente", rated=True, games_count=2))
    jobs = []
    for game_set in sets:
        players_of = {game_set.player1_id: game_set.player1, game_set.player2_id: game_set.player2}
        for game in game_set.games.all():
            loser = players_of[rng.choice(list(players_of))]
            jobs.append(lambda g=game, u=loser: game_resign(game_id=g.pk, user=u))
    rng.shuffle(jobs)
    _run_threads(jobs)

    finished = list(GameSet.objects.filter(pk__in=[s.pk for s in sets]))
    assert all(s.status == "finished" and s.result for s in finished)
    assert RatingChange.objects.count() == 2 * len(sets)
    for player in players:
        played = sum(player.pk in (s.player1_id, s.player2_id) for s in finished)
        row = Rating.objects.get(user=player, variant="Pente", category="normal")
        assert row.results == played == row.wins + row.losses + row.draws
        assert RatingChange.objects.filter(user=player).count() == played

    # The finishing code running again, many times at once, changes nothing.
    before = {r.pk: (r.rating, r.results) for r in Rating.objects.all()}
    applied = []
    _run_threads([lambda s=s: applied.append(rating_apply_set(game_set=s)) for s in finished * 3])
    assert applied and not any(applied)
    assert {r.pk: (r.rating, r.results) for r in Rating.objects.all()} == before

    assert ratings_replay().differences == []


def test_the_same_set_applied_from_many_threads_at_once_counts_once():
    alice, bob = UserFactory(), UserFactory()
    game_set = GameSet.objects.create(
        player1=alice,
        player2=bob,
        variant="Pente",
        rated=True,
        category="normal",
        games_count=2,
        status="finished",
        result="player1",
    )
    applied: list[bool] = []
    _run_threads([lambda: applied.append(rating_apply_set(game_set=game_set))] * THREADS)
    assert applied.count(True) == 1
    assert RatingChange.objects.filter(game_set=game_set).count() == 2
    assert Rating.objects.get(user=alice).results == 1
