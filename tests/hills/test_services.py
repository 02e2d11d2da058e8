"""The hill's rules, through its services and the games' own ways of ending a set."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from games.challenges.services import challenge_decline
from games.clocks.timecontrol import TimeControl
from games.engine import Outcome, Termination
from games.play.create import set_create
from games.play.finish import game_finish
from games.play.models import Game, GameSet
from games.play.signals import set_finished
from hills.models import Hill, HillEvent, HillMatch, HillMember
from hills.selectors import hill_detail, hills_list, kings
from hills.services import (
    hill_apply_set,
    hill_challenge,
    hill_join,
    hill_leave,
    hill_open,
    hills_sweep_idle,
)
from pente_site.errors import Conflict, Forbidden, Invalid, NotFound
from ratings.models import RatingChange
from tests.factories import UserFactory
from tests.hills.helpers import SLUG, TURN, lose_set, members, play, start_set, steps

pytestmark = pytest.mark.django_db


def _king():
    return Hill.objects.get(variant="Pente", kind="turn").king


def test_everyone_joins_on_the_bottom_step():
    alice, bob = members(1, 2)
    carol = UserFactory()
    hill_join(user=carol, slug=SLUG)
    assert steps()[carol.username] == 1
    with pytest.raises(Conflict) as refused:
        hill_join(user=carol, slug=SLUG)
    assert refused.value.code == "already_member"


def test_a_hill_is_named_by_game_and_kind_and_live_and_turn_are_separate():
    alice = UserFactory()
    hill_join(user=alice, slug="pente-live")
    assert steps("pente-live") == {alice.username: 1} and steps("pente-turn") == {}
    with pytest.raises(NotFound):
        hill_join(user=alice, slug="pente-weekly")
    assert {h["slug"] for h in hills_list()} >= {"pente-live", "go-9-turn", "connect6-live"}


def test_winning_a_set_moves_the_winner_up_and_the_loser_down():
    alice, bob, carol, dave = members(2, 2, 2, 1)
    game_set = play(alice, bob)
    assert game_set.winner_id == alice.pk
    assert steps() == {alice.username: 3, bob.username: 1, carol.username: 2, dave.username: 1}
    history = {(e.user_id, e.kind) for e in HillEvent.objects.filter(game_set=game_set)}
    assert history == {(alice.pk, "up"), (bob.pk, "down")}


def test_the_loser_on_the_bottom_step_stays_there():
    alice, bob = members(1, 1)
    play(bob, alice)
    assert steps() == {alice.username: 1, bob.username: 2}
    down = HillEvent.objects.get(user=alice, kind="down")
    assert (down.step_before, down.step_after) == (1, 1)


def _finish_games(game_set: GameSet, winner, termination: Termination) -> GameSet:
    """End every game of the set with ``termination``, won by ``winner`` (None: drawn)."""
    for game in Game.objects.filter(game_set=game_set).order_by("set_index"):
        seats = {s.user_id: s.seat for s in game.seat_rows.all()}
        winners = () if winner is None else (seats[winner.pk],)
        with transaction.atomic():
            game_finish(
                game=Game.objects.select_for_update().get(pk=game.pk),
                outcome=Outcome(termination, winners),
            )
    game_set.refresh_from_db()
    return game_set


def test_a_draw_moves_nobody():
    alice, bob = members(2, 1)
    game_set = _finish_games(start_set(alice, bob), None, Termination.DRAW)
    assert game_set.result == "draw"
    assert steps() == {alice.username: 2, bob.username: 1}
    assert HillMatch.objects.get(game_set=game_set).status == "finished"
    assert not HillEvent.objects.filter(game_set=game_set).exists()


def test_empty_steps_are_removed():
    alice, bob, carol = members(3, 2, 1)
    play(alice, bob)  # alice 3 -> 4, bob 2 -> 1: steps 2 and 3 left empty are removed
    assert steps() == {alice.username: 2, bob.username: 1, carol.username: 1}
    play(bob, alice)  # bob 1 -> 2, alice 2 -> 1
    play(carol, bob)  # carol 1 -> 2, bob 2 -> 1... every step in use, none empty
    assert steps() == {alice.username: 1, bob.username: 1, carol.username: 2}
    play(alice, carol)  # alice 1 -> 2, carol 2 -> 1: all on step 1 is one step
    assert steps() == {alice.username: 2, bob.username: 1, carol.username: 1}


def test_the_bottom_step_left_empty_is_removed_too():
    alice, bob, carol = members(1, 2, 2)
    hill_leave(user=alice, slug=SLUG)
    assert steps() == {bob.username: 1, carol.username: 1}


def test_steps_stay_compact_after_every_change():
    alice, bob, carol, dave = members(1, 1, 1, 1)
    play(alice, bob)
    play(alice, carol)
    play(alice, dave)
    # Alice on 4 would leave steps 2 and 3 empty: the staircase is 1 (the others) and 2.
    assert steps() == {alice.username: 2, bob.username: 1, carol.username: 1, dave.username: 1}
    hill_leave(user=bob, slug=SLUG)
    hill_leave(user=carol, slug=SLUG)
    hill_leave(user=dave, slug=SLUG)
    assert steps() == {alice.username: 1}


def test_the_player_alone_on_the_top_step_is_king_and_counts_conquests():
    alice, bob, carol = members(1, 1, 1)
    assert _king() is None  # everyone on one step
    play(alice, bob)
    assert _king() == alice
    assert kings() == {alice.pk: 1}
    play(bob, alice)  # bob 1 -> 2, alice 2 -> 1: bob alone on top
    assert _king() == bob
    play(alice, bob)  # alice 1 -> 2 , bob 2 -> 1
    assert _king() == alice and kings() == {alice.pk: 2}
    crowned = HillEvent.objects.filter(kind="crowned").order_by("id")
    assert [e.user_id for e in crowned] == [alice.pk, bob.pk, alice.pk]
    # Two on the top step: no king.
    play(carol, bob)
    assert steps()[carol.username] == steps()[alice.username] == 2 and _king() is None
    detail = hill_detail(variant="Pente", kind="turn", hill=hill_open(slug=SLUG))
    assert detail["king"] is None and [s["step"] for s in detail["steps"]] == [2, 1]


def test_the_hill_moves_in_the_transaction_of_the_rating_change_exactly_once():
    alice, bob = members(1, 1)
    game_set = play(alice, bob)
    assert RatingChange.objects.filter(game_set=game_set).count() == 2
    match = HillMatch.objects.get(game_set=game_set)
    assert match.applied_at is not None
    # The signal sent again, and the service called again, change nothing.
    set_finished.send(sender=type(game_set), game_set=game_set)
    assert hill_apply_set(match_id=match.pk, game_set=game_set) is False
    assert steps() == {alice.username: 2, bob.username: 1}
    assert HillEvent.objects.filter(game_set=game_set).count() == 2


def test_a_set_lost_on_time_moves_the_hill():
    alice, bob = members(1, 1)
    game_set = start_set(alice, bob)
    game_set = _finish_games(game_set, alice, Termination.TIMEOUT)
    assert game_set.winner == alice
    assert steps() == {alice.username: 2, bob.username: 1}


def test_a_set_forfeited_moves_the_hill():
    alice, bob = members(1, 1)
    _finish_games(start_set(alice, bob), bob, Termination.FORFEIT)
    assert steps() == {alice.username: 1, bob.username: 2}


def test_a_result_still_counts_when_the_opponent_has_left_the_hill():
    alice, bob, carol = members(1, 2, 2)
    game_set = start_set(alice, bob)
    hill_leave(user=bob, slug=SLUG)
    assert steps() == {alice.username: 1, carol.username: 2} and _king() == carol
    lose_set(game_set, bob)
    assert steps() == {alice.username: 1, carol.username: 1} and _king() is None
    assert HillEvent.objects.get(game_set=game_set).kind == "up"
    assert HillEvent.objects.filter(user=bob, kind="left").exists()


def test_the_winner_who_left_mid_set_is_not_moved_and_the_loser_is():
    alice, bob, carol = members(3, 2, 1)
    game_set = start_set(bob, alice)
    hill_leave(user=bob, slug=SLUG)
    assert steps() == {alice.username: 2, carol.username: 1}
    lose_set(game_set, alice)
    assert steps() == {alice.username: 1, carol.username: 1}
    assert HillEvent.objects.get(game_set=game_set, user=alice).kind == "down"
    assert not HillMember.objects.filter(user=bob).exists()


def test_reach_is_up_to_two_steps_above():
    low, mid, top, summit = members(1, 2, 3, 4)
    hill_challenge(user=low, slug=SLUG, opponent=top.username, time_control=TURN)
    with pytest.raises(Forbidden) as refused:
        hill_challenge(user=low, slug=SLUG, opponent=summit.username, time_control=TURN)
    assert refused.value.code == "out_of_reach"
    hill_challenge(user=summit, slug=SLUG, opponent=low.username, time_control=TURN)
    with override_settings(HILL_REACH_STEPS=3):
        hill_challenge(user=low, slug=SLUG, opponent=summit.username, time_control=TURN)


def test_only_members_challenge_members():
    alice, bob = members(1, 1)
    outsider = UserFactory()
    with pytest.raises(NotFound):
        hill_challenge(user=outsider, slug=SLUG, opponent=alice.username, time_control=TURN)
    with pytest.raises(NotFound):
        hill_challenge(user=alice, slug=SLUG, opponent=outsider.username, time_control=TURN)
    with pytest.raises(Invalid):
        hill_challenge(user=alice, slug=SLUG, opponent=alice.username, time_control=TURN)


def test_hill_sets_are_rated_and_of_the_hill_kind():
    alice, bob = members(1, 1)
    with pytest.raises(Invalid) as refused:
        hill_challenge(
            user=alice, slug=SLUG, opponent=bob.username, time_control=TimeControl.live(5)
        )
    assert refused.value.code == "hill_time_control"
    live_a, live_b = members(1, 1, slug="pente-live")
    match = hill_challenge(
        user=live_a, slug="pente-live", opponent=live_b.username, time_control=TimeControl.live(5)
    )
    assert match.challenge.rated is True


@override_settings(HILL_MAX_TURN_SETS=2)
def test_turn_based_members_have_at_most_a_few_sets_going_and_cannot_be_challenged_beyond():
    alice, bob, carol, dave = members(1, 1, 1, 1)
    start_set(alice, bob)
    hill_challenge(user=alice, slug=SLUG, opponent=carol.username, time_control=TURN)
    with pytest.raises(Conflict) as refused:
        hill_challenge(user=alice, slug=SLUG, opponent=dave.username, time_control=TURN)
    assert refused.value.code == "too_many_hill_sets"
    with pytest.raises(Conflict):  # alice cannot be challenged either
        hill_challenge(user=dave, slug=SLUG, opponent=alice.username, time_control=TURN)
    hill_challenge(user=dave, slug=SLUG, opponent=bob.username, time_control=TURN)


def test_a_finished_set_frees_a_place():
    alice, bob, carol = members(1, 1, 1)
    with override_settings(HILL_MAX_TURN_SETS=1):
        game_set = start_set(alice, bob)
        with pytest.raises(Conflict):
            hill_challenge(user=alice, slug=SLUG, opponent=carol.username, time_control=TURN)
        lose_set(game_set, bob)
        hill_challenge(user=alice, slug=SLUG, opponent=carol.username, time_control=TURN)


def test_declining_a_hill_challenge_with_a_long_timeout_costs_a_step():
    alice, bob, carol = members(1, 2, 1)
    short = hill_challenge(user=alice, slug=SLUG, opponent=bob.username, time_control=TURN)
    challenge_decline(challenge_id=short.challenge_id, user=bob)
    assert steps()[bob.username] == 2
    long = hill_challenge(
        user=alice, slug=SLUG, opponent=bob.username, time_control=TimeControl.turn(7)
    )
    challenge_decline(challenge_id=long.challenge_id, user=bob)
    assert steps()[bob.username] == 1
    assert HillEvent.objects.get(kind="declined").user == bob
    assert HillMatch.objects.get(pk=long.pk).status == "closed"


def test_idle_members_are_removed_by_the_sweeper_once():
    alice, bob, carol = members(2, 1, 1)
    later = timezone.now() + timedelta(days=32)
    HillMember.objects.filter(user=carol).update(active_at=later - timedelta(days=1))
    assert hills_sweep_idle(now=later) == 2
    assert steps() == {carol.username: 1}
    assert {e.user_id for e in HillEvent.objects.filter(kind="idle")} == {alice.pk, bob.pk}
    assert hills_sweep_idle(now=later) == 0
    assert HillEvent.objects.filter(kind="idle").count() == 2


def test_live_hills_keep_idle_members_longer():
    (alice,) = members(1, slug="pente-live")
    assert hills_sweep_idle(now=timezone.now() + timedelta(days=40)) == 0
    assert hills_sweep_idle(now=timezone.now() + timedelta(days=63)) == 1
    assert steps("pente-live") == {}


def test_a_member_with_a_set_going_is_not_idle():
    alice, bob = members(1, 1)
    start_set(alice, bob)
    assert hills_sweep_idle(now=timezone.now() + timedelta(days=60)) == 0


def test_guests_and_computers_cannot_join():
    guest = UserFactory(is_guest=True)
    with pytest.raises(Forbidden):
        hill_join(user=guest, slug=SLUG)
    computer = UserFactory(username="computer3", is_computer=True, bot_level=3)
    with pytest.raises(Forbidden):
        hill_join(user=computer, slug=SLUG)


def test_a_hill_set_accepted_counts_as_activity_and_shows_whose_turn():
    alice, bob = members(1, 1)
    game_set = start_set(alice, bob)
    detail = hill_detail(variant="Pente", kind="turn", hill=hill_open(slug=SLUG))
    (step,) = detail["steps"]
    sets = {m["username"]: m["sets"] for m in step["members"]}
    assert sets[alice.username][0]["game_set"] == game_set.pk
    assert sets[alice.username][0]["to_move"] in (alice.username, bob.username)


def test_a_set_not_made_by_a_hill_challenge_moves_nobody():
    alice, bob = members(1, 1)
    game_set = set_create(player1=alice, player2=bob, variant="Pente", rated=True)
    lose_set(game_set, bob)
    assert steps() == {alice.username: 1, bob.username: 1}


def test_a_banned_account_leaves_its_hills_and_the_steps_close_up():
    alice, bob, carol = members(2, 1, 1)
    hill_join(user=alice, slug="pente-live")
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert steps() == {bob.username: 1, carol.username: 1}
    assert steps("pente-live") == {}
    assert HillEvent.objects.filter(user=alice, kind="left").count() == 2


def test_a_cancelled_hill_set_no_longer_counts_as_going():
    alice, bob, carol = members(1, 1, 1)
    with override_settings(HILL_MAX_TURN_SETS=1):
        game_set = start_set(alice, bob)
        with pytest.raises(Conflict):
            hill_challenge(user=alice, slug=SLUG, opponent=carol.username, time_control=TURN)
        GameSet.objects.filter(pk=game_set.pk).update(status="cancelled")
        hill_challenge(user=alice, slug=SLUG, opponent=carol.username, time_control=TURN)
    assert steps() == {alice.username: 1, bob.username: 1, carol.username: 1}
    later = timezone.now() + timedelta(days=32)
    assert hills_sweep_idle(now=later) == 1  # Bob: his only set was cancelled


def test_a_hill_set_played_keeps_its_players_on_the_hill():
    alice, bob, carol = members(1, 1, 1)
    long_ago = timezone.now() - timedelta(days=40)
    HillMember.objects.update(active_at=long_ago, joined_at=long_ago)
    play(alice, bob)
    assert hills_sweep_idle() == 1  # Carol only: Alice and Bob just played
    assert set(steps()) == {alice.username, bob.username}
