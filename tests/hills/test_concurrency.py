"""Two (and more) hill sets of the same player ending at once, from threads, on PostgreSQL:
each moves the hill once, in order, none lost."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings

from games.play.actions import game_resign
from games.play.models import Game, GameSet
from hills.models import Hill, HillEvent, HillMatch
from hills.services import hill_apply_set
from tests.hills.helpers import members, start_set, steps
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _resign_all(game_set, loser) -> None:
    for game in Game.objects.filter(game_set=game_set).order_by("set_index"):
        game_resign(game_id=game.pk, user=loser)


@pytest.mark.parametrize("sets", [2, 6])
@override_settings(HILL_MAX_TURN_SETS=8)
def test_sets_of_one_player_ending_in_parallel_all_move_the_hill(sets):
    assert connection.vendor == "postgresql"
    # Alice and her opponents on the bottom step, one bystander on each step above, so that
    # every win of Alice's shows as a step (no step falls empty).
    users = members(*([1] * (sets + 1)), *range(2, sets + 2))
    alice, opponents, bystanders = users[0], users[1 : sets + 1], users[sets + 1 :]
    game_sets = [start_set(alice, opponent) for opponent in opponents]
    run_together(
        [
            lambda s=game_set, u=opponent: _resign_all(s, u)
            for game_set, opponent in zip(game_sets, opponents, strict=True)
        ]
    )
    assert steps()[alice.username] == 1 + sets
    assert all(steps()[o.username] == 1 for o in opponents)
    assert [steps()[b.username] for b in bystanders] == list(range(2, sets + 2))
    ups = HillEvent.objects.filter(user=alice, kind="up").order_by("id")
    assert [(e.step_before, e.step_after) for e in ups] == [(k, k + 1) for k in range(1, sets + 1)]
    assert HillMatch.objects.filter(applied_at__isnull=False).count() == sets
    hill = Hill.objects.get()
    assert hill.king is None  # Alice shares the top step with its bystander


HILLS = ("pente-turn", "gomoku-turn", "keryo-pente-turn", "g-pente-turn", "d-pente-turn")


def test_hill_changes_applied_from_threads_at_once_read_the_steps_the_other_left():
    # The hill's own lock, alone (the sets' results applied directly, with no rating change
    # to serialize them): on each hill a beats b while c beats d, at the same moment.
    rounds = []
    for slug in HILLS:
        a, b, c, d = members(1, 1, 1, 1, slug=slug)
        first, second = start_set(a, b, slug=slug), start_set(c, d, slug=slug)
        for game_set, winner in ((first, a), (second, c)):
            result = "player1" if game_set.player1_id == winner.pk else "player2"
            GameSet.objects.filter(pk=game_set.pk).update(
                status="finished", result=result, winner=winner
            )
            game_set.refresh_from_db()
        rounds.append((slug, (a, b, c, d), first, second))
    jobs = []
    for _, _, first, second in rounds:
        for game_set in (first, second):
            match_id = HillMatch.objects.get(game_set=game_set).pk
            jobs.append(lambda m=match_id, s=game_set: hill_apply_set(match_id=m, game_set=s))
    run_together(jobs)
    for slug, (a, b, c, d), _, _ in rounds:
        assert steps(slug) == {a.username: 2, b.username: 1, c.username: 2, d.username: 1}
    assert not Hill.objects.filter(king__isnull=False).exists()
    assert HillEvent.objects.filter(kind="crowned").count() == len(HILLS)
