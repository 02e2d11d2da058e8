"""factory_boy factories for tests of every app.

``GameFactory`` makes a bare ``Game`` row with seats (no moves): a fresh 2-player Pente game.
Prefer ``games.play.create.game_create`` when a test needs the engine's centre stone and clocks;
``make_game`` is a shortcut for that.
"""

from __future__ import annotations

import functools
import hashlib

import factory
from django.contrib.auth.hashers import make_password
from django.utils import timezone

from accounts.models import ApiToken, User
from games.challenges.models import Challenge, ChallengeEntry
from games.clocks.timecontrol import TimeControl
from games.engine import Termination
from games.play.create import game_create
from games.play.models import Game, GameSet, Move, Seat

TEST_PASSWORD = "secret-pass-123"


@functools.cache
def _password_hash(raw: str | None) -> str:
    return make_password(raw)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    # Like factory.django.Password (``UserFactory(password="x")`` hashes "x"), but each raw
    # password is hashed once per test run: hashing is deliberately slow.
    password = factory.Transformer(TEST_PASSWORD, transform=lambda raw: _password_hash(raw))


def computer(level: int = 1) -> User:
    """The computer opponent of ``level`` (``computer<level>``, made once a test)."""
    return UserFactory(username=f"computer{level}", is_computer=True, bot_level=level)


class ApiTokenFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ApiToken

    user = factory.SubFactory(UserFactory)
    name = "test"
    prefix = factory.LazyAttribute(lambda t: t.key[:8])
    key_hash = factory.LazyAttribute(lambda t: hashlib.sha256(t.key.encode()).hexdigest())

    class Params:
        key = factory.Sequence(lambda n: f"testkey{n:08d}abcdefghijklmnopqrstuvwxyz")


class GameSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GameSet

    player1 = factory.SubFactory(UserFactory)
    player2 = factory.SubFactory(UserFactory)
    variant = "Pente"
    rated = True
    category = "untimed"
    games_count = 2


class GameFactory(factory.django.DjangoModelFactory):
    """A bare game row plus Seat rows for ``players`` (default: two new users)."""

    class Meta:
        model = Game
        skip_postgeneration_save = True

    variant = "Pente"
    seats = 2
    imported = False
    # Imported records are archived (a database constraint).
    status = factory.LazyAttribute(
        lambda g: Game.Status.ARCHIVED if g.imported else Game.Status.IN_PROGRESS
    )
    started_at = factory.LazyFunction(timezone.now)
    winner_seats = factory.LazyFunction(list)
    # A finished game has an end reason and an over game its finishing time (database
    # constraints).
    end_reason = factory.LazyAttribute(
        lambda g: (
            (Termination.FIVE if g.winner_seats else Termination.DRAW)
            if g.status == Game.Status.FINISHED
            else ""
        )
    )
    finished_at = factory.LazyAttribute(
        lambda g: (
            None if g.status in (Game.Status.IN_PROGRESS, Game.Status.ARCHIVED) else timezone.now()
        )
    )

    @factory.post_generation
    def players(obj, create, extracted, **kwargs):  # noqa: N805
        if not create:
            return
        users = list(extracted) if extracted else [UserFactory() for _ in range(obj.seats)]
        for i, user in enumerate(users, start=1):
            Seat.objects.create(game=obj, seat=i, user=user, name=user.username if user else "")


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory, players=[])
    seat = 1
    user = factory.SubFactory(UserFactory)
    name = factory.LazyAttribute(lambda s: s.user.username if s.user else "")


class MoveFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Move

    game = factory.SubFactory(GameFactory)
    ply = factory.Sequence(lambda n: n + 1)
    seat = 1
    kind = Move.Kind.STONE
    point = 180


class ChallengeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Challenge

    created_by = factory.SubFactory(UserFactory)
    kind = Challenge.Kind.OPEN
    variant = "Pente"
    seats = 2
    rated = False
    time_control = "none"
    status = Challenge.Status.OPEN


class ChallengeEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ChallengeEntry

    challenge = factory.SubFactory(ChallengeFactory)
    user = factory.SubFactory(UserFactory)


def make_game(*, players=None, variant: str = "Pente", **options) -> Game:
    """A game created through ``games.play.create.game_create`` (centre stone, clocks, seats)."""
    if "time_control" in options and not isinstance(options["time_control"], TimeControl):
        options["time_control"] = TimeControl.pop_from(options)
    if players is None:
        seats = options.pop("seats", 2)
        players = [UserFactory() for _ in range(seats)]
    return game_create(variant=variant, players=list(players), **options)
