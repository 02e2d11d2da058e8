"""Applying finished sets to ratings: once, through the set_finished signal, and only for
rated sets between humans; statistics; crowns; the recompute command."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.engine import Outcome, Termination
from games.play.actions import game_resign, move_play
from games.play.create import set_create
from games.play.finish import game_finish
from games.play.signals import set_finished
from ratings.models import Crown, Rating, RatingChange
from ratings.replay import ratings_replay
from ratings.selectors import rating_for
from ratings.services import crown_award, rating_apply_set
from tests.factories import UserFactory
from tests.ratings.factories import RatingFactory, finished_set_row, play_set

pytestmark = pytest.mark.django_db


def _rating(user, category="normal", variant="Pente") -> Rating:
    return Rating.objects.get(user=user, variant=variant, category=category)


def test_finishing_a_rated_set_through_the_games_service_applies_it_once():
    alice, bob = UserFactory(), UserFactory()
    game_set = play_set(alice, bob, "player1")
    assert game_set.status == "finished" and game_set.result == "player1"
    # Both provisional with no results: 1600 + 200 and 1600 - 200.
    assert _rating(alice).rating == pytest.approx(1800)
    assert _rating(bob).rating == pytest.approx(1400)
    assert RatingChange.objects.filter(game_set=game_set).count() == 2
    # The finishing code running again changes nothing.
    assert rating_apply_set(game_set=game_set) is False
    set_finished.send(sender=type(game_set), game_set=game_set)
    assert _rating(alice).results == 1
    assert RatingChange.objects.filter(game_set=game_set).count() == 2


def test_first_result_creates_rating_rows_at_1600_before_applying():
    alice, bob = UserFactory(), UserFactory()
    assert rating_for(user=alice, variant="Pente", category="normal") is None
    game_set = finished_set_row(alice, bob, "draw")
    assert rating_apply_set(game_set=game_set) is True
    # Both at 1600, draw, provisional: value 1600, stays 1600.
    assert rating_for(user=alice, variant="Pente", category="normal") == (1600.0, 1)
    change = RatingChange.objects.get(game_set=game_set, user=alice)
    assert (change.rating_before, change.rating_after, change.result) == (1600.0, 1600.0, "draw")
    assert change.opponent == bob and change.created_at == game_set.finished_at


def test_established_players_get_the_issue_example_figures():
    alice, bob = UserFactory(), UserFactory()
    RatingFactory(user=alice, rating=1700, results=30)
    RatingFactory(user=bob, rating=1500, results=25)
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1"))
    assert round(_rating(alice).rating, 2) == 1715.38
    assert round(_rating(bob).rating, 2) == 1484.62


def test_newcomer_beating_established_goes_to_2000_and_opponent_stays():
    newcomer, veteran = UserFactory(), UserFactory()
    RatingFactory(user=veteran, rating=1600, results=40)
    rating_apply_set(game_set=finished_set_row(veteran, newcomer, "player2"))
    assert _rating(newcomer).rating == pytest.approx(2000)
    assert _rating(veteran).rating == 1600
    assert _rating(veteran).results == 41 and _rating(veteran).losses == 1


def test_one_game_set_uses_k_32():
    alice, bob = UserFactory(), UserFactory()
    RatingFactory(user=alice, rating=1600, results=20)
    RatingFactory(user=bob, rating=1600, results=20)
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1", games_count=1))
    assert _rating(alice).rating == pytest.approx(1616)
    assert _rating(bob).rating == pytest.approx(1584)


@pytest.mark.parametrize(
    "fields",
    [
        {"rated": False},
        {"status": "cancelled"},
        {"status": "in_progress"},
    ],
    ids=["unrated", "cancelled", "unfinished"],
)
def test_sets_that_are_not_rated_results_change_nothing(fields):
    alice, bob = UserFactory(), UserFactory()
    game_set = finished_set_row(alice, bob, "player1", **fields)
    assert rating_apply_set(game_set=game_set) is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_sets_against_computer_players_change_no_rating():
    alice, robot = UserFactory(), UserFactory(is_computer=True)
    RatingFactory(user=alice, rating=1650, results=22)
    game_set = play_set(alice, robot, "player1")
    assert game_set.result == "player1"
    assert _rating(alice).rating == 1650 and _rating(alice).results == 22
    assert not Rating.objects.filter(user=robot).exists()


def test_ratings_are_kept_per_category_and_untimed_counts_as_normal():
    alice, bob = UserFactory(), UserFactory()
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1", category="untimed"))
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1", category="speed"))
    rating_apply_set(game_set=finished_set_row(alice, bob, "player2", category="turn"))
    assert set(Rating.objects.filter(user=alice).values_list("category", flat=True)) == {
        "normal",
        "speed",
        "turn",
    }
    assert rating_for(user=alice, variant="Pente", category="untimed") == rating_for(
        user=alice, variant="Pente", category="normal"
    )
    assert _rating(alice, "turn").rating < 1600 < _rating(alice, "speed").rating


def test_speed_set_through_the_games_service_rates_the_speed_rating():
    alice, bob = UserFactory(), UserFactory()
    play_set(alice, bob, "player2", time_control="live", initial_minutes=5)
    assert _rating(bob, "speed").wins == 1
    assert not Rating.objects.filter(category="normal").exists()


def test_statistics_count_results_and_streaks():
    alice, bob = UserFactory(), UserFactory()
    for result in ["player1", "player1", "player1", "draw", "player1", "player2", "player1"]:
        rating_apply_set(game_set=finished_set_row(alice, bob, result))
    row = _rating(alice)
    assert (row.wins, row.losses, row.draws, row.results) == (5, 1, 1, 7)
    assert (row.streak, row.best_streak) == (1, 3)
    other = _rating(bob)
    assert (other.wins, other.losses, other.draws) == (1, 5, 1)
    assert (other.streak, other.best_streak) == (0, 1)


def test_becoming_a_computer_updates_the_rating_rows_flag():
    alice = UserFactory()
    RatingFactory(user=alice)
    alice.is_computer = True
    alice.save()
    assert _rating(alice).is_computer is True


def test_crown_award_is_idempotent_per_tournament():
    alice = UserFactory()
    from django.utils import timezone

    now = timezone.now()
    crown_award(user=alice, tournament_name="Spring", tournament_id=7, variant="Pente", won_at=now)
    crown_award(user=alice, tournament_name="Spring", tournament_id=7, variant="Pente", won_at=now)
    assert Crown.objects.filter(user=alice).count() == 1


def test_recompute_finds_no_difference_after_live_application():
    players = [UserFactory() for _ in range(4)]
    results = ["player1", "player2", "draw"]
    for i in range(30):
        a, b = players[i % 4], players[(i * 3 + 1) % 4]
        if a == b:
            continue
        rating_apply_set(game_set=finished_set_row(a, b, results[i % 3], games_count=1 + i % 2))
    replay = ratings_replay()
    assert replay.sets == RatingChange.objects.count() // 2
    assert replay.differences == []
    call_command("recompute_ratings", "--check")


def test_recompute_check_fails_and_fix_repairs_a_tampered_rating(capsys):
    alice, bob = UserFactory(), UserFactory()
    for result in ["player1", "player2", "player1"]:
        rating_apply_set(game_set=finished_set_row(alice, bob, result))
    expected = _rating(alice).rating
    Rating.objects.filter(user=alice).update(rating=1234.5, wins=0)
    with pytest.raises(CommandError):
        call_command("recompute_ratings", "--check")
    out = capsys.readouterr().out
    assert "rating" in out and "1234.5" in out
    call_command("recompute_ratings", "--fix")
    assert _rating(alice).rating == pytest.approx(expected) and _rating(alice).wins == 2
    call_command("recompute_ratings", "--check")


def test_recompute_fix_applies_sets_that_were_never_applied():
    alice, bob = UserFactory(), UserFactory()
    finished_set_row(alice, bob, "player1")  # the signal never ran for this one
    assert ratings_replay().differences
    call_command("recompute_ratings", "--fix")
    assert _rating(alice).rating == pytest.approx(1800)
    assert RatingChange.objects.count() == 2
    assert ratings_replay().differences == []


@pytest.mark.slow
def test_bucket_rank_equals_a_plain_count_under_every_filter():
    import random
    from datetime import timedelta

    from django.utils import timezone

    from ratings.selectors import BoardFilter, leaderboard_rank

    rng = random.Random(11)
    now = timezone.now()
    rows = []
    for _ in range(120):
        rows.append(
            RatingFactory(
                # Many ties and values on bucket edges (multiples of 10).
                rating=rng.choice(
                    [1600.0, 1610.0, 1609.999, 1700.0, 1400.5, rng.uniform(900, 2400)]
                ),
                results=rng.choice([0, 5, 19, 20, 21, 60]),
                is_computer=rng.random() < 0.1,
                last_played_at=now - timedelta(days=rng.randint(0, 60)),
                user=UserFactory(is_active=rng.random() > 0.1),  # some accounts deactivated
            )
        )
    assert any(not row.listed for row in rows)
    for provisional in (False, True):
        for computers in (False, True):
            for active_days in (None, 30):
                board = BoardFilter(
                    variant="Pente",
                    category="normal",
                    provisional=provisional,
                    computers=computers,
                    active_days=active_days,
                )
                listed = list(board.queryset())
                assert all(row.user.is_active for row in listed)
                for row in rows:
                    rank = leaderboard_rank(board=board, row=row)
                    if row not in listed:
                        assert rank is None
                    else:
                        assert rank == 1 + sum(r.rating > row.rating for r in listed)


def test_rank_buckets_follow_rating_changes_and_computer_flags():
    from ratings.models import RatingBucket
    from ratings.services import rating_buckets_count

    def stored():
        return {
            (b.variant, b.category, b.established, b.is_computer, b.bucket): b.players
            for b in RatingBucket.objects.exclude(players=0)
        }

    alice, bob = UserFactory(), UserFactory()
    RatingFactory(user=bob, rating=1600, results=19)
    for result in ["player1", "player2", "draw", "player1"]:
        rating_apply_set(game_set=finished_set_row(alice, bob, result))
    assert stored() == dict(rating_buckets_count())
    assert sum(stored().values()) == 2
    bob.is_computer = True
    bob.save()
    assert stored() == dict(rating_buckets_count())
    Rating.objects.filter(user=alice).delete()
    assert stored() == dict(rating_buckets_count())
    assert sum(stored().values()) == 1


def test_recompute_check_notices_a_drifted_rank_bucket():
    from ratings.models import RatingBucket

    alice, bob = UserFactory(), UserFactory()
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1"))
    RatingBucket.objects.update(players=7)
    with pytest.raises(CommandError):
        call_command("recompute_ratings", "--check")
    call_command("recompute_ratings", "--fix")
    call_command("recompute_ratings", "--check")
    assert sum(RatingBucket.objects.values_list("players", flat=True)) == 2


def test_rating_rows_carry_the_username_and_follow_a_rename():
    alice, bob = UserFactory(), UserFactory()
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1"))
    assert _rating(alice).username == alice.username
    alice.username = "alice_renamed"
    alice.save()
    assert _rating(alice).username == "alice_renamed"
    bob.username = "bob_renamed"
    bob.save(update_fields=["username"])
    assert _rating(bob).username == "bob_renamed"


def test_recompute_check_notices_a_stale_username_and_fix_repairs_it():
    alice, bob = UserFactory(), UserFactory()
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1"))
    Rating.objects.filter(user=alice).update(username="someone_else")
    assert [d.what for d in ratings_replay().differences] == ["username"]
    call_command("recompute_ratings", "--fix")
    assert _rating(alice).username == alice.username
    assert ratings_replay().differences == []


def test_bucket_rank_is_exact_just_below_and_on_bucket_edges():
    import math

    from ratings.selectors import BoardFilter, leaderboard_rank

    values = [1610.0, math.nextafter(1610.0, 0), math.nextafter(1610.0, 2000), 1600.0, 1620.0]
    rows = [RatingFactory(rating=value, results=30) for value in values]
    board = BoardFilter(variant="Pente", category="normal")
    for row in rows:
        assert leaderboard_rank(board=board, row=row) == 1 + sum(v > row.rating for v in values)


# --- sets nobody played -------------------------------------------------------------------


def _forfeit_set(player1, player2, *, played_plies: int = 0, games_count: int = 2):
    """A rated set finished by forfeits (player2 forfeits every game, as a withdrawal does),
    after ``played_plies`` stones by the players in game 1 (Pente: the centre stone is
    automatic, so seat 2 of game 1, player2, places the first)."""
    from django.db import transaction

    from games.play.models import Game

    with transaction.atomic():
        game_set = set_create(
            player1=player1, player2=player2, variant="Pente", rated=True, games_count=games_count
        )
    games = list(game_set.games.order_by("set_index"))
    centre = 9 * 19 + 9
    seats = [player2, player1]
    for i in range(played_plies):
        game = Game.objects.get(pk=games[0].pk)
        move_play(game_id=game.pk, user=seats[i % 2], ply=game.ply, points=[centre + 1 + i])
    for game in games:
        winner_seat = 1 if game.set_index == 1 else 2  # player1's seat
        with transaction.atomic():
            game_finish(
                game=Game.objects.get(pk=game.pk),
                outcome=Outcome(Termination.FORFEIT, (winner_seat,)),
            )
    game_set.refresh_from_db()
    return game_set


@pytest.mark.parametrize("games_count", [1, 2])
def test_a_set_forfeited_before_any_stone_changes_no_rating(games_count):
    alice, bob = UserFactory(), UserFactory()
    game_set = _forfeit_set(alice, bob, games_count=games_count)
    assert (game_set.status, game_set.result) == ("finished", "player1")
    assert not Rating.objects.filter(user__in=[alice, bob]).exists()
    assert not RatingChange.objects.filter(game_set=game_set).exists()
    assert rating_apply_set(game_set=game_set) is False
    # The replay (and so the recompute command) skips it too.
    replay = ratings_replay()
    assert replay.sets == 0 and replay.differences == []
    call_command("recompute_ratings", "--check")


def test_a_set_forfeited_after_real_play_is_a_normal_result():
    alice, bob = UserFactory(), UserFactory()
    game_set = _forfeit_set(alice, bob, played_plies=1)
    assert _rating(alice).rating == pytest.approx(1800)
    assert _rating(bob).rating == pytest.approx(1400)
    assert RatingChange.objects.filter(game_set=game_set).count() == 2
    replay = ratings_replay()
    assert replay.sets == 1 and replay.differences == []


def test_a_set_with_one_game_played_and_one_forfeited_unplayed_counts():
    from django.db import transaction

    from games.play.models import Game

    alice, bob = UserFactory(), UserFactory()
    with transaction.atomic():
        game_set = set_create(player1=alice, player2=bob, variant="Pente", rated=True)
    first, second = game_set.games.order_by("set_index")
    with transaction.atomic():
        game_resign(game_id=first.pk, user=bob)  # a result, though no stone was played
    with transaction.atomic():
        game_finish(game=Game.objects.get(pk=second.pk), outcome=Outcome(Termination.FORFEIT, (2,)))
    assert RatingChange.objects.filter(game_set=game_set).count() == 2
    assert _rating(alice).rating == pytest.approx(1800)


def test_recompute_fix_drops_ratings_from_sets_nobody_played():
    alice, bob = UserFactory(), UserFactory()
    unplayed = _forfeit_set(alice, bob)
    # As stored before the rule: the unplayed set moved both ratings by 200.
    RatingFactory(user=alice, rating=1800.0, results=1, wins=1, streak=1, best_streak=1)
    RatingFactory(user=bob, rating=1400.0, results=1, losses=1)
    with pytest.raises(CommandError):
        call_command("recompute_ratings", "--check")
    call_command("recompute_ratings", "--fix")
    assert not Rating.objects.filter(user__in=[alice, bob]).exists()
    assert not RatingChange.objects.filter(game_set=unplayed).exists()
    call_command("recompute_ratings", "--check")


def test_a_deactivated_account_leaves_the_boards_and_rank_counts_and_comes_back():
    from ratings.models import RatingBucket
    from ratings.selectors import BoardFilter, board_rank, leaderboard_page
    from ratings.services import rating_buckets_count

    def stored():
        return {
            (b.variant, b.category, b.established, b.is_computer, b.bucket): b.players
            for b in RatingBucket.objects.exclude(players=0)
        }

    board = BoardFilter(variant="Pente", category="normal")
    top, middle, low = (RatingFactory(rating=r, results=30) for r in (2000, 1900, 1800))

    def names():
        return [line[-1] for line in leaderboard_page(board=board, limit=10)]

    banned = middle.user
    banned.is_active = False
    banned.save()
    assert _rating(banned).listed is False
    assert names() == [top.user.username, low.user.username]
    assert board_rank(board=board, user_id=low.user_id).rank == 2
    assert board_rank(board=board, user_id=banned.pk).rank is None
    assert stored() == dict(rating_buckets_count())
    assert sum(stored().values()) == 2

    banned.is_active = True
    banned.save(update_fields=["is_active"])
    assert names() == [top.user.username, banned.username, low.user.username]
    assert board_rank(board=board, user_id=low.user_id).rank == 3
    assert stored() == dict(rating_buckets_count())


def test_a_deactivated_account_gets_an_unlisted_row_from_its_first_rated_result():
    alice, bob = UserFactory(), UserFactory(is_active=False)
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1"))
    assert (_rating(alice).listed, _rating(bob).listed) == (True, False)
    assert ratings_replay().differences == []


def test_recompute_check_notices_a_stale_listed_flag_and_fix_repairs_it():
    from ratings.models import RatingBucket

    alice, bob = UserFactory(), UserFactory()
    rating_apply_set(game_set=finished_set_row(alice, bob, "player1"))
    User = type(alice)
    User.objects.filter(pk=alice.pk).update(is_active=False)  # no signal: the copy is stale
    assert [d.what for d in ratings_replay().differences] == ["listed"]
    call_command("recompute_ratings", "--fix")
    assert _rating(alice).listed is False and _rating(bob).listed is True
    assert sum(RatingBucket.objects.values_list("players", flat=True)) == 1  # bob's alone
    assert ratings_replay().differences == []
