import pytest
from django.db import IntegrityError, transaction

from games.play.models import Move, Seat
from tests.factories import GameFactory, MoveFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_user_factory_sets_a_usable_password():
    user = UserFactory()
    assert user.check_password("secret-pass-123")


def test_game_factory_seats_its_players_in_order():
    a, b = UserFactory(), UserFactory()
    game = GameFactory(players=[a, b])
    seats = list(Seat.objects.filter(game=game).values_list("seat", "user_id"))
    assert seats == [(1, a.id), (2, b.id)]


def test_two_moves_with_the_same_ply_are_refused_by_the_database():
    game = GameFactory()
    MoveFactory(game=game, ply=1, point=180)
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(game=game, ply=1, seat=2, point=181)


def test_two_users_in_the_same_seat_are_refused_by_the_database():
    game = GameFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, seat=1, user=UserFactory(), name="x")


def test_user_factory_hashes_a_given_password():
    user = UserFactory(password="another-pass-456")
    assert user.check_password("another-pass-456")
    assert not user.check_password("secret-pass-123")


@pytest.mark.parametrize(
    "model",
    ["games/game", "games/gameset", "games/challenge", "accounts/apitoken", "accounts/user"],
)
def test_admin_pages_open_for_every_model(client, model):
    from tests.factories import make_game

    admin = UserFactory(is_staff=True, is_superuser=True)
    game = make_game()
    client.force_login(admin)
    assert client.get(f"/admin/{model}/").status_code == 200
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
