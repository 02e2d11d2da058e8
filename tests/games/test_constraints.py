"""The database itself refuses rows that break the games app's invariants (CHECK and UNIQUE
constraints), whatever code writes them."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.challenges.models import Challenge
from games.choices import Category, TimeControlKind
from games.clocks.timecontrol import TimeControl
from games.play.create import game_create
from games.play.models import Game, GameSet, Move
from pente_site.errors import DomainError
from tests.factories import GameFactory, GameSetFactory, MoveFactory, SeatFactory, UserFactory

pytestmark = pytest.mark.django_db


def _refused(make) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def _constraint_values(model, name: str) -> set[str]:
    """The values a ``choice_check`` constraint allows."""
    (constraint,) = [c for c in model._meta.constraints if c.name == name]
    ((lookup, values),) = constraint.condition.children
    assert lookup.endswith("__in")
    return set(values)


@pytest.mark.parametrize(
    ("model", "name", "choices"),
    [
        (Challenge, "challenge_kind_valid", Challenge.Kind),
        (Challenge, "challenge_restriction_valid", Challenge.Restriction),
        (Challenge, "challenge_status_valid", Challenge.Status),
        (Challenge, "challenge_time_control_valid", TimeControlKind),
        (GameSet, "gameset_status_valid", GameSet.Status),
        (GameSet, "gameset_category_valid", Category),
        (Game, "game_status_valid", Game.Status),
        (Game, "game_end_reason_valid", Game.EndReason),
        (Game, "game_category_valid", Category),
        (Game, "game_time_control_valid", TimeControlKind),
    ],
)
def test_choice_constraints_allow_exactly_the_choices(model, name, choices):
    assert _constraint_values(model, name) == set(choices.values)


def test_a_game_status_outside_the_choices_is_refused():
    game = GameFactory()
    _refused(lambda: Game.objects.filter(pk=game.pk).update(status="paused"))


@pytest.mark.parametrize("seats", [1, 7])
def test_a_game_with_fewer_than_2_or_more_than_6_seats_is_refused(seats):
    _refused(lambda: GameFactory(seats=seats, players=[]))


def test_a_partners_game_needs_four_seats():
    _refused(lambda: GameFactory(seats=3, partners=True, players=[]))
    assert GameFactory(seats=4, partners=True, players=[]).partners


def test_time_control_numbers_out_of_range_are_refused():
    _refused(lambda: GameFactory(increment_seconds=60, players=[]))
    _refused(lambda: GameFactory(initial_minutes=1000, players=[]))
    _refused(lambda: GameFactory(days_per_move=31, players=[]))


def test_a_finished_game_without_finished_at_or_end_reason_is_refused():
    game = GameFactory()
    rows = Game.objects.filter(pk=game.pk)
    _refused(lambda: rows.update(status="finished", end_reason="five", finished_at=None))
    _refused(lambda: rows.update(status="finished", end_reason="", finished_at=timezone.now()))
    _refused(lambda: rows.update(end_reason="resign"))  # still in progress
    rows.update(status="finished", end_reason="resign", finished_at=timezone.now())


def test_an_archived_record_may_have_an_end_reason_or_not_and_no_finished_at():
    game = GameFactory(imported=True, players=[])
    assert game.status == "archived" and game.finished_at is None
    rows = Game.objects.filter(pk=game.pk)
    rows.update(end_reason="five", winner_seats=[1])
    rows.update(end_reason="", winner_seats=[])


def test_only_imported_records_are_archived_and_every_one_is():
    played = GameFactory()
    _refused(lambda: Game.objects.filter(pk=played.pk).update(status="archived"))
    record = GameFactory(imported=True, players=[])
    _refused(lambda: Game.objects.filter(pk=record.pk).update(status="in_progress"))
    _refused(
        lambda: Game.objects.filter(pk=record.pk).update(
            status="finished", end_reason="five", finished_at=timezone.now()
        )
    )


def test_an_undo_request_names_a_seat_of_the_game():
    game = GameFactory()
    _refused(lambda: Game.objects.filter(pk=game.pk).update(undo_requested_by=3))
    Game.objects.filter(pk=game.pk).update(undo_requested_by=2)


def test_a_user_takes_one_seat_of_a_game_but_imported_seats_may_all_be_empty():
    alice = UserFactory()
    game = GameFactory(players=[alice])
    _refused(lambda: SeatFactory(game=game, seat=2, user=alice))
    record = Game.objects.create(variant="Pente", imported=True, status="archived")
    SeatFactory(game=record, seat=1, user=None)
    SeatFactory(game=record, seat=2, user=None)


@pytest.mark.parametrize("seat", [0, 7])
def test_a_seat_number_outside_1_to_6_is_refused(seat):
    _refused(lambda: SeatFactory(seat=seat))


def test_two_moves_with_the_same_ply_are_refused():
    game = GameFactory()
    MoveFactory(game=game, ply=1, seat=1, point=180)
    _refused(lambda: MoveFactory(game=game, ply=1, seat=2, point=181))


def test_a_move_with_ply_zero_is_refused():
    _refused(lambda: MoveFactory(ply=0, seat=1, point=180))


def test_a_stone_needs_a_point_and_a_decision_a_choice():
    game = GameFactory()
    _refused(lambda: Move.objects.create(game=game, ply=1, seat=1, kind="stone", point=None))
    _refused(lambda: Move.objects.create(game=game, ply=1, seat=1, kind="decision", choice=""))
    _refused(
        lambda: Move.objects.create(
            game=game, ply=1, seat=1, kind="decision", point=3, choice="place_two"
        )
    )
    Move.objects.create(game=game, ply=1, seat=1, kind="decision", choice="place_two")


def test_a_set_between_a_player_and_themselves_is_refused():
    alice = UserFactory()
    _refused(lambda: GameSetFactory(player1=alice, player2=alice))


@pytest.mark.parametrize("games_count", [0, 3])
def test_a_set_of_other_than_one_or_two_games_is_refused(games_count):
    _refused(lambda: GameSetFactory(games_count=games_count))


def test_a_finished_set_needs_a_result_and_a_winner_that_matches_it():
    game_set = GameSetFactory()
    rows = GameSet.objects.filter(pk=game_set.pk)
    now = timezone.now()
    _refused(lambda: rows.update(status="finished", finished_at=now, result=None))
    _refused(
        lambda: rows.update(
            status="finished", result="player1", winner=game_set.player2, finished_at=now
        )
    )
    _refused(
        lambda: rows.update(
            status="finished", result="draw", winner=game_set.player1, finished_at=now
        )
    )
    rows.update(status="finished", result="player2", winner=game_set.player2, finished_at=now)


def _challenge(**fields) -> Challenge:
    return Challenge.objects.create(
        created_by=fields.pop("created_by", None) or UserFactory(), **fields
    )


def test_a_direct_challenge_names_an_invitee_and_an_open_one_does_not():
    _refused(lambda: _challenge(kind="direct"))
    _refused(lambda: _challenge(kind="open", invitee=UserFactory()))
    assert _challenge(kind="direct", invitee=UserFactory()).pk


def test_a_challenge_to_oneself_is_refused():
    alice = UserFactory()
    _refused(lambda: _challenge(kind="direct", invitee=alice, created_by=alice))


def test_a_challenge_seat_wanted_is_1_or_2_of_a_two_player_game():
    _refused(lambda: _challenge(seat_wanted=3))
    _refused(lambda: _challenge(seats=3, seat_wanted=1))
    assert _challenge(seat_wanted=2).seat_wanted == 2


def test_game_create_refuses_one_player_in_two_seats_with_a_400_not_a_database_error():
    alice = UserFactory()
    with pytest.raises(DomainError) as raised:
        game_create(variant="Pente", players=[alice, alice])
    assert raised.value.code == "bad_players"


def test_unused_time_control_numbers_are_refused_before_the_database():
    with pytest.raises(DomainError) as raised:
        TimeControl.from_fields(time_control="none", days_per_move=99)
    assert raised.value.code == "bad_time_control"
